package dev.schedlab.core.balance;

import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;

/**
 * Equivalent of {@code struct sg_lb_stats} in {@code kernel/sched/fair.c}: what one pass learned
 * about one sched group. Preallocated and reused ({@link #reset()}); never allocated per pass.
 *
 * <p>{@code minCapacity} and {@code maxCapacity} stand for the group's {@code sgc->min_capacity}
 * and {@code sgc->max_capacity}; with {@code groupCapacity} ({@code sgc->capacity}) they are
 * computed fresh from {@code capacity_of()} of every CPU of the span on each pass, a simplification
 * of {@code update_group_capacity()}, which refreshes them at most once per balance interval.
 *
 * <p>A mutable value in the kernel's shape, public so that the fork/exec slow path ({@code
 * update_sg_wakeup_stats()}, which fills the same struct in the kernel) classifies groups with the
 * one copy of {@link #groupClassify}; it is reused per pass and never published outside sched-core.
 */
public final class SgLbStats {
  public long avgLoad;
  public long groupLoad;
  public long groupCapacity;
  public long groupUtil;
  public long groupRunnable;
  public int sumNrRunning;
  public int sumHNrRunning;
  public int idleCpus;
  public int groupWeight;
  public GroupType groupType = GroupType.HAS_SPARE;
  public boolean groupSmtBalance;
  public long groupMisfitTaskLoad;
  public long minCapacity;
  public long maxCapacity;

  /** Equivalent of the {@code memset()} at the top of {@code update_sg_lb_stats()}. */
  public void reset() {
    avgLoad = 0;
    groupLoad = 0;
    groupCapacity = 0;
    groupUtil = 0;
    groupRunnable = 0;
    sumNrRunning = 0;
    sumHNrRunning = 0;
    idleCpus = 0;
    groupWeight = 0;
    groupType = GroupType.HAS_SPARE;
    groupSmtBalance = false;
    groupMisfitTaskLoad = 0;
    minCapacity = 0;
    maxCapacity = 0;
  }

  /**
   * The initial {@code sds->busiest_stat} of {@code init_sd_lb_stats()}: {@code idle_cpus =
   * UINT_MAX}, {@code group_type = group_has_spare}.
   */
  void resetAsInitialBusiest() {
    reset();
    idleCpus = Integer.MAX_VALUE;
  }

  public void copyFrom(SgLbStats other) {
    avgLoad = other.avgLoad;
    groupLoad = other.groupLoad;
    groupCapacity = other.groupCapacity;
    groupUtil = other.groupUtil;
    groupRunnable = other.groupRunnable;
    sumNrRunning = other.sumNrRunning;
    sumHNrRunning = other.sumHNrRunning;
    idleCpus = other.idleCpus;
    groupWeight = other.groupWeight;
    groupType = other.groupType;
    groupSmtBalance = other.groupSmtBalance;
    groupMisfitTaskLoad = other.groupMisfitTaskLoad;
    minCapacity = other.minCapacity;
    maxCapacity = other.maxCapacity;
  }

  /** Models {@code group_has_capacity()} in {@code kernel/sched/fair.c}. */
  static boolean groupHasCapacity(int imbalancePct, SgLbStats sgs) {
    if (sgs.sumNrRunning < sgs.groupWeight) {
      return true;
    }
    if (sgs.groupCapacity * imbalancePct < sgs.groupRunnable * 100) {
      return false;
    }
    return sgs.groupCapacity * 100 > sgs.groupUtil * imbalancePct;
  }

  /**
   * Models {@code group_is_overloaded()} in {@code kernel/sched/fair.c}, without the EAS
   * overutilization gate (no energy model is simulated).
   */
  static boolean groupIsOverloaded(int imbalancePct, SgLbStats sgs) {
    if (sgs.sumNrRunning <= sgs.groupWeight) {
      return false;
    }
    if (sgs.groupCapacity * 100 < sgs.groupUtil * imbalancePct) {
      return true;
    }
    return sgs.groupCapacity * imbalancePct < sgs.groupRunnable * 100;
  }

  /**
   * Models {@code group_classify()} in {@code kernel/sched/fair.c}: the first matching type, from
   * the busiest kind down. {@code sgImbalanced} is the group's {@code sgc->imbalance}.
   */
  public static GroupType groupClassify(int imbalancePct, boolean sgImbalanced, SgLbStats sgs) {
    if (groupIsOverloaded(imbalancePct, sgs)) {
      return GroupType.OVERLOADED;
    }
    if (sgImbalanced) {
      return GroupType.IMBALANCED;
    }
    if (sgs.groupSmtBalance) {
      return GroupType.SMT_BALANCE;
    }
    if (sgs.groupMisfitTaskLoad != 0) {
      return GroupType.MISFIT_TASK;
    }
    if (!groupHasCapacity(imbalancePct, sgs)) {
      return GroupType.FULLY_BUSY;
    }
    return GroupType.HAS_SPARE;
  }

  /** Whether the group is made of SMT siblings ({@code sg->flags & SD_SHARE_CPUCAPACITY}). */
  static boolean isSmtGroup(SchedGroup group) {
    return (group.flags() & SdFlags.SD_SHARE_CPUCAPACITY) != 0;
  }
}
