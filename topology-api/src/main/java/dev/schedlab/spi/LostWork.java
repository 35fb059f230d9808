package dev.schedlab.spi;

import java.util.List;

/**
 * Why a running or runnable task did less work than it would have done alone on its CPU, each
 * cause's loss measured in nanoseconds of the task's own solo progress ({@link
 * TaskControl#lostWork}). The engine accounts it; a throughput workload reads it for the thread its
 * synchronisation waited for (the critical path) and reports where that time went.
 *
 * <p>SMT causes are the performance model's slowdown against the same task with every SMT sibling
 * idle (and out of any qualification window): {@code dt × (1 − speed / soloSpeed)}, charged to the
 * state of the siblings at the time.
 */
public enum LostWork {
  /** A sibling ran another task. */
  SIBLING_TASK("sibling_task", "an SMT sibling ran another task"),
  /** A sibling ran the NOHZ idle balancer ({@code _nohz_idle_balance()}). */
  SIBLING_ILB("sibling_ilb", "an SMT sibling ran the ILB"),
  /** An idle sibling was inside its qualification window after an ILB pass. */
  SIBLING_ILB_QUALIFICATION(
      "sibling_ilb_qualification",
      "an SMT sibling was in its qualification interval after an ILB pass"),
  /**
   * A sibling was busy with other kernel work (its own tick softirq, newidle balancing, an
   * interrupt) or in its qualification window after it.
   */
  SIBLING_OTHER(
      "sibling_other",
      "an SMT sibling ran other balancing or interrupt work (or was in its qualification interval"
          + " after it)"),
  /** Balancing softirq or the stopper stole the task's own CPU. */
  OWN_BALANCING("own_balancing", "its own CPU ran the tick's balancing softirq or the stopper"),
  /** A timer or device interrupt stole the task's own CPU. */
  OWN_IRQ("own_irq", "its own CPU handled a timer or device interrupt"),
  /** The task was runnable but waited on its runqueue (behind another task, or to be picked). */
  RUNQUEUE_WAIT("runqueue_wait", "it waited on a runqueue");

  /** All causes in order. */
  public static final List<LostWork> ALL = List.of(values());

  /** {@code ALL.size()}: the length of a {@link TaskControl#lostWork} array. */
  public static final int COUNT = ALL.size();

  private final String key;
  private final String description;

  LostWork(String key, String description) {
    this.key = key;
    this.description = description;
  }

  /** A short snake-case name for reports. */
  public String key() {
    return key;
  }

  /** What the cause means, for report documentation. */
  public String description() {
    return description;
  }
}
