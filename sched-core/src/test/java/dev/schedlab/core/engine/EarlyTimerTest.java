package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * A CPU timer that fires before its step's completion and before the model's announced speed change
 * (a steal moved the completion: softirq balancing on the busy CPU) keeps the speeds of the last
 * arming ({@link TaskProgress#rearmBeforeCompletion}); with {@code check_invariants} the engine
 * asks the model again there and fails when the answer changed, i.e. when the model broke its
 * contract.
 */
final class EarlyTimerTest {

  private static final long SLOW_FROM_NS = 3_000_000;

  @Test
  void earlyTimers_keepTheSpeed_andAreCheckedAgainstTheModel() {
    Topology topology = TestMachines.shape("1n1l2c1t");
    EngineRun checked = run(topology, new TestMachines.UnitSpeed(topology), true);
    checked.advanceTo(20_000_000);
    // The busy CPU balanced and lost time to it, so its timer fired early more than once.
    assertThat(checked.rq(0).stolenNs).isPositive();
    assertThat(checked.rq(0).speed).isEqualTo(1.0);

    // A model whose speed drops at 3 ms without announcing it.
    EngineRun unannounced = run(topology, new SilentDrop(), true);
    assertThatThrownBy(() -> unannounced.advanceTo(20_000_000))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("before its announced next change");

    // Unchecked, the first step's early timer (at 5 ms, past the silent drop) keeps the speed of
    // the last arming and re-arms at the step's new completion.
    EngineRun kept = run(topology, new SilentDrop(), false);
    kept.advanceTo(5_000_000);
    CpuRunqueue rq = kept.rq(0);
    assertThat(rq.stolenNs).isPositive();
    assertThat(rq.completionTime).isGreaterThan(5_000_000);
    assertThat(rq.timerAt).isEqualTo(rq.completionTime);
    assertThat(rq.speed).isEqualTo(1.0);
  }

  private static EngineRun run(Topology topology, PerformanceModel model, boolean check) {
    return EngineFixture.on(TestMachines.hardware(topology, model))
        .options(EngineOptions.defaults().withoutBackground().withCheckInvariants(check))
        .tasks(
            host ->
                host.spawn(
                    new TaskSpec(
                        "hog", SchedPolicy.NORMAL, 0, CpuMasks.of(2, 0), WorkClass.COMPUTE),
                    // 5 ms steps: each step's timer is armed at its completion and fires early.
                    control -> control.run(5e6),
                    0))
        .build();
  }

  /** Full speed until {@link #SLOW_FROM_NS}, half after, and never says so. */
  private static final class SilentDrop implements PerformanceModel {
    @Override
    public double speed(int cpu, int taskId, PerfStateView state) {
      return state.nowNs() < SLOW_FROM_NS ? 1.0 : 0.5;
    }

    @Override
    public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
      return Long.MAX_VALUE;
    }
  }
}
