package dev.schedlab.core.balance;

import dev.schedlab.spi.view.IdleType;
import java.util.Arrays;

/**
 * Load-balancing statistics of one run: the schedstat version 17 {@code lb_*} counters per CPU ×
 * domain level × idle type ({@code sd->lb_count[idle]} and friends), the {@code alb_*} counters per
 * CPU × level, balancer migrations per level, and a histogram of runqueue-lock hold times during
 * {@code detach_tasks()}.
 *
 * <p>The level is the domain's position in the CPU's domain walk from the base (the {@code
 * domain<K>} number of {@code /proc/schedstat}). Counters live in flat {@code long[]} arrays;
 * updating allocates nothing. Written only by the balancer (the pieces {@link LoadBalancer} wires);
 * read by reports.
 *
 * <p>The lock-hold histogram uses power-of-two microsecond buckets as bpftrace's {@code hist()}
 * does: bucket 0 holds [0, 1) µs, bucket {@code k >= 1} holds [2<sup>k-1</sup>, 2<sup>k</sup>) µs.
 */
public final class LbStats {

  /** Number of histogram buckets: enough for any non-negative {@code long} of microseconds. */
  public static final int HISTOGRAM_BUCKETS = 64;

  private static final int IDLE_TYPES = IdleType.values().length;
  private static final int LB_FIELDS = LbField.values().length;
  private static final int ALB_FIELDS = AlbField.values().length;
  private static final int SKIPS = MigrationSkip.values().length;

  private final int nrCpuIds;
  private final int nrLevels;
  private final long[] lb;
  private final long[] alb;
  private final long[] migrations;
  private final long[] skips;
  private final long[] lockHold = new long[HISTOGRAM_BUCKETS];
  private long lockHoldSumNs;

  /**
   * Counters for CPUs {@code 0..nrCpuIds-1} and domain levels {@code 0..nrLevels-1}.
   *
   * @throws IllegalArgumentException if either is below 1
   */
  public LbStats(int nrCpuIds, int nrLevels) {
    if (nrCpuIds < 1 || nrLevels < 1) {
      throw new IllegalArgumentException(
          "LbStats needs nrCpuIds >= 1 and nrLevels >= 1, got " + nrCpuIds + " and " + nrLevels);
    }
    this.nrCpuIds = nrCpuIds;
    this.nrLevels = nrLevels;
    this.lb = new long[Math.multiplyExact(nrCpuIds * nrLevels, IDLE_TYPES * LB_FIELDS)];
    this.alb = new long[nrCpuIds * nrLevels * ALB_FIELDS];
    this.migrations = new long[nrLevels];
    this.skips = new long[nrLevels * SKIPS];
  }

  /** Width of the CPU dimension. */
  public int nrCpuIds() {
    return nrCpuIds;
  }

  /** Number of domain levels. */
  public int nrLevels() {
    return nrLevels;
  }

  /** Equivalent of {@code sd->lb_<field>[idle]} of {@code cpu}'s domain at {@code level}. */
  public long lb(int cpu, int level, IdleType idle, LbField field) {
    return lb[lbIndex(cpu, level, idle, field)];
  }

  /** Equivalent of {@code sd->alb_<field>} of {@code cpu}'s domain at {@code level}. */
  public long alb(int cpu, int level, AlbField field) {
    return alb[albIndex(cpu, level, field)];
  }

  /** Tasks moved by balancing at {@code level} (periodic, newidle, active and plugin pushes). */
  public long migrations(int level) {
    checkLevel(level);
    return migrations[level];
  }

  /** Tasks passed over for {@code reason} by balancing at {@code level}, all CPUs. */
  public long skips(int level, MigrationSkip reason) {
    checkLevel(level);
    return skips[level * SKIPS + reason.ordinal()];
  }

  /** Tasks passed over for {@code reason} at every level. */
  public long skips(MigrationSkip reason) {
    long sum = 0;
    for (int level = 0; level < nrLevels; level++) {
      sum += skips[level * SKIPS + reason.ordinal()];
    }
    return sum;
  }

  void incrementSkip(int level, MigrationSkip reason) {
    skips[level * SKIPS + reason.ordinal()]++;
  }

  /** Sum of {@code field} under {@code idle} over every CPU's domain at {@code level}. */
  public long lbTotal(int level, IdleType idle, LbField field) {
    checkLevel(level);
    long sum = 0;
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      sum += lb[lbIndex(cpu, level, idle, field)];
    }
    return sum;
  }

  /** Sum of {@code field} under {@code idle} over every CPU and level. */
  public long lbTotal(IdleType idle, LbField field) {
    long sum = 0;
    for (int level = 0; level < nrLevels; level++) {
      sum += lbTotal(level, idle, field);
    }
    return sum;
  }

  /** Sum of {@code field} over every CPU, level and idle type. */
  public long lbTotal(LbField field) {
    long sum = 0;
    for (IdleType idle : IdleType.values()) {
      sum += lbTotal(idle, field);
    }
    return sum;
  }

  /** Sum of {@code field} over every CPU's domain at {@code level}. */
  public long albTotal(int level, AlbField field) {
    checkLevel(level);
    long sum = 0;
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      sum += alb[albIndex(cpu, level, field)];
    }
    return sum;
  }

  /** A copy of the lock-hold histogram; see the class comment for the bucket bounds. */
  public long[] lockHoldHistogram() {
    return lockHold.clone();
  }

  /** Sum of the recorded runqueue-lock hold times, ns. */
  public long lockHoldSumNs() {
    return lockHoldSumNs;
  }

  /** Lower bound of histogram bucket {@code bucket}, in µs (0 for bucket 0). */
  public static long bucketLowerBoundUs(int bucket) {
    if (bucket < 0 || bucket >= HISTOGRAM_BUCKETS) {
      throw new IndexOutOfBoundsException(
          "bucket " + bucket + " outside 0-" + (HISTOGRAM_BUCKETS - 1));
    }
    return bucket == 0 ? 0 : 1L << (bucket - 1);
  }

  /** The histogram bucket of a duration in ns. */
  static int bucketOfNs(long ns) {
    long us = Math.max(0, ns) / 1_000;
    return us == 0 ? 0 : Long.SIZE - Long.numberOfLeadingZeros(us);
  }

  /** Clears every counter. */
  public void reset() {
    Arrays.fill(lb, 0);
    Arrays.fill(alb, 0);
    Arrays.fill(skips, 0);
    Arrays.fill(migrations, 0);
    Arrays.fill(lockHold, 0);
    lockHoldSumNs = 0;
  }

  void addLb(int cpu, int level, IdleType idle, LbField field, long delta) {
    lb[lbIndex(cpu, level, idle, field)] += delta;
  }

  void incrementLb(int cpu, int level, IdleType idle, LbField field) {
    lb[lbIndex(cpu, level, idle, field)]++;
  }

  void incrementAlb(int cpu, int level, AlbField field) {
    alb[albIndex(cpu, level, field)]++;
  }

  void addMigrations(int level, long count) {
    checkLevel(level);
    migrations[level] += count;
  }

  void recordLockHoldNs(long ns) {
    lockHold[bucketOfNs(ns)]++;
    lockHoldSumNs += ns;
  }

  private int lbIndex(int cpu, int level, IdleType idle, LbField field) {
    checkCpu(cpu);
    checkLevel(level);
    return ((cpu * nrLevels + level) * IDLE_TYPES + idle.ordinal()) * LB_FIELDS + field.ordinal();
  }

  private int albIndex(int cpu, int level, AlbField field) {
    checkCpu(cpu);
    checkLevel(level);
    return (cpu * nrLevels + level) * ALB_FIELDS + field.ordinal();
  }

  private void checkCpu(int cpu) {
    if (cpu < 0 || cpu >= nrCpuIds) {
      throw new IndexOutOfBoundsException("CPU " + cpu + " outside 0-" + (nrCpuIds - 1));
    }
  }

  private void checkLevel(int level) {
    if (level < 0 || level >= nrLevels) {
      throw new IndexOutOfBoundsException("domain level " + level + " outside 0-" + (nrLevels - 1));
    }
  }
}
