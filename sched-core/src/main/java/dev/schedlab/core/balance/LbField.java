package dev.schedlab.core.balance;

/**
 * The eleven load-balance counters of one idle-type block of a {@code /proc/schedstat} version 17
 * domain line, in the order the kernel prints them; the ordinal is the position in the block.
 */
public enum LbField {
  /** {@code lb_count}: every entry into {@code sched_balance_rq()}. */
  COUNT("lb_count"),
  /** {@code lb_balanced}: passes that found nothing to do or were not this CPU's turn. */
  BALANCED("lb_balanced"),
  /** {@code lb_failed}: passes that found an imbalance but moved nothing. */
  FAILED("lb_failed"),
  /** {@code lb_imbalance_load}: sum of {@code env->imbalance} for {@code migrate_load}. */
  IMBALANCE_LOAD("lb_imbalance_load"),
  /** {@code lb_imbalance_util}: sum of {@code env->imbalance} for {@code migrate_util}. */
  IMBALANCE_UTIL("lb_imbalance_util"),
  /** {@code lb_imbalance_task}: sum of {@code env->imbalance} for {@code migrate_task}. */
  IMBALANCE_TASK("lb_imbalance_task"),
  /** {@code lb_imbalance_misfit}: sum of {@code env->imbalance} for {@code migrate_misfit}. */
  IMBALANCE_MISFIT("lb_imbalance_misfit"),
  /** {@code lb_gained}: tasks moved (also by active balancing, under {@code CPU_IDLE}). */
  GAINED("lb_gained"),
  /** {@code lb_hot_gained}: cache-hot tasks moved because balancing had failed too often. */
  HOT_GAINED("lb_hot_gained"),
  /** {@code lb_nobusyq}: a busiest group was found but no busiest runqueue in it. */
  NOBUSYQ("lb_nobusyq"),
  /** {@code lb_nobusyg}: no busiest group. */
  NOBUSYG("lb_nobusyg");

  private final String kernelName;

  LbField(String kernelName) {
    this.kernelName = kernelName;
  }

  /** The kernel's field name, e.g. {@code lb_count}. */
  public String kernelName() {
    return kernelName;
  }
}
