package dev.schedlab.core.balance;

import static dev.schedlab.core.balance.LbEnv.LBF_ACTIVE_LB;
import static dev.schedlab.cpumask.CpuMask.NO_CPU;

import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.topology.domain.SchedDomain;

/**
 * Active balancing, for the tasks that {@code detach_tasks()} cannot move because they are running:
 * when to ask for it ({@code need_active_balance()}) and the stopper work that pushes one task
 * ({@code active_load_balance_cpu_stop()}), as in {@code kernel/sched/fair.c}; also the plugins'
 * one-task move, which is the stopper's move without its counters. Its {@code lb_env} is
 * preallocated, separate from the one of {@code sched_balance_rq()}.
 */
final class ActiveBalance {

  private final BalanceHost host;
  private final CpuStateView cpuState;
  private final LbStats stats;
  private final BalancerState balancerState;
  private final DetachTasks detachTasks;
  private final LbEnv oneTaskEnv;

  ActiveBalance(
      BalanceHost host, LbStats stats, BalancerState balancerState, DetachTasks detachTasks) {
    this.host = host;
    this.cpuState = host.state();
    this.stats = stats;
    this.balancerState = balancerState;
    this.detachTasks = detachTasks;
    this.oneTaskEnv = new LbEnv(host.topology().nrCpuIds());
  }

  /**
   * Models {@code need_active_balance(env)} in {@code kernel/sched/fair.c} (without asym packing):
   * after too many failures with a task imbalance, for a reduced-capacity source, or for a misfit
   * task.
   */
  boolean needActiveBalance(LbEnv e) {
    SchedDomain sd = e.sd;
    if (e.migrationType == MigrationType.TASK
        && balancerState.domain(sd).nrBalanceFailed > sd.cacheNiceTries() + 2) {
      return true;
    }
    if (e.idle != IdleType.NOT_IDLE
        && cpuState.cfsNrRunnable(e.srcCpu) == 1
        && CapacityChecks.checkCpuCapacity(cpuState, host.topology(), e.srcCpu, sd)
        && cpuState.capacityOf(e.srcCpu) * sd.imbalancePct()
            < cpuState.capacityOf(e.dstCpu) * 100) {
      return true;
    }
    return e.migrationType == MigrationType.MISFIT;
  }

  /**
   * Models {@code active_load_balance_cpu_stop()} in {@code kernel/sched/fair.c}, run by the engine
   * as {@code busiestCpu}'s stopper work after {@link BalanceHost#requestActiveBalance}: moves the
   * first task from the tail of {@code cfs_tasks} that may run on {@code targetCpu}, ignoring cache
   * hotness, and counts {@code alb_count}/{@code alb_pushed}/{@code alb_failed} on the target's
   * lowest domain spanning both CPUs. See {@link LoadBalancer#activeLoadBalanceCpuStop} for how the
   * engine stands in for the stopper.
   */
  void activeLoadBalanceCpuStop(int busiestCpu, int targetCpu, BalanceCost cost) {
    if (!cpuState.isActive(busiestCpu) || !cpuState.isActive(targetCpu)) {
      return;
    }
    if (cpuState.nrRunning(busiestCpu) < 1) {
      // The kernel's test is nr_running <= 1 with the stopper itself counted.
      return;
    }
    SchedDomain sd = balancerState.lowestDomainSpanning(targetCpu, busiestCpu);
    if (sd == null) {
      return;
    }
    stats.incrementAlb(targetCpu, sd.level(), AlbField.COUNT);
    LbEnv e = oneTaskEnv;
    e.reset(sd, targetCpu, null, IdleType.IDLE, LBF_ACTIVE_LB);
    e.srcCpu = busiestCpu;
    if (detachTasks.detachOneTask(e, cost) != NO_CPU) {
      stats.incrementAlb(targetCpu, sd.level(), AlbField.PUSHED);
      stats.incrementLb(targetCpu, sd.level(), IdleType.IDLE, LbField.GAINED);
      balancerState.domain(sd).nrBalanceFailed = 0;
    } else {
      stats.incrementAlb(targetCpu, sd.level(), AlbField.FAILED);
    }
  }

  /**
   * {@link dev.schedlab.spi.view.BalanceActions#migrateOneTask}: a {@code detach_one_task()} with
   * {@code LBF_ACTIVE_LB} from {@code srcCpu} to {@code dstCpu} on the lowest domain of {@code
   * dstCpu} spanning both: the first queued task from the tail that may run on {@code dstCpu}; the
   * running task never moves ({@link TaskView#isRunning()}). Counts the migration for that level
   * and the lock hold, but no {@code lb_*} or {@code alb_*} counter (the move is not part of {@code
   * sched_balance_rq()}).
   *
   * @param cost where the work is charged
   */
  boolean migrateOneTask(int srcCpu, int dstCpu, BalanceCost cost) {
    if (srcCpu == dstCpu || !cpuState.isActive(srcCpu) || !cpuState.isActive(dstCpu)) {
      return false;
    }
    SchedDomain sd = balancerState.lowestDomainSpanning(dstCpu, srcCpu);
    if (sd == null) {
      return false;
    }
    LbEnv e = oneTaskEnv;
    e.reset(sd, dstCpu, null, IdleType.IDLE, LBF_ACTIVE_LB);
    e.srcCpu = srcCpu;
    return detachTasks.detachOneTask(e, cost) != NO_CPU;
  }
}
