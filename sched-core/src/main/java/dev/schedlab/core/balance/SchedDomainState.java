package dev.schedlab.core.balance;

/**
 * The run-time fields of one CPU's {@code struct sched_domain} that balancing changes ({@link
 * dev.schedlab.topology.domain.SchedDomain} is the static part): the balance period, the failure
 * count, and the newidle cost and success statistics. A mutable value in the kernel's shape, one
 * per CPU × level, created once by {@link BalancerState}; the pieces of the balancer read and write
 * the fields as the kernel's functions do.
 */
final class SchedDomainState {
  /** {@code sd->newidle_call}, {@code newidle_success}, {@code newidle_ratio} at build. */
  static final int NEWIDLE_CALL_INIT = 512;

  static final int NEWIDLE_SUCCESS_INIT = 256;
  static final int NEWIDLE_RATIO_INIT = 512;

  /**
   * Every group of the domain lies in its span's active CPUs, so a search with the whole {@code
   * env->cpus} covers each group's span (overlapping NUMA groups may reach beyond it); fixed.
   */
  boolean groupsInActiveSpan;

  /**
   * The domain's first group ({@code sd->groups}, the one holding its CPU) has the child domain's
   * span, so the child's totals can stand for it; fixed, computed once instead of comparing the
   * spans' words on every pass.
   */
  boolean localGroupIsChildSpan;

  /**
   * The capacity slot of the parent domain's local group ({@code sd->parent->groups->sgc}), or -1
   * at the root; fixed. A balanced attempt clears that group's {@code sgc->imbalance}, and reading
   * the slot here spares the walk through the parent and its group.
   */
  int parentLocalGroupSlot = -1;

  /** {@code sd->balance_interval}, ms. */
  int balanceIntervalMs;

  /** {@code sd->nr_balance_failed}. */
  int nrBalanceFailed;

  /** {@code sd->last_balance}, jiffies. */
  long lastBalance;

  /** {@code sd->max_newidle_lb_cost}, ns. */
  long maxNewidleLbCostNs;

  /** {@code sd->last_decay_max_lb_cost}, jiffies. */
  long lastDecayMaxLbCost;

  /** {@code sd->newidle_call}. */
  int newidleCall;

  /** {@code sd->newidle_success}. */
  int newidleSuccess;

  /** {@code sd->newidle_ratio} (0..1024). */
  int newidleRatio;

  /** {@code sd->newidle_stamp}, ns. */
  long newidleStampNs;

  /**
   * The values {@code sd_init()} gives a freshly built domain: the initial balance interval, the
   * current jiffy as {@code last_balance} and decay stamp, and the newidle statistics' seeds.
   */
  SchedDomainState(int initialBalanceIntervalMs, long jiffies, long nowNs) {
    balanceIntervalMs = initialBalanceIntervalMs;
    lastBalance = jiffies;
    lastDecayMaxLbCost = jiffies;
    newidleCall = NEWIDLE_CALL_INIT;
    newidleSuccess = NEWIDLE_SUCCESS_INIT;
    newidleRatio = NEWIDLE_RATIO_INIT;
    newidleStampNs = nowNs;
  }
}
