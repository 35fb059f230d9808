package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceHost;
import dev.schedlab.core.balance.BalanceOutcome;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.random.RandomGenerator;

/**
 * The engine's side of the {@link BalanceHost} contract with the load balancer: the runqueues'
 * state, the balancer's moves through {@link FairClass#migrateQueuedTask}, blocked-load updates
 * through {@link PeltUpdates}, and the stopper's queueing ({@code stop_one_cpu_nowait()}).
 */
final class EngineHost implements BalanceHost {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final PeltUpdates pelt;
  private final FairClass fair;

  EngineHost(EngineContext ctx, PeltUpdates pelt, FairClass fair) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.pelt = pelt;
    this.fair = fair;
  }

  @Override
  public long nowNs() {
    return ctx.now();
  }

  @Override
  public long jiffies() {
    return ctx.jiffies();
  }

  @Override
  public int hz() {
    return ctx.hz;
  }

  @Override
  public Topology topology() {
    return ctx.topology;
  }

  @Override
  public SchedDomains domains() {
    return ctx.domains;
  }

  @Override
  public CpuStateView state() {
    return ctx.state;
  }

  /** {@link EngineState#isActive} is online, fixed when the engine is built. */
  @Override
  public CpuMask activeMask() {
    return ctx.topology.onlineMask();
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
    rqs[cpu].moveToHead(ctx.tasks.get(taskId));
  }

  @Override
  public TaskView task(int taskId) {
    return ctx.tasks.get(taskId);
  }

  @Override
  public long execStartNs(int taskId) {
    return ctx.tasks.get(taskId).execStartNs;
  }

  @Override
  public long taskHLoad(int taskId) {
    return pelt.taskHLoad(ctx.tasks.get(taskId));
  }

  @Override
  public long taskUtilEst(int taskId) {
    Task task = ctx.tasks.get(taskId);
    return Math.max(task.avg.utilAvg, task.utilEst);
  }

  @Override
  public void migrateTask(int taskId, int dstCpu, int level) {
    fair.migrateQueuedTask(taskId, dstCpu);
  }

  /** Queues the stopper on {@code busiestCpu}; false if one is pending there already. */
  @Override
  public boolean requestActiveBalance(int busiestCpu, int targetCpu) {
    CpuRunqueue rq = rqs[busiestCpu];
    if (rq.activeBalancePending) {
      return false;
    }
    rq.activeBalancePending = true;
    long delay = busiestCpu == ctx.contextCpu ? 0 : ctx.options.ipiLatencyNs();
    ctx.loop.schedule(ctx.now() + delay, new Event.ActiveBalanceStop(busiestCpu, targetCpu));
    return true;
  }

  @Override
  public void updateBlockedAverages(int cpu) {
    pelt.updateBlockedAverages(cpu);
  }

  @Override
  public RandomGenerator random(int cpu) {
    return rqs[cpu].rng;
  }

  @Override
  public void balanceAttempt(
      int dstCpu, SchedDomain sd, IdleType idle, BalanceOutcome outcome, int moved, int srcCpu) {
    int running = ctx.contextCpu == CpuMask.NO_CPU ? dstCpu : ctx.contextCpu;
    ctx.listener.balanceAttempt(
        ctx.now(), running, dstCpu, sd.level(), idle, outcome, moved, srcCpu);
  }
}
