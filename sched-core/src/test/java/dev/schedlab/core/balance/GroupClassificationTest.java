package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code group_classify()}: the first matching type wins, from overloaded down to has_spare; with
 * imbalance_pct 117 a group is overloaded when it runs more tasks than CPUs and its util exceeds
 * capacity × 100/117 or its runnable exceeds capacity × 117/100.
 */
final class GroupClassificationTest {

  private static SgLbStats group(
      int weight, int nrRunning, long capacity, long util, long runnable) {
    SgLbStats sgs = new SgLbStats();
    sgs.groupWeight = weight;
    sgs.sumNrRunning = nrRunning;
    sgs.sumHNrRunning = nrRunning;
    sgs.groupCapacity = capacity;
    sgs.groupUtil = util;
    sgs.groupRunnable = runnable;
    return sgs;
  }

  @Test
  void classify_moreTasksThanCpusAndUtilAbove85Percent_overloaded() {
    // 2048 x 100 = 204800 < 1800 x 117 = 210600.
    assertThat(SgLbStats.groupClassify(117, false, group(2, 3, 2048, 1800, 1800)))
        .isEqualTo(GroupType.OVERLOADED);
  }

  @Test
  void classify_moreTasksThanCpusAndRunnableAbove117Percent_overloaded() {
    // util 1700 x 117 = 198900 <= 204800, but 2048 x 117 = 239616 < 2400 x 100.
    assertThat(SgLbStats.groupClassify(117, false, group(2, 3, 2048, 1700, 2400)))
        .isEqualTo(GroupType.OVERLOADED);
  }

  @Test
  void classify_moreTasksThanCpusButLowUtilAndRunnable_hasSpare() {
    assertThat(SgLbStats.groupClassify(117, false, group(2, 3, 2048, 1500, 2000)))
        .isEqualTo(GroupType.HAS_SPARE);
  }

  @Test
  void classify_oneTaskPerCpuAtFullUtil_fullyBusy() {
    // nr == weight and 204800 > 2048 x 117 fails: no capacity left.
    assertThat(SgLbStats.groupClassify(117, false, group(2, 2, 2048, 2048, 2048)))
        .isEqualTo(GroupType.FULLY_BUSY);
  }

  @Test
  void classify_fewerTasksThanCpus_hasSpare() {
    assertThat(SgLbStats.groupClassify(117, false, group(2, 1, 2048, 1024, 1024)))
        .isEqualTo(GroupType.HAS_SPARE);
  }

  @Test
  void classify_priorityOrder_overloadedImbalancedSmtMisfitFullyBusy() {
    SgLbStats overloaded = group(1, 2, 1024, 1024, 2048);
    overloaded.groupMisfitTaskLoad = 500;
    assertThat(SgLbStats.groupClassify(117, true, overloaded)).isEqualTo(GroupType.OVERLOADED);

    SgLbStats busy = group(2, 2, 2048, 2048, 2048);
    busy.groupSmtBalance = true;
    busy.groupMisfitTaskLoad = 500;
    assertThat(SgLbStats.groupClassify(117, true, busy)).isEqualTo(GroupType.IMBALANCED);
    assertThat(SgLbStats.groupClassify(117, false, busy)).isEqualTo(GroupType.SMT_BALANCE);
    busy.groupSmtBalance = false;
    assertThat(SgLbStats.groupClassify(117, false, busy)).isEqualTo(GroupType.MISFIT_TASK);
    busy.groupMisfitTaskLoad = 0;
    assertThat(SgLbStats.groupClassify(117, false, busy)).isEqualTo(GroupType.FULLY_BUSY);
  }

  @Test
  void classify_pct110VersusPct117_lowerPctNeedsMoreUtil() {
    // 2 tasks on 1 CPU, util 900: 1024 x 100 = 102400 < 900 x 117 = 105300, but > 900 x 110.
    SgLbStats sgs = group(1, 2, 1024, 900, 900);
    assertThat(SgLbStats.groupClassify(117, false, sgs)).isEqualTo(GroupType.OVERLOADED);
    assertThat(SgLbStats.groupClassify(110, false, sgs)).isEqualTo(GroupType.HAS_SPARE);
  }
}
