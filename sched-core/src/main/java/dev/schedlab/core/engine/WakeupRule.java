package dev.schedlab.core.engine;

/**
 * Which kernel's fair-class rule places a waking task and decides whether it preempts the running
 * one ({@link EngineOptions#wakeupRule()}).
 */
public enum WakeupRule {
  /**
   * EEVDF, as 7.1.5 and mainline: a waking task is placed at the queue's average vruntime (lag 0)
   * and preempts when {@code pick_eevdf()} would choose it, with RUN_TO_PARITY's protection.
   */
  EEVDF,
  /**
   * Linux 6.1's CFS ({@link CfsWakeup}): a waking task keeps its vruntime relative to {@code
   * min_vruntime}, but at most half a latency period behind it (GENTLE_FAIR_SLEEPERS), and preempts
   * when the running task's vruntime is ahead by more than the wakeup granularity scaled to the
   * wakee's weight. Replaced by EEVDF in 147f3efaa241 ("sched/fair: Implement an EEVDF-like
   * scheduling policy", v6.6); the sleeper credit by lag-based placement in 76cae9dbe185
   * ("sched/fair: Commit to lag based placement", v6.6).
   */
  CFS_6_1
}
