package dev.schedlab.spi.view;

/**
 * The few balancing actions a policy may request. The engine performs them with the kernel's rules
 * (runqueue locks, affinity, accounting) and reports whether they happened.
 */
public interface BalanceActions {

  /**
   * Moves one queued, not running task from {@code srcCpu} to {@code dstCpu} that is allowed on
   * {@code dstCpu}, scanning from the tail of the source's task list as {@code detach_one_task()}
   * does, ignoring cache hotness (an active-balance style move).
   *
   * @return whether a task moved
   */
  boolean migrateOneTask(int srcCpu, int dstCpu);

  /**
   * Resets the periodic balance period of every domain of {@code cpu}: {@code balance_interval :=
   * min_interval} and {@code last_balance := now}, so the next periodic pass comes soon.
   */
  void resetBalanceInterval(int cpu);
}
