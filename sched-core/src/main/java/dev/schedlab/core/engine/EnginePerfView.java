package dev.schedlab.core.engine;

import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.view.WorkClass;

/**
 * The {@link PerfStateView} the performance model reads: a hardware thread is busy while it runs a
 * task or balancing work (newidle, ILB, softirq from idle), not only while {@code idle_cpu()} is
 * false.
 */
final class EnginePerfView implements PerfStateView {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final TaskProgress progress;

  EnginePerfView(EngineContext ctx, TaskProgress progress) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.progress = progress;
  }

  @Override
  public long nowNs() {
    return ctx.loop.now();
  }

  @Override
  public boolean isBusy(int cpu) {
    return rqs[cpu].perfBusy;
  }

  @Override
  public long busySinceNs(int cpu) {
    return rqs[cpu].busySince;
  }

  @Override
  public long idleSinceNs(int cpu) {
    return rqs[cpu].idleSince;
  }

  @Override
  public int lastMigrationDistance(int taskId) {
    return ctx.tasks.get(taskId).lastMigrationDistance;
  }

  @Override
  public long runTimeSinceMigrationNs(int taskId) {
    Task task = ctx.tasks.get(taskId);
    long running = 0;
    if (task.state == TaskState.RUNNING) {
      running = Math.max(0, ctx.loop.now() - rqs[task.cpu].execClock);
    }
    return task.runSinceMigrationNs + running;
  }

  @Override
  public WorkClass workClass(int taskId) {
    return ctx.tasks.get(taskId).currentWorkClass();
  }

  @Override
  public int memoryBoundRunning(int node) {
    return progress.memoryBoundRunning(node);
  }

  @Override
  public int memoryHomeNode(int taskId) {
    return ctx.tasks.get(taskId).memoryHomeNode;
  }

  @Override
  public int memoryBoundHomedRunning(int node) {
    return progress.memoryBoundHomedRunning(node);
  }

  @Override
  public int memoryBoundHomedRunning(int home, int running) {
    return progress.memoryBoundHomedRunning(home, running);
  }
}
