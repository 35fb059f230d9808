package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * The core-level deep idle state ({@link EngineOptions#deepIdleExitNs()}): an IPI to a CPU whose
 * whole core has been hardware-idle for the state's residency acts after the IPI latency plus the
 * exit latency; to a CPU whose SMT sibling is busy, or whose core went idle more recently than the
 * residency, after the IPI latency alone; and not at all without the option.
 *
 * <p>Machine 1n1l2c2t: a task spins on CPU 0; a sleeping task is pinned either to CPU 0's SMT
 * sibling or to a CPU of the other, fully idle core, and CPU 0's task wakes it at 5 ms.
 */
final class DeepIdleTest {

  private static final long MS = 1_000_000;
  private static final long EXIT = 133_000;
  private static final long IPI = 2_000;

  /** Wakes a task pinned to CPU 0's SMT sibling or to the other core; how long until it runs. */
  private static long wakeToRun(EngineOptions options, boolean otherCore) {
    int sibling = TestMachines.unit("1n1l2c2t").topology().smtSiblings(0).next(0);
    int pinned = otherCore ? (sibling == 1 ? 2 : 1) : sibling;
    long[] ranAt = {-1};
    TaskProgram sleeper =
        new TaskProgram() {
          private boolean started;

          @Override
          public void next(TaskControl control) {
            if (started && ranAt[0] < 0) {
              ranAt[0] = control.nowNs();
            }
            started = true;
            control.block();
          }
        };
    EngineRun sim =
        EngineFixture.on("1n1l2c2t")
            .options(options.withCheckInvariants(true))
            .tasks(
                host -> {
                  host.spawn(spec("spin", 0), ScriptedWorkload.spin(), 0);
                  host.spawn(spec("sleeper", pinned), sleeper, pinned);
                })
            .build();
    sim.advanceTo(5 * MS);
    long wokenAt = sim.ctx.now();
    sim.engine.wakeups.wakeFromTask(sim.task(0), sim.task(1).id, false);
    sim.advanceTo(6 * MS);
    assertThat(ranAt[0]).as("the sleeper ran again").isPositive();
    return ranAt[0] - wokenAt;
  }

  private static TaskSpec spec(String name, int cpu) {
    return new TaskSpec(
        name,
        SchedPolicy.NORMAL,
        0,
        CpuMasks.parseCpuList(Integer.toString(cpu), 4),
        WorkClass.COMPUTE);
  }

  @Test
  void fullyIdleCore_pastResidency_paysTheExitLatency() {
    long ns =
        wakeToRun(EngineOptions.defaults().withoutBackground().withDeepIdleExitNs(EXIT), true);
    assertThat(ns).isBetween(IPI + EXIT, IPI + EXIT + 1_000);
  }

  @Test
  void siblingOfABusyCpu_isNotInTheCoreState_paysTheIpiOnly() {
    long ns =
        wakeToRun(EngineOptions.defaults().withoutBackground().withDeepIdleExitNs(EXIT), false);
    assertThat(ns).isBetween(IPI, IPI + 1_000);
  }

  @Test
  void coreIdleShorterThanTheResidency_paysTheIpiOnly() {
    // The idle history puts every CPU's last idle instant at most 10 ms before the start, so at
    // 5 ms no core has been idle for 20 ms.
    long ns =
        wakeToRun(
            EngineOptions.defaults()
                .withoutBackground()
                .withDeepIdleExitNs(EXIT)
                .withDeepIdleResidencyNs(20 * MS),
            true);
    assertThat(ns).isBetween(IPI, IPI + 1_000);
  }

  @Test
  void withoutTheOption_noExitLatency() {
    long ns = wakeToRun(EngineOptions.defaults().withoutBackground(), true);
    assertThat(ns).isBetween(IPI, IPI + 1_000);
  }
}
