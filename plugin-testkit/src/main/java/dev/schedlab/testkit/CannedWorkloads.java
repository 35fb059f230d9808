package dev.schedlab.testkit;

import dev.schedlab.workloads.GemmWorkloadProvider;
import dev.schedlab.workloads.HackbenchWorkloadProvider;
import java.util.List;
import java.util.Map;

/**
 * The workloads the kit runs policies under, sized for the canned machines: a wakeup-heavy one
 * (hackbench: many short sleeps, wakeups across CPUs, idle CPUs with stopped ticks and NOHZ kicks)
 * and a bulk-synchronous one (GEMM: one thread per core with barriers, busy siblings next to idle
 * ones).
 */
public final class CannedWorkloads {

  private CannedWorkloads() {}

  /** Every canned workload, in the order the kit runs them. */
  public static List<CannedWorkload> all() {
    return List.of(hackbench(), gemm());
  }

  /** {@code wl.hackbench} with 2 groups of 4 senders and 4 receivers. */
  public static CannedWorkload hackbench() {
    return new CannedWorkload(
        new HackbenchWorkloadProvider(), Map.of("groups", "2", "fds", "4", "loops", "1000"));
  }

  /** {@code wl.gemm}, one thread per core of node 0, 1 ms of work between barriers. */
  public static CannedWorkload gemm() {
    return new CannedWorkload(new GemmWorkloadProvider(), Map.of("chunk", "1ms"));
  }
}
