package dev.schedlab.spi;

import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.TaskView;

/**
 * Hooks in wakeup placement ({@code select_task_rq_fair()} and {@code select_idle_sibling()}).
 * Every hook has a default that abstains, so plugins compose: the engine asks each wakeup policy of
 * the variant in order. Hooks allocate nothing per call.
 */
public interface WakeupPolicy {

  /** A policy's answer to a yes/no question it may decline to answer. */
  enum Vote {
    /** No opinion: ask the next policy, or use the engine default. */
    ABSTAIN,
    /** Yes. */
    YES,
    /** No. */
    NO
  }

  /**
   * Whether a CPU whose runnable tasks are all SCHED_IDLE ({@code sched_idle_rq()}) counts as idle
   * for {@code wakee}. Stands for {@code choose_sched_idle_rq()} inside {@code choose_idle_cpu()}.
   * The first non-abstaining policy decides; if all abstain the engine uses the 7.1.5 rule (yes
   * only for wakees that are not SCHED_IDLE).
   */
  default Vote schedIdleRqCountsAsIdle(TaskView wakee) {
    return Vote.ABSTAIN;
  }

  /**
   * A final say over the CPU chosen for a waking or new task, after the mainline choice. Policies
   * are applied in order, each seeing the previous one's result.
   *
   * @return the CPU to use (must be allowed by the task's affinity)
   */
  default int selectFinal(TaskView task, int prevCpu, int chosenCpu, WakeupContext context) {
    return chosenCpu;
  }

  /**
   * Called once per periodic balancing pass of {@code cpu}, so a policy can track averages in the
   * balancer as the reviewer's rq-depth proposal does.
   */
  default void onPeriodicBalance(int cpu, CpuStateView state) {}
}
