package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.LbField;
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
 * <p>Not held here, because the model does not produce them yet: CPU_NEWLY_IDLE (33/s per level
 * on the machine, from background tasks going to sleep; the model's spinning team never
 * sleeps) and the SMT contention share of idle→task switches (22 %, also from background
 * wakeups). docs/reproductions.md, claim 1, says so.
 */
final class VeraGemmCountersIT {

  private static final long MS = 1_000_000;
  private static SimulationResult result;

  @BeforeAll
  static void run() {
    HardwareModel vera = Scenarios.machine("hw.vera", Map.of(), "");
    result = Scenarios.run(vera, "wl.gemm", Map.of(), Scenarios.profile("mainline-7.1"),
        1_000 * MS, 1, SimulationListener.NONE);
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
    assertThat(model).as("%s: model %.1f/s, thread %.1f/s", what, model, thread)
        .isBetween(thread / 2, thread * 2);
  }

  @Test
  void softirq_isTickRaisesPlusKickedPasses_within2xOfTheThread() {
    // /proc/softirqs counts handler runs: one per tick that raised it, one per NOHZ kick IPI.
    assertThat(result.softirqs())
        .isEqualTo(result.softirqsFromTick() + result.softirqsFromKick());
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
    assertThat(result.lbStats().lbTotal(LbField.GAINED)).isZero();
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
