package dev.schedlab.core.balance;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.domain.SchedGroup;
import java.util.Arrays;

/**
 * The sums of {@code update_sg_lb_stats()}'s CPU loop for each group, kept with the {@link
 * GroupStamps} stamp they were computed at, so that a search of a group nothing changed in since
 * takes them instead of scanning its CPUs again. Most searches find most groups unchanged: on a
 * Vera barrier GEMM 89 % of the SMT groups', 91 % of the core groups' and 68 % of the NUMA halves'
 * searches produced the sums of the group's previous search (counted, see benchmarks/README.md).
 *
 * <p>An entry is one group-capacity slot in one {@linkplain #mode mode}, and remembers the span it
 * was computed for (groups sharing a slot with different spans, as overlapping NUMA groups may,
 * replace each other's entries). Only searches over a group's whole span ({@code env->cpus}
 * containing it) use or fill the cache. Allocation-free.
 */
final class GroupStatsCache {

  /** No misfit accounting: the local group, or a busy CPU's search on a symmetric domain. */
  static final int MODE_PLAIN = 0;

  /** {@code SD_ASYM_CPUCAPACITY}: {@code rq->misfit_task_load} of each busy CPU. */
  static final int MODE_ASYM_MISFIT = 1;

  /** Symmetric domain, idle destination: {@code sched_reduced_capacity()} per busy CPU. */
  static final int MODE_REDUCED_CAPACITY = 2;

  private static final int MODES = 3;

  private static final int LOAD = 0;
  private static final int UTIL = 1;
  private static final int RUNNABLE = 2;
  private static final int NR_RUNNING = 3;
  private static final int H_NR_RUNNING = 4;
  private static final int IDLE_CPUS = 5;
  private static final int MISFIT = 6;
  private static final int CAPACITY = 7;
  private static final int MIN_CAPACITY = 8;
  private static final int MAX_CAPACITY = 9;
  private static final int OVERLOADED = 10;
  private static final int SCANNED = 11;
  private static final int STRIDE = 12;

  private final GroupStamps stamps;
  private final long[] data;

  /** The stamp each entry was computed at; -1 when empty. */
  private final long[] stampAt;

  private final CpuMask[] spanOf;

  /** The domain's {@code imbalance_pct} ({@link #MODE_REDUCED_CAPACITY} depends on it). */
  private final int[] pctOf;

  /** Searches that took an entry, and searches that scanned and filled one. */
  long hits;

  long fills;

  GroupStatsCache(GroupStamps stamps, int capacitySlots) {
    this.stamps = stamps;
    int entries = capacitySlots * MODES;
    this.data = new long[entries * STRIDE];
    this.stampAt = new long[entries];
    Arrays.fill(stampAt, -1);
    this.spanOf = new CpuMask[entries];
    this.pctOf = new int[entries];
  }

  /**
   * The mode of a search: what {@code update_sg_lb_stats()}'s loop accounts besides the sums, which
   * depends on the group being local, the domain's asymmetry and the destination's idleness.
   */
  static int mode(boolean localGroup, boolean asym, boolean idleDst) {
    if (localGroup) {
      return MODE_PLAIN;
    }
    if (asym) {
      return MODE_ASYM_MISFIT;
    }
    return idleDst ? MODE_REDUCED_CAPACITY : MODE_PLAIN;
  }

  /**
   * The entry of {@code sg} in {@code mode} if nothing it depends on changed since it was filled,
   * else -1.
   */
  int find(SchedGroup sg, int mode, int imbalancePct) {
    int slot = sg.capacitySlot();
    int entry = slot * MODES + mode;
    if (stampAt[entry] != stamps.stamp(slot)
        || spanOf[entry] != sg.span()
        || pctOf[entry] != imbalancePct) {
      return -1;
    }
    hits++;
    return entry;
  }

  /** Copies entry {@code entry} into a reset {@code sgs}; returns the loop's overloaded bits. */
  int copyTo(int entry, SgLbStats sgs) {
    long[] d = data;
    int at = entry * STRIDE;
    sgs.groupLoad = d[at + LOAD];
    sgs.groupUtil = d[at + UTIL];
    sgs.groupRunnable = d[at + RUNNABLE];
    sgs.sumNrRunning = (int) d[at + NR_RUNNING];
    sgs.sumHNrRunning = (int) d[at + H_NR_RUNNING];
    sgs.idleCpus = (int) d[at + IDLE_CPUS];
    sgs.groupMisfitTaskLoad = d[at + MISFIT];
    sgs.groupCapacity = d[at + CAPACITY];
    sgs.minCapacity = d[at + MIN_CAPACITY];
    sgs.maxCapacity = d[at + MAX_CAPACITY];
    return (int) d[at + OVERLOADED];
  }

  /** CPUs the search that filled entry {@code entry} scanned. */
  long scanned(int entry) {
    return data[entry * STRIDE + SCANNED];
  }

  /** Remembers what a scan of {@code sg} in {@code mode} left in {@code sgs}. */
  void fill(
      SchedGroup sg, int mode, int imbalancePct, SgLbStats sgs, int overloaded, long scanned) {
    int slot = sg.capacitySlot();
    int entry = slot * MODES + mode;
    long[] d = data;
    int at = entry * STRIDE;
    d[at + LOAD] = sgs.groupLoad;
    d[at + UTIL] = sgs.groupUtil;
    d[at + RUNNABLE] = sgs.groupRunnable;
    d[at + NR_RUNNING] = sgs.sumNrRunning;
    d[at + H_NR_RUNNING] = sgs.sumHNrRunning;
    d[at + IDLE_CPUS] = sgs.idleCpus;
    d[at + MISFIT] = sgs.groupMisfitTaskLoad;
    d[at + CAPACITY] = sgs.groupCapacity;
    d[at + MIN_CAPACITY] = sgs.minCapacity;
    d[at + MAX_CAPACITY] = sgs.maxCapacity;
    d[at + OVERLOADED] = overloaded;
    d[at + SCANNED] = scanned;
    stampAt[entry] = stamps.stamp(slot);
    spanOf[entry] = sg.span();
    pctOf[entry] = imbalancePct;
    fills++;
  }
}
