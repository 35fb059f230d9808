package dev.schedlab.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A variant's runs are paired with the first variant's seed by seed, with a sign test. */
final class SweepSummaryTest {

  private static SweepRow throughput(double v) {
    return new SweepRow(0, "throughput", "ops/s", true, new double[] {v}, new BitSet(), List.of());
  }

  @Test
  void paired_countsSeedsWhereTheSecondVariantIsHigherOrLower() {
    List<SweepRow> a = List.of(throughput(10), throughput(20), throughput(5));
    List<SweepRow> b = List.of(throughput(12), throughput(10), throughput(5));
    SweepSummary.Paired p = SweepSummary.Paired.of(a, b, 0);
    // +20 %, -50 %, 0 %: higher on one seed, lower on one, mean of the changes -10 %.
    assertThat(p.higher()).isEqualTo(1);
    assertThat(p.lower()).isEqualTo(1);
    assertThat(p.meanChangePct()).isCloseTo(-10.0, within(1e-9));
    // One seed each way: as even as two untied seeds can be.
    assertThat(p.signTestP()).isEqualTo(1.0);
  }

  @Test
  void signTest_isTheTwoSidedBinomialTail() {
    // 47 of 64 ahead: 2 * P(X >= 47), X ~ Binomial(64, 1/2) = 2 * 1.1e-4 (tabulated tail).
    assertThat(new SweepSummary.Paired(0, 47, 17).signTestP()).isCloseTo(2.2e-4, within(0.2e-4));
    // 8 of 8: 2 / 256.
    assertThat(new SweepSummary.Paired(0, 8, 0).signTestP()).isCloseTo(2.0 / 256, within(1e-12));
    assertThat(new SweepSummary.Paired(0, 0, 0).signTestP()).isEqualTo(1.0);
  }

  @Test
  void summary_meanSampleDeviationAndRange() {
    SweepSummary.Summary s =
        SweepSummary.Summary.of(List.of(throughput(1), throughput(2), throughput(6)), 0);
    assertThat(s.mean()).isEqualTo(3.0);
    // Squares 4 + 1 + 9 over n - 1 = 2.
    assertThat(s.stddev()).isCloseTo(Math.sqrt(7), within(1e-12));
    assertThat(s.min()).isEqualTo(1.0);
    assertThat(s.max()).isEqualTo(6.0);
  }
}
