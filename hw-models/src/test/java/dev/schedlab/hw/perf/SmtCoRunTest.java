package dev.schedlab.hw.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * The co-run curve: speed 1 alone, exactly the co-run factor with one busy sibling, per-thread
 * speed never rising and core throughput never falling as siblings wake, and memory-bound threads
 * on their own factor.
 */
final class SmtCoRunTest {

  @Test
  void speed_aloneAndWithOneSibling_isOneThenTheFactor() {
    SmtCoRun smt = new SmtCoRun(0.6, 0.9, 1);
    assertThat(smt.speed(WorkClass.COMPUTE, 0)).isEqualTo(1.0);
    assertThat(smt.speed(WorkClass.COMPUTE, 1)).isCloseTo(0.6, within(1e-12));
    assertThat(smt.speed(WorkClass.MEMORY, 1)).isCloseTo(0.9, within(1e-12));
  }

  @Test
  void speed_moreBusySiblings_perThreadFallsCoreThroughputRises() {
    for (double f : new double[] {0.5, 0.55, 0.7, 0.85, 1.0}) {
      SmtCoRun smt = new SmtCoRun(f, f, 7);
      for (int k = 1; k <= 7; k++) {
        double perThread = smt.speed(WorkClass.COMPUTE, k);
        double previous = smt.speed(WorkClass.COMPUTE, k - 1);
        assertThat(perThread).isLessThanOrEqualTo(previous + 1e-12);
        assertThat(perThread * (k + 1)).isGreaterThanOrEqualTo(previous * k - 1e-12);
        assertThat(perThread * (k + 1)).isGreaterThanOrEqualTo(1.0 - 1e-12);
      }
    }
  }

  @Test
  void speed_smt4AtFactor07_matchesTheLinearThroughputCurve() {
    // 4 threads busy: core does 1 + 3 × 0.4 = 2.2 threads' worth, 0.55 each
    assertThat(new SmtCoRun(0.7, 0.9, 3).speed(WorkClass.COMPUTE, 3))
        .isCloseTo(0.55, within(1e-12));
  }

  @Test
  void constructor_factorBelowHalf_isRejectedWithRange() {
    assertThatThrownBy(() -> new SmtCoRun(0.4, 0.9, 1)).hasMessageContaining("0.5..1");
  }
}
