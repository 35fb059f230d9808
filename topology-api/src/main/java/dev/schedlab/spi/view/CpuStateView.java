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
   * Equivalent of {@code is_core_idle()}: every other CPU of {@code cpu}'s SMT core is idle (true
   * without SMT).
   */
  boolean isCoreIdle(int cpu);

  /**
   * The CPUs for which {@link #isIdle} is true: {@code idle_cpu()} evaluated over every CPU, as a
   * live read-only view (changes show through; do not cache a copy across calls). The kernel keeps
   * no such mask and tests CPUs one at a time; a simulator maintains it incrementally (on every
   * change of {@code rq->curr}, {@code rq->nr_running} or the newidle state of a CPU) so that a
   * policy can do word by word what the kernel does CPU by CPU and still make the kernel's choice.
   * Reading it is O(1) and allocates nothing.
   */
  CpuMask idleMask();

  /**
   * The CPUs that are idle on a fully idle SMT core: {@link #isIdle} and {@link #isCoreIdle}
   * ({@code idle_cpu(cpu) && is_core_idle(cpu)}, i.e. the CPU and all its SMT siblings idle), as a
   * live read-only view maintained like {@link #idleMask()}. A core is in it with all its CPUs or
   * not at all; without SMT it equals {@link #idleMask()}. Reading it is O(1) and allocates
   * nothing.
   */
  CpuMask idleCoreMask();

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
