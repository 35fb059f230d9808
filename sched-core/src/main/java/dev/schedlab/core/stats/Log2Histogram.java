package dev.schedlab.core.stats;

import java.util.Arrays;

/**
 * A histogram of durations in power-of-two microsecond buckets, as bpftrace's {@code hist()} prints
 * them: bucket 0 holds [0, 1) µs, bucket {@code k >= 1} holds [2<sup>k-1</sup>, 2<sup>k</sup>) µs.
 * Recording allocates nothing. Not thread-safe (one simulation, one thread).
 *
 * <p>Why this is not an HdrHistogram, which the engine uses where percentiles are taken (wakeup
 * latency: {@link LatencySummary}, and the workloads' own latencies): these histograms hold ILB
 * pass durations, newidle balance durations and rq-lock holds, which the reports print as
 * bpftrace's {@code hist()} prints them ({@code @ilb_duration_us}, the thread's own bpftrace
 * output), bucket for bucket, and from which no percentile is read. An HdrHistogram's buckets are
 * log-linear (three significant digits), so the printed and charted buckets would have to be
 * re-binned into these anyway; its mean is computed from bucket values rather than the exact sum
 * kept here, so {@code ilb_duration_mean_us} and {@code rq_lock_hold_mean_us} would move; and the
 * lock-hold buckets arrive as plain counts from the balancer's schedstat-style array ({@link
 * #ofBuckets(long[], long)}), which an HdrHistogram could only take as one value per bucket. The
 * recording cost on the balancing path is a division, a leading-zero count and a few adds.
 */
public final class Log2Histogram {

  /** Enough buckets for any non-negative {@code long} number of microseconds. */
  public static final int BUCKETS = 64;

  private final long[] counts = new long[BUCKETS];
  private long count;
  private long sumNs;
  private long maxNs;

  /** Records one duration in nanoseconds (negative values count as 0). */
  public void recordNs(long ns) {
    long clamped = Math.max(0, ns);
    counts[bucketOfNs(clamped)]++;
    count++;
    sumNs += clamped;
    maxNs = Math.max(maxNs, clamped);
  }

  /** The bucket a duration in ns falls in. */
  public static int bucketOfNs(long ns) {
    long us = Math.max(0, ns) / 1_000;
    return us == 0 ? 0 : Long.SIZE - Long.numberOfLeadingZeros(us);
  }

  /** Inclusive lower bound of {@code bucket} in µs. */
  public static long lowerBoundUs(int bucket) {
    return bucket == 0 ? 0 : 1L << (bucket - 1);
  }

  /** Exclusive upper bound of {@code bucket} in µs. */
  public static long upperBoundUs(int bucket) {
    return 1L << bucket;
  }

  /** The count in {@code bucket}. */
  public long bucket(int bucket) {
    return counts[bucket];
  }

  /** A copy of every bucket's count. */
  public long[] buckets() {
    return counts.clone();
  }

  /** Number of recorded values. */
  public long count() {
    return count;
  }

  /** Sum of recorded values, ns. */
  public long sumNs() {
    return sumNs;
  }

  /** Largest recorded value, ns (0 when empty). */
  public long maxNs() {
    return maxNs;
  }

  /** Mean of recorded values in ns, 0 when empty. */
  public double meanNs() {
    return count == 0 ? 0 : (double) sumNs / count;
  }

  /** Builds a histogram from bucket counts and the sum of the values they hold. */
  public static Log2Histogram ofBuckets(long[] buckets, long sumNs) {
    Log2Histogram histogram = ofBuckets(buckets);
    histogram.sumNs = sumNs;
    return histogram;
  }

  /** A new histogram holding this one's values and {@code other}'s. */
  public Log2Histogram plus(Log2Histogram other) {
    Log2Histogram sum = ofBuckets(counts, sumNs + other.sumNs);
    sum.maxNs = Math.max(maxNs, other.maxNs);
    for (int i = 0; i < BUCKETS; i++) {
      sum.counts[i] += other.counts[i];
      sum.count += other.counts[i];
    }
    return sum;
  }

  /** Builds a histogram from bucket counts (for example {@code LbStats.lockHoldHistogram()}). */
  public static Log2Histogram ofBuckets(long[] buckets) {
    Log2Histogram histogram = new Log2Histogram();
    for (int i = 0; i < Math.min(BUCKETS, buckets.length); i++) {
      histogram.counts[i] = buckets[i];
      histogram.count += buckets[i];
    }
    return histogram;
  }

  /**
   * The non-empty range of buckets in bpftrace's layout, one line per bucket: {@code [4, 8) 12
   * |@@@@ |}.
   */
  public String render() {
    int first = -1;
    int last = -1;
    long peak = 0;
    for (int i = 0; i < BUCKETS; i++) {
      if (counts[i] != 0) {
        first = first < 0 ? i : first;
        last = i;
        peak = Math.max(peak, counts[i]);
      }
    }
    if (first < 0) {
      return "(empty)\n";
    }
    StringBuilder out = new StringBuilder();
    for (int i = first; i <= last; i++) {
      String range = "[" + lowerBoundUs(i) + ", " + upperBoundUs(i) + ")";
      int bar = (int) (counts[i] * 40 / peak);
      out.append(String.format("%-18s %10d |%-40s|%n", range, counts[i], "@".repeat(bar)));
    }
    return out.toString();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Log2Histogram that
        && Arrays.equals(counts, that.counts)
        && count == that.count
        && sumNs == that.sumNs
        && maxNs == that.maxNs;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(counts) * 31 + Long.hashCode(sumNs);
  }

  @Override
  public String toString() {
    return "Log2Histogram[count="
        + count
        + ", meanNs="
        + Math.round(meanNs())
        + ", maxNs="
        + maxNs
        + "]";
  }
}
