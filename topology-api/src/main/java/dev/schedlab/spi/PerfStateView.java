package dev.schedlab.spi;

import dev.schedlab.spi.view.WorkClass;

/**
 * What the engine reports to a {@link PerformanceModel}: which CPUs are busy and since when,
 * where tasks last moved, and how many memory-bound threads share each node. O(1), no allocation.
 */
public interface PerfStateView {

  /** Current simulated time in ns. */
  long nowNs();

  /** Whether {@code cpu} is executing something (a task, a softirq, the ILB). */
  boolean isBusy(int cpu);

  /** When {@code cpu} last became busy (valid while busy). */
  long busySinceNs(int cpu);

  /** When {@code cpu} last became idle (valid while idle; {@code Long.MIN_VALUE} if never busy). */
  long idleSinceNs(int cpu);

  /**
   * How far task {@code taskId} last migrated: 0 none (or never), 1 within an SMT core, 2 within
   * an LLC, 3 across LLCs within a node, 4 across NUMA nodes.
   */
  int lastMigrationDistance(int taskId);

  /** CPU time the task has run since its last migration, in ns. */
  long runTimeSinceMigrationNs(int taskId);

  /** The task's work class. */
  WorkClass workClass(int taskId);

  /** Number of memory-bound tasks currently running on NUMA node {@code node}. */
  int memoryBoundRunning(int node);
}
