package dev.schedlab.core.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Durations land in bpftrace's power-of-two microsecond buckets: [0,1), [1,2), [2,4), ... */
final class Log2HistogramTest {

  @Test
  void bucketOfNs_boundaries_matchPowersOfTwoMicroseconds() {
    assertThat(Log2Histogram.bucketOfNs(0)).isZero();
    assertThat(Log2Histogram.bucketOfNs(999)).isZero();
    assertThat(Log2Histogram.bucketOfNs(1_000)).isEqualTo(1);
    assertThat(Log2Histogram.bucketOfNs(1_999)).isEqualTo(1);
    assertThat(Log2Histogram.bucketOfNs(2_000)).isEqualTo(2);
    assertThat(Log2Histogram.bucketOfNs(3_999)).isEqualTo(2);
    assertThat(Log2Histogram.bucketOfNs(4_000)).isEqualTo(3);
    assertThat(Log2Histogram.bucketOfNs(1_024_000)).isEqualTo(11);
    assertThat(Log2Histogram.lowerBoundUs(11)).isEqualTo(1024);
    assertThat(Log2Histogram.upperBoundUs(11)).isEqualTo(2048);
  }

  @Test
  void record_countsSumAndMax() {
    Log2Histogram h = new Log2Histogram();
    h.recordNs(500);
    h.recordNs(3_000);
    h.recordNs(3_500);
    h.recordNs(-5);
    assertThat(h.count()).isEqualTo(4);
    assertThat(h.bucket(0)).isEqualTo(2);
    assertThat(h.bucket(2)).isEqualTo(2);
    assertThat(h.sumNs()).isEqualTo(7_000);
    assertThat(h.maxNs()).isEqualTo(3_500);
    assertThat(h.render()).contains("[2, 4)").contains("[0, 1)");
  }
}
