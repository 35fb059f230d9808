package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * The invariant checker accepts a consistent engine and throws {@link InvariantViolation} for each
 * kind of corruption it is meant to catch: a task on a runqueue twice, a busy or nohz_full ILB, a
 * NOHZ mask out of step with the runqueues, a move that breaks affinity, and idle masks out of step
 * with {@code idle_cpu()} (a change of {@code rq->curr} that bypassed the refresh). Over a run of
 * short sleepers on an SMT2 machine, the incrementally maintained idle masks equal the per-CPU
 * predicates every 200 ns (newidle windows included) and, through the checker, at every ILB kick.
 * Without {@code check_invariants}, the cheap checks still run and a violation names the invariant,
 * the simulated time and the CPU or task.
 */
final class InvariantCheckerTest {

  private static EngineRun running() {
    return running(true);
  }

  private static EngineRun running(boolean full) {
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .options(EngineOptions.defaults().withCheckInvariants(full))
            .tasks(
                host -> {
                  host.spawn(
                      new TaskSpec(
                          "a", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 0), WorkClass.COMPUTE),
                      ScriptedWorkload.spin(),
                      0);
                  host.spawn(
                      new TaskSpec(
                          "b", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 0), WorkClass.COMPUTE),
                      ScriptedWorkload.spin(),
                      0);
                })
            .build();
    sim.advanceTo(3_000_000);
    return sim;
  }

  @Test
  void consistentEngine_passesTheSweep() {
    EngineRun sim = running();
    assertThatCode(sim.invariants::sweep).doesNotThrowAnyException();
  }

  @Test
  void taskTwiceOnARunqueue_detected() {
    EngineRun sim = running();
    CpuRunqueue rq = sim.rq(0);
    rq.addHead(rq.tasks[0]);
    assertThatThrownBy(sim.invariants::sweep)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("2 times");
  }

  @Test
  void busyIlb_detected() {
    EngineRun sim = running();
    assertThatThrownBy(() -> sim.invariants.checkIlbChoice(1, 0))
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("not idle");
  }

  @Test
  void nohzMaskOutOfStep_detected() {
    EngineRun sim = running();
    sim.nohzIdleMask.set(0);
    assertThatThrownBy(sim.invariants::sweep)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("nohz_tick_stopped");
  }

  @Test
  void idleMasks_shortSleepersOnSmt2_equalThePredicatesThroughoutTheRun() {
    // 12 tasks on 8 CPUs (4 SMT2 cores), each running 300 us then sleeping 0.6-1.7 ms: runqueues
    // overload at times, so newidle balancing runs (a window where no task is current but the
    // CPU is not idle_cpu()); CPUs go idle and busy thousands of times, and cores are fully idle
    // at times and partially busy at others.
    EngineRun sim =
        EngineFixture.on("1n1l4c2t")
            .tasks(
                host -> {
                  for (int i = 0; i < 12; i++) {
                    host.spawn(
                        new TaskSpec(
                            "t" + i, SchedPolicy.NORMAL, 0, CpuMasks.full(8), WorkClass.COMPUTE),
                        ScriptedWorkload.runSleep(300_000, 600_000 + 100_000L * i),
                        0);
                  }
                })
            .build();
    int sawPartialCore = 0;
    int sawFullCore = 0;
    int sawNewidle = 0;
    // Every 200 ns for 40 ms: newidle balancing (not idle_cpu(), yet no task current) lasts
    // microseconds here, so many of its windows are sampled.
    for (long t = 200; t <= 40_000_000; t += 200) {
      sim.advanceTo(t);
      sim.invariants.checkIdleMasks();
      CpuMask idle = sim.state.idleMask();
      CpuMask idleCore = sim.state.idleCoreMask();
      sawFullCore += idleCore.isEmpty() ? 0 : 1;
      sawPartialCore += idle.weight() > idleCore.weight() ? 1 : 0;
      for (int cpu = 0; cpu < 8; cpu++) {
        sawNewidle += sim.rq(cpu).phase == CpuPhase.NEWIDLE ? 1 : 0;
      }
    }
    assertThat(sawFullCore).isPositive();
    assertThat(sawPartialCore).isPositive();
    assertThat(sawNewidle).isPositive();
  }

  @Test
  void idleMaskOutOfStep_detected() {
    EngineRun sim = running();
    CpuRunqueue rq = sim.rq(0);
    // Both tasks are pinned to CPU 0: it is busy. Change rq->curr without setCurr().
    rq.curr = null;
    rq.tasks[0].state = TaskState.QUEUED;
    rq.nr = 0;
    assertThatThrownBy(sim.invariants::checkIdleMasks)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("idle mask says false but idle_cpu() is true");
  }

  @Test
  void moveOutsideAffinity_refused() {
    EngineRun sim = running();
    CpuRunqueue rq = sim.rq(0);
    Task queued = rq.curr == rq.tasks[0] ? rq.tasks[1] : rq.tasks[0];
    assertThatThrownBy(() -> sim.engine.fair.migrateQueuedTask(queued.id, 2))
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("affinity");
  }

  @Test
  void cheapChecks_runWithoutTheOption_namingInvariantTimeAndTask() {
    EngineRun sim = running(false);
    CpuRunqueue rq = sim.rq(0);
    rq.addHead(rq.tasks[0]);
    assertThatThrownBy(sim.invariants::sweep)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageStartingWith(
            "invariant 'task on exactly one runqueue' violated at 0.003000 s" + " simulated: ")
        .hasMessageContaining("2 times on CPU 0's runqueue");
    assertThatThrownBy(() -> running(false).invariants.checkIlbChoice(1, 0))
        .hasMessageStartingWith(
            "invariant 'ILB CPU idle' violated at 0.003000 s simulated:"
                + " the ILB selector chose CPU 0, which is not idle (kicker CPU 1)");
  }

  @Test
  void expensiveChecks_onlyWithTheOption() {
    EngineRun sim = running(false);
    sim.nohzIdleMask.set(0);
    assertThatCode(sim.invariants::sweep).doesNotThrowAnyException();
    EngineRun other = running(false);
    CpuRunqueue rq = other.rq(0);
    rq.curr = null;
    rq.tasks[0].state = TaskState.QUEUED;
    rq.nr = 0;
    assertThatCode(other.invariants::checkIdleMasks).doesNotThrowAnyException();
  }
}
