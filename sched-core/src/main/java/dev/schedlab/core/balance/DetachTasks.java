package dev.schedlab.core.balance;

import static dev.schedlab.core.balance.LbEnv.LBF_ACTIVE_LB;
import static dev.schedlab.core.balance.LbEnv.LBF_ALL_PINNED;
import static dev.schedlab.core.balance.LbEnv.LBF_DST_PINNED;
import static dev.schedlab.core.balance.LbEnv.LBF_NEED_BREAK;
import static dev.schedlab.core.balance.LbEnv.LBF_SOME_PINNED;
import static dev.schedlab.cpumask.CpuMask.NO_CPU;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.topology.domain.SdFlags;

/**
 * Moving tasks off the source runqueue: {@code detach_tasks()} and {@code detach_one_task()} with
 * their {@code attach_*()} halves, and the per-task rules they apply, {@code can_migrate_task()}
 * and {@code task_hot()}, as in {@code kernel/sched/fair.c}. Counts {@code lb_gained}, {@code
 * lb_hot_gained}, the passed-over tasks by {@link MigrationSkip}, the migrations per level and the
 * runqueue-lock hold; reads {@code nr_balance_failed} from {@link BalancerState}.
 */
final class DetachTasks {

  private final BalanceHost host;
  private final CpuStateView cpuState;
  private final BalancerOptions options;
  private final BalanceCostModel costModel;
  private final LbStats stats;
  private final BalancerState balancerState;

  DetachTasks(
      BalanceHost host,
      BalancerOptions options,
      BalanceCostModel costModel,
      LbStats stats,
      BalancerState balancerState) {
    this.host = host;
    this.cpuState = host.state();
    this.options = options;
    this.costModel = costModel;
    this.stats = stats;
    this.balancerState = balancerState;
  }

  /**
   * Models {@code detach_tasks(env)} with {@code attach_tasks()} in {@code kernel/sched/fair.c}:
   * scans the source's {@code cfs_tasks} from the tail, rotating refused tasks to the head, and
   * moves tasks until the imbalance is gone, {@code loop_max} tasks were seen, or {@code
   * loop_break} asks for a lock break. Records the lock hold and {@code lb_gained}.
   *
   * @return the number of tasks moved
   */
  int detachTasks(LbEnv e, BalanceCost cost) {
    int src = e.srcCpu;
    int level = e.sd.level();
    int owner = e.sd.cpu();
    long examined = 0;
    int detached = 0;
    if (cpuState.nrRunning(src) <= 1) {
      // Emptied meanwhile: no task was tested, so none was found pinned.
      e.flags &= ~LBF_ALL_PINNED;
    } else if (e.imbalance > 0) {
      while (host.cfsTaskCount(src) > 0) {
        // Never take the last task: being treated likewise could livelock.
        if (e.idle != IdleType.NOT_IDLE && cpuState.nrRunning(src) <= 1) {
          break;
        }
        e.loop++;
        if (e.loop > e.loopMax) {
          break;
        }
        if (e.loop > e.loopBreak) {
          e.loopBreak += LbEnv.SCHED_NR_MIGRATE_BREAK;
          e.flags |= LBF_NEED_BREAK;
          break;
        }
        int task = host.cfsTaskFromTail(src, 0);
        examined++;
        if (!canMigrateTask(task, e) || !takesImbalance(task, e)) {
          host.rotateToHead(src, task);
          continue;
        }
        host.migrateTask(task, e.dstCpu, level);
        detached++;
        if (e.taskHot) {
          stats.incrementLb(owner, level, e.idle, LbField.HOT_GAINED);
        }
        if (e.idle == IdleType.NEWLY_IDLE && options.preemptNewidleAfterOneTask()) {
          // Keeps the newidle critical section short on preemptible kernels.
          break;
        }
        if (e.imbalance <= 0) {
          break;
        }
      }
    }
    stats.addLb(owner, level, e.idle, LbField.GAINED, detached);
    stats.addMigrations(level, detached);
    stats.recordLockHoldNs(costModel.lockHoldNs(examined, detached));
    cost.tasksExamined += examined;
    cost.tasksMoved += detached;
    return detached;
  }

  /**
   * Models {@code detach_one_task(env)} + {@code attach_one_task()} in {@code kernel/sched/fair.c}:
   * the first movable task scanning from the tail, without rotating. Counts the migration for the
   * level and the lock hold.
   *
   * @return the moved task's id, or {@link CpuMask#NO_CPU} (-1) if none
   */
  int detachOneTask(LbEnv e, BalanceCost cost) {
    int src = e.srcCpu;
    int count = host.cfsTaskCount(src);
    long examined = 0;
    int moved = NO_CPU;
    for (int k = 0; k < count; k++) {
      int task = host.cfsTaskFromTail(src, k);
      examined++;
      if (canMigrateTask(task, e)) {
        host.migrateTask(task, e.dstCpu, e.sd.level());
        moved = task;
        break;
      }
    }
    int movedCount = moved == NO_CPU ? 0 : 1;
    stats.addMigrations(e.sd.level(), movedCount);
    stats.recordLockHoldNs(costModel.lockHoldNs(examined, movedCount));
    cost.tasksExamined += examined;
    cost.tasksMoved += movedCount;
    return moved;
  }

  /**
   * The migration-type switch of {@code detach_tasks()}: whether moving {@code task} fits the
   * imbalance, and if so subtracts it.
   */
  private boolean takesImbalance(int task, LbEnv e) {
    int shift = balancerState.domain(e.sd).nrBalanceFailed;
    switch (e.migrationType) {
      case LOAD:
        {
          long load = Math.max(host.taskHLoad(task), 1);
          // Moving more than the imbalance is allowed more the more often balancing failed.
          if (shrBound(load, shift) > e.imbalance) {
            stats.incrementSkip(e.sd.level(), MigrationSkip.OVER_IMBALANCE);
            return false;
          }
          e.imbalance -= load;
          return true;
        }
      case UTIL:
        {
          long util = host.taskUtilEst(task);
          if (shrBound(util, shift) > e.imbalance) {
            stats.incrementSkip(e.sd.level(), MigrationSkip.OVER_IMBALANCE);
            return false;
          }
          e.imbalance -= util;
          return true;
        }
      case TASK:
        e.imbalance--;
        return true;
      case MISFIT:
        if (taskFitsCpu(task, e.srcCpu)) {
          stats.incrementSkip(e.sd.level(), MigrationSkip.FITS);
          return false;
        }
        e.imbalance = 0;
        return true;
      default:
        throw new AssertionError(e.migrationType);
    }
  }

  /**
   * Models {@code can_migrate_task(p, env)} in {@code kernel/sched/fair.c}: affinity (with the
   * {@code LBF_SOME_PINNED} / {@code LBF_DST_PINNED} bookkeeping), the running task, and cache
   * hotness unless balancing failed more than {@code cache_nice_tries} times or this is an active
   * balance. Sets {@code env.taskHot} when a hot task is let go.
   */
  private boolean canMigrateTask(int taskId, LbEnv e) {
    e.taskHot = false;
    TaskView p = host.task(taskId);
    CpuMask allowed = p.allowedCpus();
    if (!allowed.test(e.dstCpu)) {
      stats.incrementSkip(e.sd.level(), MigrationSkip.AFFINE);
      e.flags |= LBF_SOME_PINNED;
      if (e.idle == IdleType.NEWLY_IDLE || (e.flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)) != 0) {
        return false;
      }
      int newDst = firstAndAnd(e.dstGrpmask, e.cpus, allowed);
      if (newDst != NO_CPU) {
        e.flags |= LBF_DST_PINNED;
        e.newDstCpu = newDst;
      }
      return false;
    }
    e.flags &= ~LBF_ALL_PINNED;
    if (p.isRunning()) {
      stats.incrementSkip(e.sd.level(), MigrationSkip.RUNNING);
      return false;
    }
    if ((e.flags & LBF_ACTIVE_LB) != 0) {
      return true;
    }
    boolean hot = taskHot(p, e);
    if (!hot || balancerState.domain(e.sd).nrBalanceFailed > e.sd.cacheNiceTries()) {
      e.taskHot = hot;
      return true;
    }
    stats.incrementSkip(e.sd.level(), MigrationSkip.HOT);
    return false;
  }

  /**
   * Models {@code task_hot(p, env)} in {@code kernel/sched/fair.c}: a fair task that started
   * running less than {@code sysctl_sched_migration_cost} ago on its source is cache-hot, except
   * SCHED_IDLE tasks and in SMT domains (siblings share the cache). The source's {@code
   * rq_clock_task()} is the simulation clock.
   */
  private boolean taskHot(TaskView p, LbEnv e) {
    if (p.policy().isIdlePolicy()) {
      return false;
    }
    if (e.sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY)) {
      return false;
    }
    long migrationCost = options.migrationCostNs();
    if (migrationCost == -1) {
      return true;
    }
    if (migrationCost == 0) {
      return false;
    }
    return host.nowNs() - host.execStartNs(p.id()) < migrationCost;
  }

  /** Models {@code task_fits_cpu(p, cpu)} without uclamp: {@code fits_capacity(util_est, cap)}. */
  private boolean taskFitsCpu(int task, int cpu) {
    return CapacityChecks.fitsCapacity(host.taskUtilEst(task), cpuState.capacityOf(cpu));
  }

  /** Equivalent of {@code shr_bound(val, shift)}: a shift that never reaches the type width. */
  private static long shrBound(long value, int shift) {
    return value >> Math.min(shift, Long.SIZE - 1);
  }

  /** Equivalent of {@code cpumask_first_and_and(a, b, c)}. */
  private static int firstAndAnd(CpuMask a, CpuMask b, CpuMask c) {
    for (int cpu = a.firstAnd(b); cpu != NO_CPU; cpu = a.nextAnd(cpu, b)) {
      if (c.test(cpu)) {
        return cpu;
      }
    }
    return NO_CPU;
  }
}
