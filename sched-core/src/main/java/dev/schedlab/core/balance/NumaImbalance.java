package dev.schedlab.core.balance;

/**
 * The one copy of {@code adjust_numa_imbalance()} in {@code kernel/sched/fair.c}, used by both
 * {@code calculate_imbalance()} (periodic and newidle balancing) and the fork/exec slow path {@code
 * sched_balance_find_dst_group()}.
 */
public final class NumaImbalance {

  /** Equivalent of {@code NUMA_IMBALANCE_MIN}. */
  public static final int NUMA_IMBALANCE_MIN = 2;

  private NumaImbalance() {}

  /**
   * Models {@code adjust_numa_imbalance(imbalance, dst_running, imb_numa_nr)}: while the
   * destination runs at most {@code imbNumaNr} tasks, an imbalance of at most {@link
   * #NUMA_IMBALANCE_MIN} is allowed (0), so that a pair of communicating tasks stays on one node.
   */
  public static long adjust(long imbalance, int dstRunning, int imbNumaNr) {
    if (dstRunning > imbNumaNr) {
      return imbalance;
    }
    return imbalance <= NUMA_IMBALANCE_MIN ? 0 : imbalance;
  }
}
