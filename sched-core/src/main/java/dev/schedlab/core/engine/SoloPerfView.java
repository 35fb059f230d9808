package dev.schedlab.core.engine;

import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.view.WorkClass;

/**
 * The engine's {@link PerfStateView} with the SMT siblings of one target CPU shown idle and out of
 * any qualification window: the performance model's answer through it is the speed the target's
 * task would have alone on its core, the reference of its SMT lost work ({@link
 * dev.schedlab.spi.LostWork}). The model's own accounting; no kernel counterpart.
 */
final class SoloPerfView implements PerfStateView {

  private final EnginePerfView view;
  private final int[][] siblingsOf;

  /** The CPU whose siblings are hidden; set before each query. */
  int target;

  SoloPerfView(EnginePerfView view, int[][] siblingsOf) {
    this.view = view;
    this.siblingsOf = siblingsOf;
  }

  private boolean hidden(int cpu) {
    for (int sibling : siblingsOf[target]) {
      if (sibling == cpu) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long nowNs() {
    return view.nowNs();
  }

  @Override
  public boolean isBusy(int cpu) {
    return !hidden(cpu) && view.isBusy(cpu);
  }

  @Override
  public long busySinceNs(int cpu) {
    return view.busySinceNs(cpu);
  }

  @Override
  public long idleSinceNs(int cpu) {
    return hidden(cpu) ? Long.MIN_VALUE : view.idleSinceNs(cpu);
  }

  @Override
  public int lastMigrationDistance(int taskId) {
    return view.lastMigrationDistance(taskId);
  }

  @Override
  public long runTimeSinceMigrationNs(int taskId) {
    return view.runTimeSinceMigrationNs(taskId);
  }

  @Override
  public WorkClass workClass(int taskId) {
    return view.workClass(taskId);
  }

  @Override
  public int memoryBoundRunning(int node) {
    return view.memoryBoundRunning(node);
  }

  @Override
  public int memoryHomeNode(int taskId) {
    return view.memoryHomeNode(taskId);
  }

  @Override
  public int memoryBoundHomedRunning(int node) {
    return view.memoryBoundHomedRunning(node);
  }

  @Override
  public int memoryBoundHomedRunning(int home, int running) {
    return view.memoryBoundHomedRunning(home, running);
  }
}
