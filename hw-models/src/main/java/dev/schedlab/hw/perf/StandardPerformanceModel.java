package dev.schedlab.hw.perf;

import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.view.WorkClass;

/**
 * The performance model of every built-in machine: a thread's speed is the product of
 *
 * <ol>
 *   <li>its CPU's capacity / 1024,
 *   <li>the {@link SmtCoRun} factor for the number of siblings that slow its core — busy ones, or
 *       with the {@link SiblingQualification} rule (Olympus) also those idle for less than the
 *       qualification interval,
 *   <li>the {@link MigrationWarmup} factor for its last migration and the run time since,
 *   <li>for memory-bound threads, the {@link RemoteMemory} factor when it runs away from the node
 *       holding its memory, times that node's {@link MemoryBandwidthShare} for the demand of the
 *       threads homed there, each remote one asking for its factor of a full share (with {@link
 *       RemoteMemory.Placement#RUNNING_NODE}, or before the engine reports a home node, the share
 *       of the node it runs on).
 * </ol>
 *
 * Pure: the answer depends only on the reported state; no allocation per call.
 */
public final class StandardPerformanceModel implements PerformanceModel {

  private final CpuLayout layout;
  private final SmtCoRun smt;
  private final SiblingQualification qualification;
  private final MigrationWarmup warmup;
  private final MemoryBandwidthShare memory;
  private final RemoteMemory remote;

  /**
   * A model whose memory-bound threads draw bandwidth from the node they run on (no home nodes).
   */
  public StandardPerformanceModel(
      CpuLayout layout,
      SmtCoRun smt,
      SiblingQualification qualification,
      MigrationWarmup warmup,
      MemoryBandwidthShare memory) {
    this(layout, smt, qualification, warmup, memory, null);
  }

  /**
   * @param layout the machine's CPUs
   * @param smt the co-run rule
   * @param qualification the Olympus idle-qualification rule, or null for the generic rule (only
   *     busy siblings slow a thread)
   * @param warmup cache-cold slowdown after migrations
   * @param memory per-node bandwidth sharing
   * @param remote where memory-bound threads' pages are and the cost of reaching them from another
   *     node; null for {@link RemoteMemory.Placement#RUNNING_NODE}
   */
  public StandardPerformanceModel(
      CpuLayout layout,
      SmtCoRun smt,
      SiblingQualification qualification,
      MigrationWarmup warmup,
      MemoryBandwidthShare memory,
      RemoteMemory remote) {
    this.layout = java.util.Objects.requireNonNull(layout, "layout");
    this.smt = java.util.Objects.requireNonNull(smt, "smt");
    this.qualification = qualification;
    this.warmup = java.util.Objects.requireNonNull(warmup, "warmup");
    this.memory = java.util.Objects.requireNonNull(memory, "memory");
    this.remote =
        remote == null || remote.placement() == RemoteMemory.Placement.RUNNING_NODE ? null : remote;
  }

  @Override
  public double speed(int cpu, int taskId, PerfStateView state) {
    WorkClass workClass = state.workClass(taskId);
    double speed =
        layout.capacity(cpu) / 1024.0 * smt.speed(workClass, slowingSiblings(cpu, state));
    speed *=
        warmup.factor(state.lastMigrationDistance(taskId), state.runTimeSinceMigrationNs(taskId));
    if (workClass == WorkClass.MEMORY) {
      int node = layout.node(cpu);
      int home = remote == null ? -1 : state.memoryHomeNode(taskId);
      if (home < 0) {
        speed *= memory.factor(state.memoryBoundRunning(node));
      } else {
        // The home node shares its bandwidth in proportion to what its running threads ask.
        double demand = 0;
        for (int on = 0; on < remote.nodeSlots(); on++) {
          double f = remote.factor(on, home);
          if (f > 0) {
            // 0 only for ids that are not nodes.
            demand += state.memoryBoundHomedRunning(home, on) * f;
          }
        }
        speed *= remote.factor(node, home) * memory.factor(demand);
      }
    }
    return speed;
  }

  @Override
  public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
    long next = Long.MAX_VALUE;
    if (qualification != null) {
      for (int i = 0; i < layout.siblingCount(cpu); i++) {
        next = Math.min(next, qualification.windowEndNs(layout.sibling(cpu, i), state));
      }
    }
    long untilWarm =
        warmup.nsUntilChange(
            state.lastMigrationDistance(taskId), state.runTimeSinceMigrationNs(taskId));
    if (untilWarm != Long.MAX_VALUE) {
      next = Math.min(next, state.nowNs() + untilWarm);
    }
    return next;
  }

  /** The siblings of {@code cpu} that slow it now (busy, or inside a qualification window). */
  public int slowingSiblings(int cpu, PerfStateView state) {
    int count = 0;
    for (int i = 0; i < layout.siblingCount(cpu); i++) {
      int sibling = layout.sibling(cpu, i);
      if (qualification != null
          ? qualification.interferes(sibling, state)
          : state.isBusy(sibling)) {
        count++;
      }
    }
    return count;
  }

  /** Whether the Olympus idle-qualification rule is on. */
  public boolean hasSiblingQualification() {
    return qualification != null;
  }

  /** The qualification rule, or null. */
  public SiblingQualification siblingQualification() {
    return qualification;
  }

  /** The machine layout. */
  public CpuLayout layout() {
    return layout;
  }
}
