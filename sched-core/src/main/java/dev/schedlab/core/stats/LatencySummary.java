package dev.schedlab.core.stats;

import org.HdrHistogram.Histogram;

/**
 * Percentiles of a latency distribution in nanoseconds, taken from an HdrHistogram with three
 * significant digits.
 *
 * @param count number of samples
 * @param meanNs mean
 * @param p50Ns median
 * @param p90Ns 90th percentile
 * @param p99Ns 99th percentile
 * @param p999Ns 99.9th percentile
 * @param maxNs largest sample
 */
public record LatencySummary(
    long count, double meanNs, long p50Ns, long p90Ns, long p99Ns, long p999Ns, long maxNs) {

  /** The summary of {@code histogram} (all zero when empty). */
  public static LatencySummary of(Histogram histogram) {
    if (histogram.getTotalCount() == 0) {
      return new LatencySummary(0, 0, 0, 0, 0, 0, 0);
    }
    return new LatencySummary(
        histogram.getTotalCount(),
        histogram.getMean(),
        histogram.getValueAtPercentile(50),
        histogram.getValueAtPercentile(90),
        histogram.getValueAtPercentile(99),
        histogram.getValueAtPercentile(99.9),
        histogram.getMaxValue());
  }
}
