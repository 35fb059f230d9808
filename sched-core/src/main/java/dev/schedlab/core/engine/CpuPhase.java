package dev.schedlab.core.engine;

/** What a CPU without a running task is doing. */
enum CpuPhase {
  /** Nothing in progress: running its current task, or idle in the idle loop. */
  NONE,
  /**
   * {@code sched_balance_newidle()} after the last task left: not {@code idle_cpu()} yet (the
   * previous task is still {@code rq->curr} in the kernel), busy for the balancing cost.
   */
  NEWIDLE,
  /**
   * Balancing in softirq context from the idle loop (NOHZ idle balancing as ILB, a local
   * blocked-load update, or a tick softirq on an idle CPU), or an interrupt's work on an idle CPU
   * ({@link BackgroundIrqs}): {@code idle_cpu()} stays true, but the hardware thread is busy.
   */
  IDLE_SOFTIRQ
}
