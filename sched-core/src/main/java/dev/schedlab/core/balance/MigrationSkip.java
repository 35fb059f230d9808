package dev.schedlab.core.balance;

/**
 * Why {@code detach_tasks()} (or {@code detach_one_task()}) passed over a task it examined. The
 * first three are the kernel's per-task schedstat counters of {@code can_migrate_task()}, summed
 * over tasks; the last two are the migration-type test of {@code detach_tasks()}, which the kernel
 * does not count. Together they say why balancing found an imbalance and moved nothing.
 */
public enum MigrationSkip {
  /** The destination is not in the task's affinity ({@code nr_failed_migrations_affine}). */
  AFFINE("affine", "affinity excludes dst (nr_failed_migrations_affine)"),
  /** The task is running on its CPU ({@code nr_failed_migrations_running}). */
  RUNNING("running", "running (nr_failed_migrations_running)"),
  /**
   * Cache-hot ({@code task_hot()}) and balancing has not failed often enough to move it anyway
   * ({@code nr_failed_migrations_hot}).
   */
  HOT("hot", "cache-hot (nr_failed_migrations_hot)"),
  /** Its load or utilisation, shifted by {@code nr_balance_failed}, exceeds the imbalance. */
  OVER_IMBALANCE("over_imbalance", "load or util above the imbalance"),
  /** A misfit migration, but the task fits its CPU. */
  FITS("fits", "misfit balance, task fits its CPU");

  private final String key;
  private final String label;

  MigrationSkip(String key, String label) {
    this.key = key;
    this.label = label;
  }

  /** A short snake_case name for reports ({@code lb_skip_<key>}). */
  public String key() {
    return key;
  }

  /** A one-line description, with the kernel's counter name where there is one. */
  public String label() {
    return label;
  }
}
