package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.view.IdleType;
import org.junit.jupiter.api.Test;

/**
 * {@link LbStats} keeps one independent counter per CPU × level × idle type × field in the v17
 * order, sums them by level and idle type, and buckets lock-hold times in power-of-two microseconds
 * as bpftrace's {@code hist()}: [0,1) µs, [1,2), [2,4), [4,8), ...
 */
final class LbStatsTest {

  @Test
  void fields_v17Order_matchesKernelNames() {
    assertThat(LbField.values())
        .extracting(LbField::kernelName)
        .containsExactly(
            "lb_count",
            "lb_balanced",
            "lb_failed",
            "lb_imbalance_load",
            "lb_imbalance_util",
            "lb_imbalance_task",
            "lb_imbalance_misfit",
            "lb_gained",
            "lb_hot_gained",
            "lb_nobusyq",
            "lb_nobusyg");
    assertThat(AlbField.values())
        .extracting(AlbField::kernelName)
        .containsExactly("alb_count", "alb_failed", "alb_pushed");
  }

  @Test
  void counters_distinctCells_doNotAlias() {
    LbStats stats = new LbStats(3, 2);
    stats.incrementLb(2, 1, IdleType.NEWLY_IDLE, LbField.NOBUSYG);
    stats.addLb(0, 0, IdleType.NOT_IDLE, LbField.COUNT, 5);
    stats.incrementAlb(1, 1, AlbField.PUSHED);
    assertThat(stats.lb(2, 1, IdleType.NEWLY_IDLE, LbField.NOBUSYG)).isEqualTo(1);
    assertThat(stats.lb(2, 1, IdleType.NEWLY_IDLE, LbField.NOBUSYQ)).isZero();
    assertThat(stats.lb(2, 0, IdleType.NEWLY_IDLE, LbField.NOBUSYG)).isZero();
    assertThat(stats.lb(0, 0, IdleType.NOT_IDLE, LbField.COUNT)).isEqualTo(5);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.COUNT)).isZero();
    assertThat(stats.alb(1, 1, AlbField.PUSHED)).isEqualTo(1);
    assertThat(stats.alb(1, 0, AlbField.PUSHED)).isZero();
  }

  @Test
  void totals_byLevelAndIdleType_sumOverCpus() {
    LbStats stats = new LbStats(2, 2);
    stats.addLb(0, 1, IdleType.IDLE, LbField.GAINED, 3);
    stats.addLb(1, 1, IdleType.IDLE, LbField.GAINED, 4);
    stats.addLb(1, 0, IdleType.NEWLY_IDLE, LbField.GAINED, 10);
    assertThat(stats.lbTotal(1, IdleType.IDLE, LbField.GAINED)).isEqualTo(7);
    assertThat(stats.lbTotal(IdleType.IDLE, LbField.GAINED)).isEqualTo(7);
    assertThat(stats.lbTotal(LbField.GAINED)).isEqualTo(17);
    stats.reset();
    assertThat(stats.lbTotal(LbField.GAINED)).isZero();
  }

  @Test
  void histogram_powerOfTwoMicroseconds_bucketsLikeBpftraceHist() {
    assertThat(LbStats.bucketOfNs(0)).isZero();
    assertThat(LbStats.bucketOfNs(999)).isZero();
    assertThat(LbStats.bucketOfNs(1_000)).isEqualTo(1);
    assertThat(LbStats.bucketOfNs(1_999)).isEqualTo(1);
    assertThat(LbStats.bucketOfNs(2_000)).isEqualTo(2);
    assertThat(LbStats.bucketOfNs(3_999)).isEqualTo(2);
    assertThat(LbStats.bucketOfNs(4_000)).isEqualTo(3);
    assertThat(LbStats.bucketOfNs(Long.MAX_VALUE)).isLessThan(LbStats.HISTOGRAM_BUCKETS);
    assertThat(LbStats.bucketLowerBoundUs(0)).isZero();
    assertThat(LbStats.bucketLowerBoundUs(1)).isEqualTo(1);
    assertThat(LbStats.bucketLowerBoundUs(3)).isEqualTo(4);
  }

  @Test
  void histogram_getter_returnsCopy() {
    LbStats stats = new LbStats(1, 1);
    stats.recordLockHoldNs(2_500);
    long[] copy = stats.lockHoldHistogram();
    assertThat(copy[2]).isEqualTo(1);
    copy[2] = 99;
    assertThat(stats.lockHoldHistogram()[2]).isEqualTo(1);
  }

  @Test
  void getters_outOfRange_throw() {
    LbStats stats = new LbStats(2, 2);
    assertThatThrownBy(() -> stats.lb(2, 0, IdleType.IDLE, LbField.COUNT))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("CPU 2");
    assertThatThrownBy(() -> stats.migrations(2))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessageContaining("level 2");
    assertThatThrownBy(() -> new LbStats(0, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
