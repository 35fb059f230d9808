package dev.schedlab.spi.view;

import dev.schedlab.cpumask.CpuMask;

/**
 * What a policy may read about CPUs and the NOHZ state at the current simulated instant. All
 * methods are O(1) and allocate nothing.
 */
public interface CpuStateView {

  /** Current simulated time in nanoseconds. */
  long nowNs();

  /**
   * Equivalent of {@code idle_cpu()}: the CPU runs its idle task, has nothing queued and no wakeup
   * pending.
   */
  boolean isIdle(int cpu);

  /** Equivalent of {@code available_idle_cpu()} (no vCPU preemption in the model: same as idle). */
  default boolean isAvailableIdle(int cpu) {
    return isIdle(cpu);
  }

  /**
   * Equivalent of {@code is_core_idle()}: every other CPU of {@code cpu}'s SMT core is idle
   * (true without SMT).
   */
  boolean isCoreIdle(int cpu);

  /** Equivalent of {@code sched_smt_active()}: the machine has a core with more than one CPU. */
  boolean smtActive();

  /** Equivalent of {@code rq->nr_running}. */
  int nrRunning(int cpu);

  /** Equivalent of {@code rq->cfs.h_nr_runnable}. */
  int cfsNrRunnable(int cpu);

  /**
   * Equivalent of {@code sched_idle_rq()}: the runqueue is non-empty and every runnable task on it
   * has the SCHED_IDLE policy.
   */
  boolean isSchedIdleRq(int cpu);

  /** Equivalent of {@code cpu_runnable()}: {@code rq->cfs.avg.runnable_avg}. */
  long runnableAvg(int cpu);

  /** Equivalent of {@code cpu_util_cfs()}: capped at the CPU's original capacity. */
  long utilAvg(int cpu);

  /** Equivalent of {@code cpu_load()}: {@code rq->cfs.avg.load_avg}. */
  long loadAvg(int cpu);

  /** Equivalent of {@code capacity_of()}. */
  long capacityOf(int cpu);

  /** Equivalent of {@code cpu_active()}. */
  boolean isActive(int cpu);

  /** Whether the CPU's tick is stopped (NO_HZ idle or busy nohz_full). */
  boolean isTickStopped(int cpu);

  /** Equivalent of {@code nohz.idle_cpus_mask}: a live read-only view. */
  CpuMask nohzIdleMask();

  /** Sum of {@code nr_running} over all active CPUs, maintained incrementally. */
  long totalNrRunning();

  /** Number of active CPUs. */
  int activeCpuCount();
}
