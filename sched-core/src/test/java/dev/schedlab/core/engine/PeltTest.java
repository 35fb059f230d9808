package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * PELT follows kernel/sched/pelt.c: 1024 µs periods, {@code y^32 = 1/2}, {@code LOAD_AVG_MAX} =
 * 47742, the kernel's truncations, and a running entity's {@code util_avg} tracks the closed form
 * {@code 1024 * (1 - y^n)} after {@code n} periods; a blocked one halves every 32 periods.
 */
final class PeltTest {

  private static final long PERIOD_NS = 1024 * 1024;
  private static final double Y = Math.pow(0.5, 1.0 / 32);

  @Test
  void decayTable_matchesKernelConstants() {
    // decay_load(2^32, n) is 2^32 * runnable_avg_yN_inv[n] >> 32: the table entry itself.
    assertThat(Pelt.decayLoad(1L << 32, 0)).isEqualTo(0xffffffffL);
    assertThat(Pelt.decayLoad(1L << 32, 1)).isEqualTo(0xfa83b2daL);
    assertThat(Pelt.decayLoad(1L << 32, 16)).isEqualTo(0xb504f333L);
    assertThat(Pelt.decayLoad(1L << 32, 31)).isEqualTo(0x82cd8698L);
  }

  @Test
  void decayLoad_32Periods_halvesMinusTheTableTruncation() {
    // A whole number of half-lives shifts, then multiplies by y^0 = 0xffffffff / 2^32.
    assertThat(Pelt.decayLoad(47742, 32)).isEqualTo(47742 / 2 - 1);
    assertThat(Pelt.decayLoad(1024, 64)).isEqualTo(255);
    assertThat(Pelt.decayLoad(1L << 40, 32 * 63 + 1)).isZero();
  }

  @Test
  void accumulateSegments_fullSeries_approachesLoadAvgMax() {
    // d1 = 1024 (a whole first period), many periods: the sum tends to LOAD_AVG_MAX.
    assertThat(Pelt.accumulateSegments(2000, 1024, 0)).isBetween(47742L - 1024, 47742L);
  }

  @Test
  void runningEntity_onePeriod_utilIs21() {
    // contrib = decay(1024, 1) + (47742 - decay(47742, 1) - 1024) = 1002 - 1 = 1001;
    // util_avg = (1001 << 10) / (47742 - 1024) = 21.
    PeltAverage sa = new PeltAverage();
    assertThat(sa.updateSum(PERIOD_NS, 1, 1, true)).isTrue();
    sa.updateAvg(1024);
    assertThat(sa.utilAvg).isEqualTo(21);
    assertThat(sa.loadAvg).isEqualTo(21);
    assertThat(sa.runnableAvg).isEqualTo(21);
  }

  @Test
  void runningEntity_nPeriods_tracksClosedForm() {
    for (int n : new int[] {8, 32, 64, 200}) {
      PeltAverage sa = new PeltAverage();
      for (int i = 1; i <= n; i++) {
        sa.updateSum(i * PERIOD_NS, 1, 1, true);
      }
      sa.updateAvg(1024);
      double expected = 1024 * (1 - Math.pow(Y, n));
      assertThat((double) sa.utilAvg).as("n=%d", n).isCloseTo(expected, within(3.0));
    }
  }

  @Test
  void runningEntity_updatedEveryTickOrOnce_agreeClosely() {
    PeltAverage ticked = new PeltAverage();
    for (long t = 1_000_000; t <= 100_000_000; t += 1_000_000) {
      ticked.updateSum(t, 1, 1, true);
    }
    ticked.updateAvg(1024);
    PeltAverage once = new PeltAverage();
    once.updateSum(100_000_000, 1, 1, true);
    once.updateAvg(1024);
    assertThat(Math.abs(ticked.utilAvg - once.utilAvg)).isLessThanOrEqualTo(2);
  }

  @Test
  void blockedEntity_32Periods_halves() {
    PeltAverage sa = new PeltAverage();
    sa.updateSum(1000 * PERIOD_NS, 1, 1, true);
    sa.updateAvg(1024);
    long before = sa.utilAvg;
    sa.updateSum(1032 * PERIOD_NS, 0, 0, false);
    sa.updateAvg(1024);
    assertThat((double) sa.utilAvg).isCloseTo(before / 2.0, within(2.0));
  }

  @Test
  void update_lessThanOneMicrosecond_changesNothing() {
    PeltAverage sa = new PeltAverage();
    assertThat(sa.updateSum(1023, 1, 1, true)).isFalse();
    assertThat(sa.lastUpdateTime).isZero();
    assertThat(sa.utilSum).isZero();
  }

  @Test
  void cfsRq_weightedLoad_scalesWithWeight() {
    PeltAverage cfs = new PeltAverage();
    cfs.updateSum(64 * PERIOD_NS, 2048, 2, true);
    cfs.updateAvg(1);
    PeltAverage task = new PeltAverage();
    task.updateSum(64 * PERIOD_NS, 1, 1, true);
    task.updateAvg(1024);
    assertThat((double) cfs.loadAvg).isCloseTo(2.0 * task.loadAvg, within(2.0));
    assertThat((double) cfs.runnableAvg).isCloseTo(2.0 * task.runnableAvg, within(2.0));
    assertThat(cfs.utilAvg).isEqualTo(task.utilAvg);
  }
}
