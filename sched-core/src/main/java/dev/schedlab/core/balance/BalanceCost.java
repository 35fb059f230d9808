package dev.schedlab.core.balance;

/**
 * Accumulates what one balancing invocation did, so the engine can charge its CPU time through a
 * cost model: CPUs whose statistics were read, domains balanced, tasks moved, and the time the
 * source runqueue lock was held. Reused across calls ({@link #reset()}), never allocated per call.
 */
public final class BalanceCost {
  /** CPUs whose runqueue statistics were read ({@code update_sg_lb_stats} per CPU). */
  public long cpusScanned;

  /** Domains for which {@code sched_balance_rq} ran. */
  public long domainsBalanced;

  /** Tasks examined by {@code detach_tasks} / {@code can_migrate_task}. */
  public long tasksExamined;

  /** Tasks moved. */
  public long tasksMoved;

  /** Clears every field. */
  public void reset() {
    cpusScanned = 0;
    domainsBalanced = 0;
    tasksExamined = 0;
    tasksMoved = 0;
  }

  /** Adds another accumulator into this one. */
  public void add(BalanceCost other) {
    cpusScanned += other.cpusScanned;
    domainsBalanced += other.domainsBalanced;
    tasksExamined += other.tasksExamined;
    tasksMoved += other.tasksMoved;
  }
}
