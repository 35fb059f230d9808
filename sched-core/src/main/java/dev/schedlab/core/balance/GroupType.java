package dev.schedlab.core.balance;

/**
 * Equivalent of {@code enum group_type} in {@code kernel/sched/fair.c} (7.1.5 values): how busy a
 * sched group is, ordered by how much it needs tasks pulled away; the ordinal is the kernel value.
 * The 7.2+ {@code group_llc_balance} (cache-aware scheduling) is not modelled.
 */
public enum GroupType {
  /** {@code group_has_spare}: the group has spare capacity. */
  HAS_SPARE,
  /** {@code group_fully_busy}: no spare capacity, but tasks get the compute they need. */
  FULLY_BUSY,
  /** {@code group_misfit_task}: a task does not fit its CPU's capacity. */
  MISFIT_TASK,
  /** {@code group_smt_balance}: an SMT core runs more than one task while dst is idle. */
  SMT_BALANCE,
  /** {@code group_asym_packing}: tasks should move to higher-priority CPUs (not modelled). */
  ASYM_PACKING,
  /** {@code group_imbalanced}: affinity kept a lower level from balancing. */
  IMBALANCED,
  /** {@code group_overloaded}: more tasks than CPUs and not enough capacity. */
  OVERLOADED
}
