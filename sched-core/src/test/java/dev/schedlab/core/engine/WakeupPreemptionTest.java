package dev.schedlab.core.engine;

import static dev.schedlab.core.engine.EngineFixture.pinned;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * {@code check_preempt_wakeup_fair()} with RUN_TO_PARITY: a task just picked runs on while it is
 * eligible and below its deadline at the pick ({@code set_protect_slice()}), even when a heavier
 * task with an earlier deadline wakes on its CPU; without RUN_TO_PARITY the protection lasts 700 µs
 * of its run time; a task whose protection has run out is preempted by a wakee that {@code
 * pick_eevdf()} would choose.
 *
 * <p>Two CPUs, so the base slice is 1.4 ms (700 µs × (1 + log2 2)). Task a (nice 0) sleeps until
 * {@code aWakes}, then runs; task b (nice −10, weight 9548, so its virtual slice is a ninth of a's)
 * sleeps until {@code bWakes}, then runs; both on CPU 0. a is picked alone at {@code aWakes}, so it
 * stays eligible (it is the average), and b, placed at the average with a deadline 0.15 ms of a's
 * virtual time later, is what {@code pick_eevdf()} would choose.
 */
final class WakeupPreemptionTest {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;

  @Test
  void runToParity_eligibleTaskWithinItsSlice_isNotPreemptedByAnEarlierDeadline() {
    EngineRun sim = twoTasks(10 * MS, 11 * MS, true);

    sim.advanceTo(11 * MS + 10 * US);
    // 1 ms into a's 1.4 ms slice: protected.
    assertThat(sim.rq(0).curr).isSameAs(sim.task(0));
    sim.advanceTo(11 * MS + 900 * US);
    assertThat(sim.rq(0).curr).isSameAs(sim.task(0));
    sim.advanceTo(12 * MS + 10 * US);
    // a's slice ended at 11.4 ms and the tick at 12 ms notices (update_deadline()): b, with the
    // earlier deadline, runs.
    assertThat(sim.rq(0).curr).isSameAs(sim.task(1));
  }

  @Test
  void noRunToParity_protectionEndsAfter700us() {
    EngineRun sim = twoTasks(10 * MS, 11 * MS, false);

    sim.advanceTo(11 * MS + 10 * US);
    assertThat(sim.rq(0).curr).isSameAs(sim.task(1));
  }

  @Test
  void noRunToParity_within700us_stillProtected() {
    EngineRun sim = twoTasks(10 * MS, 10 * MS + 500 * US, false);

    sim.advanceTo(10 * MS + 510 * US);
    assertThat(sim.rq(0).curr).isSameAs(sim.task(0));
  }

  @Test
  void runToParity_protectionEndsAtTheDeadlineOfThePick() {
    // a runs alone from 1 ms: its slice ends at 2.4 ms and, alone, it is not picked again, so by
    // 11 ms it is far past the deadline it was protected to.
    EngineRun sim = twoTasks(1 * MS, 11 * MS, true);

    sim.advanceTo(11 * MS + 10 * US);
    assertThat(sim.rq(0).curr).isSameAs(sim.task(1));
  }

  private static EngineRun twoTasks(long aWakes, long bWakes, boolean runToParity) {
    EngineFixture fixture =
        EngineFixture.on("1n1l2c1t")
            .tasks(
                host -> {
                  host.spawn(pinned("a", 2, 0), sleepThenRun(aWakes), 0);
                  host.spawn(
                      new TaskSpec(
                          "b", SchedPolicy.NORMAL, -10, CpuMasks.of(2, 0), WorkClass.COMPUTE),
                      sleepThenRun(bWakes),
                      0);
                });
    if (!runToParity) {
      fixture.options(
          EngineOptions.defaults()
              .withoutBackground()
              .withCheckInvariants(true)
              .withRunToParity(false));
    }
    return fixture.build();
  }

  /** Sleeps until {@code wakeNs} (it starts at 0), then runs for a second. */
  private static TaskProgram sleepThenRun(long wakeNs) {
    return new TaskProgram() {
      private boolean slept;

      @Override
      public void next(TaskControl control) {
        if (!slept) {
          slept = true;
          control.sleep(wakeNs - control.nowNs());
        } else {
          control.run(1e9);
        }
      }
    };
  }
}
