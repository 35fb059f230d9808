package dev.schedlab.core.engine;

/**
 * The two calls {@link FairClass}, the runqueue core, makes into parts built above it: the
 * balancer's view of {@code nr_running} and {@code resched_curr()}, which the context-switch code
 * ({@link CoreSchedule}) owns. The top of the engine ({@link Engine}) implements it.
 */
interface RunqueueUpcalls {

  /** {@code add_nr_running()}: the balancer's overload state follows the runqueue's length. */
  void nrRunningAdded(int cpu, int previousNrRunning, int nrRunning);

  /** Equivalent of {@code resched_curr(rq)}. */
  void resched(CpuRunqueue rq);
}
