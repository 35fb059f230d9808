package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceHost;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.random.RandomGenerator;

/** The engine's side of the {@link BalanceHost} contract with the load balancer. */
final class EngineHost implements BalanceHost {

  private final Simulation sim;
  private final CpuRunqueue[] rqs;

  EngineHost(Simulation sim) {
    this.sim = sim;
    this.rqs = sim.rqs;
  }

  @Override
  public long nowNs() {
    return sim.loop.now();
  }

  @Override
  public long jiffies() {
    return sim.scheduler == null ? 0 : sim.scheduler.jiffies();
  }

  @Override
  public int hz() {
    return sim.hz;
  }

  @Override
  public Topology topology() {
    return sim.topology;
  }

  @Override
  public SchedDomains domains() {
    return sim.domains;
  }

  @Override
  public CpuStateView state() {
    return sim.state;
  }

  @Override
  public long misfitTaskLoad(int cpu) {
    return rqs[cpu].misfitTaskLoad;
  }

  @Override
  public boolean ttwuPending(int cpu) {
    return false;
  }

  @Override
  public long avgIdleNs(int cpu) {
    return rqs[cpu].avgIdle;
  }

  @Override
  public int cfsTaskCount(int cpu) {
    return rqs[cpu].nr;
  }

  @Override
  public int cfsTaskFromTail(int cpu, int indexFromTail) {
    CpuRunqueue rq = rqs[cpu];
    if (indexFromTail < 0 || indexFromTail >= rq.nr) {
      throw new IndexOutOfBoundsException(
          "index " + indexFromTail + " outside CPU " + cpu + "'s " + rq.nr + " fair tasks");
    }
    return rq.tasks[indexFromTail].id;
  }

  @Override
  public void rotateToHead(int cpu, int taskId) {
    rqs[cpu].moveToHead(sim.tasks.get(taskId));
  }

  @Override
  public TaskView task(int taskId) {
    return sim.tasks.get(taskId);
  }

  @Override
  public long execStartNs(int taskId) {
    return sim.tasks.get(taskId).execStartNs;
  }

  /**
   * {@code task_h_load(p)} in the root cgroup: the task's {@code load_avg} scaled by {@code
   * h_load / (cfs_rq load_avg + 1)}, where the root's {@code h_load} is its {@code load_avg}.
   */
  @Override
  public long taskHLoad(int taskId) {
    Task task = sim.tasks.get(taskId);
    long cfsLoad = rqs[task.cpu].cfs.loadAvg;
    return task.avg.loadAvg * cfsLoad / (cfsLoad + 1);
  }

  @Override
  public long taskUtilEst(int taskId) {
    Task task = sim.tasks.get(taskId);
    return Math.max(task.avg.utilAvg, task.utilEst);
  }

  @Override
  public void migrateTask(int taskId, int dstCpu, int level) {
    sim.scheduler.migrateQueuedTask(taskId, dstCpu);
  }

  @Override
  public boolean requestActiveBalance(int busiestCpu, int targetCpu) {
    return sim.scheduler.requestActiveBalance(busiestCpu, targetCpu);
  }

  @Override
  public void updateBlockedAverages(int cpu) {
    sim.scheduler.updateBlockedAverages(cpu);
  }

  @Override
  public RandomGenerator random(int cpu) {
    return rqs[cpu].rng;
  }
}
