package dev.schedlab.core.balance;

/**
 * How one {@code sched_balance_rq()} attempt on one domain ended, by the exit it took in {@code
 * kernel/sched/fair.c}: the {@code out_balanced} paths apart by their reason ({@code
 * should_we_balance()}, {@code lb_nobusyg}, {@code lb_nobusyq}), the all-pinned exit, a failed
 * attempt (with or without a stopper request for {@code active_load_balance_cpu_stop()}) and a
 * successful pull. Reported to {@link BalanceHost#balanceAttempt} for timelines.
 */
public enum BalanceOutcome {
  /** {@code should_we_balance()} left the domain to another CPU, or SD_SERIALIZE was held. */
  NOT_THIS_CPU("another CPU balances"),
  /** {@code sched_balance_find_src_group()} found no busiest group ({@code lb_nobusyg}). */
  NO_BUSIEST_GROUP("balanced: no busiest group"),
  /** {@code sched_balance_find_src_rq()} found no busiest runqueue ({@code lb_nobusyq}). */
  NO_BUSIEST_QUEUE("balanced: no busiest runqueue"),
  /** Every task of every candidate runqueue was pinned ({@code LBF_ALL_PINNED}). */
  ALL_PINNED("all tasks pinned"),
  /** Nothing moved ({@code lb_failed}). */
  FAILED("failed: nothing moved"),
  /** Nothing moved and the busiest CPU's stopper was asked to push its running task. */
  ACTIVE_BALANCE("failed: active balance requested"),
  /** {@code detach_tasks()} moved tasks to this CPU. */
  PULLED("pulled");

  private final String description;

  BalanceOutcome(String description) {
    this.description = description;
  }

  /** A few words for a timeline. */
  public String description() {
    return description;
  }
}
