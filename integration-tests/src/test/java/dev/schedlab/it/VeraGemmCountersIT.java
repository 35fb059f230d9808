package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.balance.LbField;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.Log2Histogram;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.view.IdleType;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The thread's baseline counters (Vera, the OpenBLAS GEMM, first-idle ILB, whole machine, per
 * second; issue 19's table, read by the balance intervals and the source) against the model's
 * default Vera GEMM ({@code wl.gemm}, {@code wait=spin}), 1 simulated second. Each figure is held
 * to the rule "within 2× of the thread's": the model and the machine share the balance intervals
 * and the NOHZ rules but not the machine's background, its real pass costs or the bpftrace window.
 *
 * <p>The machine's background ({@code BackgroundIrqs}: timer expiries, device interrupts on the
 * boot CPU, each CPU's kworker) is on by default, so idle CPUs wake, kworkers sleep through newidle
 * balancing and queue beside busy threads. Not held within 2×: CPU_NEWLY_IDLE (33/s per level on
 * the machine; the model's kworkers, one wakeup per CPU per second, an assumption, give several
 * times more, see docs/reproductions.md, claim 1): only that there is some at every level, as on
 * the machine.
 */
final class VeraGemmCountersIT {

  private static final long MS = 1_000_000;
  private static SimulationResult result;

  @BeforeAll
  static void run() {
    HardwareModel vera = Scenarios.machine("hw.vera", Map.of(), "");
    result =
        Scenarios.run(
            vera,
            "wl.gemm",
            Map.of(),
            Scenarios.profile("mainline-7.1"),
            1_000 * MS,
            1,
            SimulationListener.NONE,
            BalancerOptions.defaults(),
            EngineOptions.defaults());
  }

  private static double perSecond(long count) {
    return count * 1e9 / result.simulatedNs();
  }

  private static double lbCount(String level, IdleType idle) {
    int index = result.levelNames().indexOf(level);
    assertThat(index).as("domain level %s", level).isNotNegative();
    return perSecond(result.lbStats().lbTotal(index, idle, LbField.COUNT));
  }

  private static void within2x(String what, double model, double thread) {
    assertThat(model)
        .as("%s: model %.1f/s, thread %.1f/s", what, model, thread)
        .isBetween(thread / 2, thread * 2);
  }

  @Test
  void softirq_isTickRaisesPlusKickedPasses_within2xOfTheThread() {
    // /proc/softirqs counts handler runs: one per tick that raised it, one per NOHZ kick IPI.
    assertThat(result.softirqs()).isEqualTo(result.softirqsFromTick() + result.softirqsFromKick());
    // Every busy CPU's own balance runs in a tick-raised softirq.
    assertThat(result.softirqsFromTick())
        .isGreaterThanOrEqualTo(result.lbStats().lbTotal(IdleType.NOT_IDLE, LbField.COUNT));
    within2x("SCHED_SOFTIRQ", result.softirqsPerSecond(), 2_625);
  }

  @Test
  void loadBalanceAttempts_within2xOfTheThread() {
    within2x("lb attempts", perSecond(result.lbStats().lbTotal(LbField.COUNT)), 69_832);
  }

  @Test
  void perDomainIdleAndBusyRates_within2xOfTheThread() {
    within2x("SMT CPU_IDLE", lbCount("SMT", IdleType.IDLE), 67_041);
    within2x("MC CPU_IDLE", lbCount("MC", IdleType.IDLE), 869);
    within2x("NUMA CPU_IDLE", lbCount("NUMA", IdleType.IDLE), 415);
    within2x("SMT busy", lbCount("SMT", IdleType.NOT_IDLE), 1_408);
    // Busy CPUs balance MC and NUMA too rarely for a second to show it: the thread saw none.
    assertThat(lbCount("MC", IdleType.NOT_IDLE)).isZero();
    // "Tasks gained ≈ 0": a kworker queued beside a busy thread lets the balancer move the
    // preempted thread now and then, but moves stay below one per thousand attempts.
    assertThat(result.lbStats().lbTotal(LbField.GAINED))
        .isLessThan(result.lbStats().lbTotal(LbField.COUNT) / 1000);
    // Sleeping kworkers reach newidle balancing at every level, as the machine's background does.
    for (String level : java.util.List.of("SMT", "MC", "NUMA")) {
      assertThat(lbCount(level, IdleType.NEWLY_IDLE)).as("%s newidle", level).isPositive();
    }
  }

  @Test
  void smtContention_shareOfIdleToTaskSwitches_within2xOfTheThreads() {
    // The thread's bpftrace: 1,103 contended of 4,918 idle->task switches (22 %); the model's
    // switches are its kworkers' (and interrupts do not switch), on a machine whose busy cores
    // leave one idle sibling each.
    long switches = result.smtContention() + result.smtNoContention();
    assertThat(switches).isPositive();
    double share = result.smtContention() / (double) switches;
    assertThat(share)
        .as("contended share %.3f", share)
        .isBetween(1_103 / 4_918.0 / 2, 1_103 / 4_918.0 * 2);
  }

  @Test
  void ilbPassLength_meanWithin2xOfTheThreadsHistogram() {
    // The thread's histogram (µs buckets [0], [1], [2,4) ... [2K,4K)), each at its midpoint.
    long[] thread = {147, 354, 739, 3_040, 9_825, 8_142, 1_267, 1_607, 2_222, 2_326, 141, 37, 7};
    double sum = 0;
    long count = 0;
    for (int b = 0; b < thread.length; b++) {
      double mid = b == 0 ? 0.5 : 1.5 * Log2Histogram.lowerBoundUs(b);
      sum += mid * thread[b];
      count += thread[b];
    }
    double threadMeanUs = sum / count;
    within2x("ILB pass mean (us)", result.ilbDuration().meanNs() / 1e3, threadMeanUs);
  }

  @Test
  void rqLockHolds_recordedWhereBalancingLocks_mostlyBelowOneMicrosecondAsTheThreads() {
    Log2Histogram hold = result.rqLockHold();
    assertThat(hold.count()).isPositive();
    // The thread: 664,396 of 790,120 holds (84 %) below 1 µs, none at 256 µs or more.
    double belowOneUs = hold.bucket(0) / (double) hold.count();
    within2x("share of rq-lock holds below 1 us", belowOneUs, 664_396 / 790_120.0);
    for (int b = Log2Histogram.bucketOfNs(256_000); b < Log2Histogram.BUCKETS; b++) {
      assertThat(hold.bucket(b)).as("holds in bucket %d", b).isZero();
    }
  }
}
