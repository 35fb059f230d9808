package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * The wakeup race window ({@link EngineOptions#wakeupRaceWindowNs()}): a wakeup does not see the
 * task another CPU's wakeup queued on an idle CPU less than the window earlier, as two {@code
 * select_task_rq_fair()} scans that overlap cannot; wakeups from one CPU see each other, and
 * without a window every wakeup sees every earlier one.
 *
 * <p>Machine 1n1l4c1t: CPUs 0 and 1 run spinning wakers; task {@code b} may use CPUs 2 and 3 and
 * sleeps on one of them (X, chosen by fork placement); a task pinned to X wakes first, then {@code
 * b}. Seeing X busy, {@code b}'s wakeup takes the other idle CPU; not seeing it, it takes its
 * previous CPU X, which looks idle ({@code select_idle_sibling()}'s prev test).
 */
final class WakeupRaceTest {

  private static final long MS = 1_000_000;

  private static TaskSpec task(String name, String cpus) {
    return new TaskSpec(
        name, SchedPolicy.NORMAL, 0, CpuMasks.parseCpuList(cpus, 4), WorkClass.COMPUTE);
  }

  /** Wakes the task pinned to b's CPU from CPU 0, then b from {@code bWaker}; b's new CPU. */
  private static int race(long windowNs, int bWaker) {
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .options(
                EngineOptions.defaults()
                    .withoutBackground()
                    .withCheckInvariants(true)
                    .withWakeupRaceWindowNs(windowNs))
            .tasks(
                host -> {
                  host.spawn(task("w0", "0"), ScriptedWorkload.spin(), 0);
                  host.spawn(task("w1", "1"), ScriptedWorkload.spin(), 1);
                  host.spawn(task("a2", "2"), ScriptedWorkload.blockForever(), 2);
                  host.spawn(task("a3", "3"), ScriptedWorkload.blockForever(), 3);
                  host.spawn(task("b", "2-3"), ScriptedWorkload.blockForever(), 2);
                })
            .build();
    sim.advanceTo(5 * MS);
    Task b = sim.task(4);
    int x = b.cpu;
    Task pinnedToX = sim.task(x == 2 ? 2 : 3);
    sim.engine.wakeups.wakeFromTask(sim.task(0), pinnedToX.id, false);
    sim.engine.wakeups.wakeFromTask(sim.task(bWaker), b.id, false);
    assertThat(pinnedToX.cpu).isEqualTo(x);
    return b.cpu == x ? 1 : 0;
  }

  @Test
  void noWindow_secondWakeupSeesTheFirst_andTakesTheOtherIdleCpu() {
    assertThat(race(0, 1)).as("b on its busy previous CPU").isZero();
  }

  @Test
  void window_wakeupFromAnotherCpu_doesNotSeeTheClaim_andStacksOnIt() {
    assertThat(race(5_000, 1)).as("b on its previous CPU, now holding two tasks").isOne();
  }

  @Test
  void window_wakeupFromTheSameCpu_seesItsOwnClaim() {
    assertThat(race(5_000, 0)).as("b on its busy previous CPU").isZero();
  }
}
