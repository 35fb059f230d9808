package dev.schedlab.core.engine;

import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.view.WorkClass;

/**
 * The {@link PerfStateView} the performance model reads: a hardware thread is busy while it runs
 * a task or balancing work (newidle, ILB, softirq from idle), not only while {@code idle_cpu()} is
 * false.
 */
final class EnginePerfView implements PerfStateView {

  private final Simulation sim;
  private final CpuRunqueue[] rqs;

  EnginePerfView(Simulation sim) {
    this.sim = sim;
    this.rqs = sim.rqs;
  }

  @Override
  public long nowNs() {
    return sim.loop.now();
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
    return sim.tasks.get(taskId).lastMigrationDistance;
  }

  @Override
  public long runTimeSinceMigrationNs(int taskId) {
    Task task = sim.tasks.get(taskId);
    long running = 0;
    if (task.state == TaskState.RUNNING) {
      running = Math.max(0, sim.loop.now() - rqs[task.cpu].execClock);
    }
    return task.runSinceMigrationNs + running;
  }

  @Override
  public WorkClass workClass(int taskId) {
    return sim.tasks.get(taskId).currentWorkClass();
  }

  @Override
  public int memoryBoundRunning(int node) {
    return sim.scheduler.memoryBoundRunning(node);
  }

  @Override
  public int memoryHomeNode(int taskId) {
    return sim.tasks.get(taskId).memoryHomeNode;
  }

  @Override
  public int memoryBoundHomedRunning(int node) {
    return sim.scheduler.memoryBoundHomedRunning(node);
  }

  @Override
  public int memoryBoundHomedRunning(int home, int running) {
    return sim.scheduler.memoryBoundHomedRunning(home, running);
  }
}
