package dev.schedlab.core.balance;

/**
 * Equivalent of {@code enum migration_type} in {@code kernel/sched/fair.c}: what {@code
 * env->imbalance} counts. The 7.2+ {@code migrate_llc_task} is not modelled.
 */
enum MigrationType {
  /** {@code migrate_load}: load ({@code task_h_load}). */
  LOAD(LbField.IMBALANCE_LOAD),
  /** {@code migrate_util}: utilization ({@code task_util_est}). */
  UTIL(LbField.IMBALANCE_UTIL),
  /** {@code migrate_task}: a number of tasks. */
  TASK(LbField.IMBALANCE_TASK),
  /** {@code migrate_misfit}: one misfit task. */
  MISFIT(LbField.IMBALANCE_MISFIT);

  /** The {@code lb_imbalance_*} counter {@code update_lb_imbalance_stat()} adds to. */
  final LbField imbalanceField;

  MigrationType(LbField imbalanceField) {
    this.imbalanceField = imbalanceField;
  }
}
