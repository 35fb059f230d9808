package dev.schedlab.hw.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The warm-up rule is piecewise constant and monotonic: the speed never falls as run time grows,
 * each step comes exactly where {@link MigrationWarmup#nsUntilChange} says, and a zero half-life or
 * zero penalty means no cost at that distance.
 */
final class MigrationWarmupTest {

  private final MigrationWarmup warmup =
      new MigrationWarmup(
          new double[] {0.02, 0.15, 0.30, 0.45}, new long[] {2_000, 20_000, 0, 300_000});

  @Test
  void factor_growingRunTime_neverFallsAndChangesOnlyWhereAnnounced() {
    for (int d : new int[] {1, 2, 4}) {
      long run = 0;
      double speed = warmup.factor(d, run);
      while (true) {
        long until = warmup.nsUntilChange(d, run);
        if (until == Long.MAX_VALUE) {
          assertThat(speed).isEqualTo(1.0);
          break;
        }
        assertThat(warmup.factor(d, run + until - 1)).isEqualTo(speed);
        double next = warmup.factor(d, run + until);
        assertThat(next).isGreaterThan(speed);
        speed = next;
        run += until;
      }
    }
  }

  @Test
  void factor_zeroHalfLife_meansNoCost() {
    assertThat(warmup.factor(3, 0)).isEqualTo(1.0);
    assertThat(warmup.nsUntilChange(3, 0)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void factor_noMigration_isOne() {
    assertThat(warmup.factor(0, 0)).isEqualTo(1.0);
    assertThat(MigrationWarmup.none().factor(4, 0)).isEqualTo(1.0);
  }

  @Test
  void constructor_penaltyAbove095_isRejectedWithRange() {
    assertThatThrownBy(() -> new MigrationWarmup(new double[] {0, 0, 0, 1.0}, new long[4]))
        .hasMessageContaining("distance 4")
        .hasMessageContaining("0..0.95");
  }
}
