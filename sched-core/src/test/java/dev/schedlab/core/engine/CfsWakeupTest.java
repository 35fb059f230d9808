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
 * Linux 6.1's CFS wakeup rules ({@link WakeupRule#CFS_6_1}): the tunables scale with the CPU count
 * as {@code get_update_sysctl_factor()} scales them; a wakee preempts when the running task's
 * vruntime leads by more than {@code sysctl_sched_wakeup_granularity} converted to the wakee's
 * weight ({@code wakeup_preempt_entity()}); a sleeper is placed at most half a latency behind
 * {@code min_vruntime} (GENTLE_FAIR_SLEEPERS); a new task one virtual slice after it (START_DEBIT).
 * In the engine, on two CPUs (latency 12 ms, granularity 2 ms), a heavy wakee preempts a task that
 * RUN_TO_PARITY would protect under EEVDF, and a nice-0 wakee preempts only once the running task's
 * lead exceeds the granularity.
 */
final class CfsWakeupTest {

  private static final long MS = 1_000_000;
  private static final long US = 1_000;

  @Test
  void tunables_scaleWithLog2OfUpToEightCpus() {
    CfsWakeup eight = new CfsWakeup(64);
    assertThat(eight.latencyNs).isEqualTo(24 * MS);
    assertThat(eight.minGranularityNs).isEqualTo(3 * MS);
    assertThat(eight.wakeupGranularityNs).isEqualTo(4 * MS);
    CfsWakeup two = new CfsWakeup(2);
    assertThat(two.latencyNs).isEqualTo(12 * MS);
    assertThat(two.wakeupGranularityNs).isEqualTo(2 * MS);
    assertThat(new CfsWakeup(1).wakeupGranularityNs).isEqualTo(1 * MS);
  }

  @Test
  void preempts_whenTheLeadExceedsTheGranularityScaledByTheWakeesWeight() {
    CfsWakeup cfs = new CfsWakeup(8);
    // nice 0: granularity 4 ms of virtual time.
    assertThat(cfs.preempts(100 * MS + 4 * MS + 1, 100 * MS, 1024)).isTrue();
    assertThat(cfs.preempts(100 * MS + 4 * MS, 100 * MS, 1024)).isFalse();
    assertThat(cfs.preempts(100 * MS, 100 * MS + 1, 1024)).isFalse();
    // nice -5 (3121): 4 ms * 1024 / 3121 = 1.31 ms; nice 5 (335): 12.2 ms.
    assertThat(cfs.preempts(102 * MS, 100 * MS, 3121)).isTrue();
    assertThat(cfs.preempts(105 * MS, 100 * MS, 335)).isFalse();
    assertThat(cfs.preempts(113 * MS, 100 * MS, 335)).isTrue();
  }

  @Test
  void placement_sleeperCreditIsHalfALatency_newTaskStartsASliceLate() {
    CfsWakeup cfs = new CfsWakeup(8);
    assertThat(cfs.placeWaking(500 * MS, -100 * MS)).isEqualTo(488 * MS);
    assertThat(cfs.placeWaking(500 * MS, -1 * MS)).isEqualTo(499 * MS);
    assertThat(cfs.placeWaking(500 * MS, 2 * MS)).isEqualTo(502 * MS);
    // One nice-0 task queued: the new one's slice is half the 24 ms period.
    assertThat(cfs.placeNew(500 * MS, 1, 1024, 1024)).isEqualTo(512 * MS);
    // Nine tasks with it: the period is 9 minimum granularities, 3 ms each.
    assertThat(cfs.sliceNs(9, 9 * 1024, 1024)).isEqualTo(3 * MS);
  }

  @Test
  void heavyWakee_preemptsATaskThatEevdfWouldProtect() {
    // b (nice -10) is spawned first, so START_DEBIT puts a after it; a runs from 10 ms and b
    // wakes at 11 ms about 2 ms of virtual time behind it, far above its granularity of 2 ms *
    // 1024 / 9548 = 0.21 ms. (WakeupPreemptionTest: under EEVDF with RUN_TO_PARITY a, picked
    // at 10 ms, is still protected then.)
    EngineRun sim = twoTasks(10 * MS, 11 * MS, -10, true);
    sim.advanceTo(11 * MS + 10 * US);
    assertThat(sim.rq(0).curr.name).isEqualTo("b");
  }

  @Test
  void niceZeroWakee_preemptsOnlyOnceTheLeadExceedsTheGranularity() {
    // a is placed at 12 ms of virtual time (alone, a whole 12 ms slice), b after it at 18 ms
    // (half the period with two tasks). a runs from 10 ms: at 16.5 ms it leads b by 0.5 ms, at
    // 20.5 ms by 2.5 ms; the granularity is 2 ms.
    EngineRun early = twoTasks(10 * MS, 16_500 * US, 0, false);
    early.advanceTo(16_510 * US);
    assertThat(early.rq(0).curr).isSameAs(early.task(0));
    EngineRun late = twoTasks(10 * MS, 20_500 * US, 0, false);
    late.advanceTo(20_510 * US);
    assertThat(late.rq(0).curr).isSameAs(late.task(1));
  }

  private static EngineRun twoTasks(long aWakes, long bWakes, int bNice, boolean bFirst) {
    return EngineFixture.on("1n1l2c1t")
        .tasks(
            host -> {
              TaskSpec b =
                  new TaskSpec(
                      "b", SchedPolicy.NORMAL, bNice, CpuMasks.of(2, 0), WorkClass.COMPUTE);
              if (bFirst) {
                host.spawn(b, sleepThenRun(bWakes), 0);
              }
              host.spawn(pinned("a", 2, 0), sleepThenRun(aWakes), 0);
              if (!bFirst) {
                host.spawn(b, sleepThenRun(bWakes), 0);
              }
            })
        .options(
            EngineOptions.defaults()
                .withoutBackground()
                .withCheckInvariants(true)
                .withWakeupRule(WakeupRule.CFS_6_1))
        .build();
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
