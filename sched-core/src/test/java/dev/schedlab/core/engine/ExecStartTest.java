package dev.schedlab.core.engine;

import static dev.schedlab.core.engine.EngineFixture.pinned;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * {@code se->exec_start}, which {@code task_hot()} measures from: set when a task starts running,
 * advanced by every {@code update_curr()} (so a task that stopped running holds the instant it
 * stopped), and reset by fork and by {@code ENQUEUE_MIGRATED} so that a new or just-moved task is
 * not cache-hot. Before these rules the engine kept the instant the task last <em>started</em>
 * running, which made a task preempted after a long slice look cold at once.
 */
final class ExecStartTest {

  private static final long MS = 1_000_000;

  @Test
  void taskThatRanThenSlept_execStartIsWhenItStopped() {
    // Runs 1 ms of work from t = 0 at full speed, then sleeps 5 ms.
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(host -> host.spawn(pinned("a", 2, 1), ScriptedWorkload.runSleep(MS, 5 * MS), 1))
            .build();
    sim.advanceTo(2 * MS);
    Task a = sim.task(0);
    assertThat(a.state).isEqualTo(TaskState.SLEEPING);
    // Started at 0, stopped at 1 ms: update_curr() at the dequeue moved exec_start to 1 ms.
    // It started at some s >= 0 (fork placement, a few µs) and ran about 1 ms; update_curr() at
    // the dequeue moved exec_start to s + its run time. Kept at s, it would be near 0.
    assertThat(sim.host.execStartNs(a.id)).isBetween(a.sumExecNs, a.sumExecNs + 100_000);
  }

  @Test
  void preemptedTask_execStartIsThePreemption_notTheStartOfItsSlice() {
    // Two hogs share CPU 0; whenever one waits, it stopped running when the other started.
    EngineRun sim = EngineFixture.on("1n1l2c1t").twoHogs(0).build();
    long step = 10_000;
    long lastSwitchNs = -1;
    int current = -1;
    for (long t = step; t <= 8 * MS; t += step) {
      sim.advanceTo(t);
      int now = sim.rq(0).curr.id;
      if (now != current) {
        current = now;
        lastSwitchNs = t;
      }
    }
    Task waiting = sim.task(current == 0 ? 1 : 0);
    assertThat(waiting.state).isEqualTo(TaskState.QUEUED);
    assertThat(lastSwitchNs).isGreaterThan(MS);
    // The switch happened within the last sampling step before lastSwitchNs. Had exec_start kept
    // the start of the waiting task's slice, it would lie a whole slice (base slice 1.4 ms on this
    // 2-CPU machine) earlier.
    assertThat(sim.host.execStartNs(waiting.id)).isBetween(lastSwitchNs - step, lastSwitchNs);
  }

  @Test
  void newTask_isNotCacheHotBeforeItRuns() {
    EngineRun sim = EngineFixture.on("1n1l2c1t").twoHogs(0).build();
    sim.advanceTo(100_000);
    Task waiting = sim.task(sim.rq(0).curr.id == 0 ? 1 : 0);
    assertThat(waiting.state).isEqualTo(TaskState.QUEUED);
    // __sched_fork(): exec_start 0, i.e. long before any rq clock; never within migration cost.
    assertThat(sim.loop.now() - sim.host.execStartNs(waiting.id))
        .isGreaterThan(BalancerOptions.DEFAULT_MIGRATION_COST_NS);
  }

  @Test
  void balancerMove_resetsExecStart() {
    // Each CPU runs a pinned hog; a nice-19 task allowed on both waits on one of them and, once
    // moved to the other, waits there too (its long virtual deadline does not preempt).
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(
                host -> {
                  host.spawn(pinned("h0", 2, 0), ScriptedWorkload.spin(), 0);
                  host.spawn(
                      new TaskSpec(
                          "w", SchedPolicy.NORMAL, 19, CpuMasks.of(2, 0, 1), WorkClass.COMPUTE),
                      ScriptedWorkload.spin(),
                      0);
                  host.spawn(pinned("h1", 2, 1), ScriptedWorkload.spin(), 1);
                })
            .build();
    sim.advanceTo(1);
    Task w = sim.task(1);
    assertThat(w.state).isEqualTo(TaskState.QUEUED);
    int dst = 1 - w.cpu;
    // Make it look as if it had just run, then move it as detach_tasks() does.
    w.execStartNs = sim.loop.now();
    sim.engine.fair.migrateQueuedTask(w.id, dst);
    assertThat(w.cpu).isEqualTo(dst);
    assertThat(w.state).isEqualTo(TaskState.QUEUED);
    assertThat(sim.host.execStartNs(w.id)).isEqualTo(Task.EXEC_START_COLD);
    assertThat(sim.loop.now() - sim.host.execStartNs(w.id))
        .isGreaterThan(BalancerOptions.DEFAULT_MIGRATION_COST_NS);
  }
}
