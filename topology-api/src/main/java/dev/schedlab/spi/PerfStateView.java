package dev.schedlab.spi;

import dev.schedlab.spi.view.WorkClass;

/**
 * What the engine reports to a {@link PerformanceModel}: which CPUs are busy and since when, where
 * tasks last moved, and how many memory-bound threads share each node. O(1), no allocation.
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
   * How far task {@code taskId} last migrated: 0 none (or never), 1 within an SMT core, 2 within an
   * LLC, 3 across LLCs within a node, 4 across NUMA nodes.
   */
  int lastMigrationDistance(int taskId);

  /** CPU time the task has run since its last migration, in ns. */
  long runTimeSinceMigrationNs(int taskId);

  /** The task's work class. */
  WorkClass workClass(int taskId);

  /** Number of memory-bound tasks currently running on NUMA node {@code node}. */
  int memoryBoundRunning(int node);

  /**
   * The NUMA node holding task {@code taskId}'s memory: where a memory-bound task first ran (its
   * pages are first-touched there), or -1 when it has not run yet or the engine does not track
   * homes. Pages are assumed not to move during the run (no NUMA-balancing page migration).
   */
  default int memoryHomeNode(int taskId) {
    return -1;
  }

  /**
   * Number of memory-bound tasks currently running, wherever they run, whose memory is on node
   * {@code node} (see {@link #memoryHomeNode}); they share that node's memory controllers. Without
   * home tracking, the tasks running on the node.
   */
  default int memoryBoundHomedRunning(int node) {
    return memoryBoundRunning(node);
  }

  /**
   * Number of memory-bound tasks whose memory is on node {@code home} running now on node {@code
   * running}. Without home tracking, the tasks running on the node when both are equal, else 0.
   */
  default int memoryBoundHomedRunning(int home, int running) {
    return home == running ? memoryBoundRunning(home) : 0;
  }
}
