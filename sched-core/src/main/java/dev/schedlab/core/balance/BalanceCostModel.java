package dev.schedlab.core.balance;

/**
 * How long balancing work takes on the CPU that does it, from the counts a {@link BalanceCost}
 * accumulates. The kernel measures this time with {@code sched_clock_cpu()} (newidle cost
 * accounting); the simulator computes it, and the engine charges it to the balancing CPU.
 *
 * <p>Every number here is an assumption of this model, not a measurement from a source; all are
 * overridable. {@link #defaults()} was chosen so that the derived {@code max_newidle_lb_cost} lands
 * in the range the kernel's debugfs typically shows on servers (a few µs for an SMT or 16-CPU LLC
 * domain, tens of µs for a domain spanning a few hundred CPUs):
 *
 * <ul>
 *   <li>{@code baseNs} 1000: softirq entry/exit or newidle entry, RCU read section, the domain walk
 *       itself and the blocked-average update of the balancing CPU;
 *   <li>{@code perCpuScannedNs} 40: {@code update_sg_lb_stats()} reads a few cache lines of each
 *       remote runqueue (PELT averages, nr_running, capacity); ~10-20 ns for a hit in a shared
 *       L2/L3, ~100 ns or more across a socket, blended;
 *   <li>{@code perDomainNs} 300: the fixed part of one {@code sched_balance_rq()}: env setup,
 *       {@code should_we_balance()}, the group decision and {@code calculate_imbalance()};
 *   <li>{@code perTaskExaminedNs} 100: one {@code can_migrate_task()} under the source lock
 *       (affinity test, {@code task_hot()}, list rotation);
 *   <li>{@code perTaskMovedNs} 1500: {@code detach_task()} + {@code attach_task()}: dequeue and
 *       enqueue with PELT attach/detach, {@code set_task_cpu()}, and the task's cache lines moving
 *       between CPUs.
 * </ul>
 *
 * @param baseNs fixed cost of one balancing invocation
 * @param perCpuScannedNs cost per CPU whose runqueue statistics were read
 * @param perDomainNs cost per domain balanced
 * @param perTaskExaminedNs cost per task examined by {@code detach_tasks()}
 * @param perTaskMovedNs cost per task moved
 */
public record BalanceCostModel(
    long baseNs,
    long perCpuScannedNs,
    long perDomainNs,
    long perTaskExaminedNs,
    long perTaskMovedNs) {

  /**
   * @throws IllegalArgumentException if any cost is negative
   */
  public BalanceCostModel {
    requireNonNegative("baseNs", baseNs);
    requireNonNegative("perCpuScannedNs", perCpuScannedNs);
    requireNonNegative("perDomainNs", perDomainNs);
    requireNonNegative("perTaskExaminedNs", perTaskExaminedNs);
    requireNonNegative("perTaskMovedNs", perTaskMovedNs);
  }

  /** The assumed defaults explained in the class comment: 1000, 40, 300, 100, 1500 ns. */
  public static BalanceCostModel defaults() {
    return new BalanceCostModel(1_000, 40, 300, 100, 1_500);
  }

  /** Time for the work counted in {@code cost}, including {@link #baseNs()}. */
  public long toNs(BalanceCost cost) {
    return baseNs + variableNs(cost);
  }

  /** Time for the work counted in {@code cost}, without {@link #baseNs()}. */
  public long variableNs(BalanceCost cost) {
    return cost.cpusScanned * perCpuScannedNs
        + cost.domainsBalanced * perDomainNs
        + cost.tasksExamined * perTaskExaminedNs
        + cost.tasksMoved * perTaskMovedNs;
  }

  /**
   * How long one {@code detach_tasks()} (or {@code detach_one_task()}) holds the source runqueue
   * lock: every examined task plus every moved task. The whole per-task move cost is charged to the
   * source lock, although {@code attach_task()} runs under the destination's lock: detaching
   * (dequeue, PELT detach, {@code set_task_cpu()}) is the larger part, and the model keeps one
   * constant per task rather than two.
   */
  public long lockHoldNs(long tasksExamined, long tasksMoved) {
    return tasksExamined * perTaskExaminedNs + tasksMoved * perTaskMovedNs;
  }

  private static void requireNonNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          name + " " + value + " outside the allowed range 0.." + Long.MAX_VALUE);
    }
  }
}
