package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * The invariant checker accepts a consistent engine and throws {@link InvariantViolation} for
 * each kind of corruption it is meant to catch: a task on a runqueue twice, a busy or nohz_full
 * ILB, a NOHZ mask out of step with the runqueues, and a move that breaks affinity.
 */
final class InvariantCheckerTest {

  private static Simulation running() {
    Simulation sim =
        EngineFixture.on("1n1l4c1t")
            .tasks(host -> {
              host.spawn(new TaskSpec("a", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 0),
                  WorkClass.COMPUTE), ScriptedWorkload.spin(), 0);
              host.spawn(new TaskSpec("b", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 0),
                  WorkClass.COMPUTE), ScriptedWorkload.spin(), 0);
            })
            .build();
    sim.advanceTo(3_000_000);
    return sim;
  }

  @Test
  void consistentEngine_passesTheSweep() {
    Simulation sim = running();
    assertThatCode(sim.invariants::sweep).doesNotThrowAnyException();
  }

  @Test
  void taskTwiceOnARunqueue_detected() {
    Simulation sim = running();
    CpuRunqueue rq = sim.rq(0);
    rq.addHead(rq.tasks[0]);
    assertThatThrownBy(sim.invariants::sweep)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("2 times");
  }

  @Test
  void busyIlb_detected() {
    Simulation sim = running();
    assertThatThrownBy(() -> sim.invariants.checkIlbChoice(1, 0))
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("not idle");
  }

  @Test
  void nohzMaskOutOfStep_detected() {
    Simulation sim = running();
    sim.nohzIdleMask.set(0);
    assertThatThrownBy(sim.invariants::sweep)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("nohz_tick_stopped");
  }

  @Test
  void moveOutsideAffinity_refused() {
    Simulation sim = running();
    CpuRunqueue rq = sim.rq(0);
    Task queued = rq.curr == rq.tasks[0] ? rq.tasks[1] : rq.tasks[0];
    assertThatThrownBy(() -> sim.scheduler.migrateQueuedTask(queued.id, 2))
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("affinity");
  }
}
