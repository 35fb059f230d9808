package dev.schedlab.core.engine;

import dev.schedlab.topology.Topology;

/**
 * Load tracking, as kernel/sched/fair.c updates it: the entity's PELT sums ({@code
 * update_load_avg()} on a task), the root cfs_rq's with removed load applied first ({@code
 * update_cfs_rq_load_avg()}), blocked-load updates ({@code
 * sched_balance_update_blocked_averages()}), {@code util_est} at dequeue, a new task's initial
 * averages, the removal of a sleeping task's averages when it wakes elsewhere, {@code
 * task_h_load()} and {@code update_misfit_status()}. The arithmetic is {@link PeltAverage}'s.
 */
final class PeltUpdates {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final Topology topology;
  private final boolean asymCapacity;

  PeltUpdates(EngineContext ctx) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.topology = ctx.topology;
    this.asymCapacity = ctx.domains.hasAsymCpuCapacity();
  }

  /** Updates the task's own PELT sums (an entity with the given state since its last update). */
  static void seUpdate(Task task, long now, boolean onRq, boolean running) {
    if (task.avg.updateSum(now, onRq ? 1 : 0, onRq ? 1 : 0, running)) {
      task.avg.updateAvg(task.weight);
    }
  }

  /** Equivalent of {@code update_cfs_rq_load_avg()}: applies removed load, then accumulates. */
  static void cfsUpdate(CpuRunqueue rq, long now) {
    PeltAverage sa = rq.cfs;
    boolean decayed = false;
    if (rq.removedLoad != 0 || rq.removedUtil != 0 || rq.removedRunnable != 0) {
      long divider = sa.divider();
      sa.loadAvg = Math.max(0, sa.loadAvg - rq.removedLoad);
      sa.loadSum =
          Math.max(
              Math.max(0, sa.loadSum - rq.removedLoad * divider),
              sa.loadAvg * Pelt.PELT_MIN_DIVIDER);
      sa.utilAvg = Math.max(0, sa.utilAvg - rq.removedUtil);
      sa.utilSum =
          Math.max(
              Math.max(0, sa.utilSum - rq.removedUtil * divider),
              sa.utilAvg * Pelt.PELT_MIN_DIVIDER);
      sa.runnableAvg = Math.max(0, sa.runnableAvg - rq.removedRunnable);
      sa.runnableSum =
          Math.max(
              Math.max(0, sa.runnableSum - rq.removedRunnable * divider),
              sa.runnableAvg * Pelt.PELT_MIN_DIVIDER);
      rq.removedLoad = 0;
      rq.removedUtil = 0;
      rq.removedRunnable = 0;
      decayed = true;
    }
    if (sa.updateSum(now, rq.loadWeight, rq.nr, rq.curr != null) || decayed) {
      sa.updateAvg(1);
      rq.syncLbRow();
    }
  }

  /**
   * Equivalent of {@code sched_balance_update_blocked_averages(cpu)} for one root cfs_rq. The
   * kernel runs it under {@code rq_lock_irqsave()} of that CPU's runqueue: the hold is recorded as
   * the update's cost ({@code -E blocked_load_update_cost}).
   */
  void updateBlockedAverages(int cpu) {
    ctx.stats.rqLockHold.recordNs(ctx.options.blockedLoadUpdateNs());
    CpuRunqueue rq = rqs[cpu];
    long now = ctx.now();
    if (rq.curr != null) {
      rq.updateCurr(now);
      seUpdate(rq.curr, now, true, true);
    }
    cfsUpdate(rq, now);
    rq.lastBlockedLoadUpdateTick = ctx.jiffies();
    if (rq.cfs.loadAvg == 0 && rq.cfs.utilAvg == 0) {
      rq.hasBlockedLoad = false;
    }
  }

  /** Equivalent of {@code util_est_update()} when a task sleeps. */
  static void updateUtilEst(Task task) {
    long util = task.avg.utilAvg;
    if (util >= task.utilEst) {
      task.utilEst = util;
    } else {
      task.utilEst -= (task.utilEst - util) >> 2;
    }
  }

  /** Models {@code init_entity_runnable_average()} + {@code post_init_entity_util_avg()}. */
  void postInitUtilAvg(Task task, CpuRunqueue rq) {
    task.avg.loadAvg = task.weight;
    long capacity = topology.capacity(rq.cpu);
    long cap = (capacity - rq.cfs.utilAvg) / 2;
    if (cap > 0) {
      if (rq.cfs.utilAvg != 0) {
        task.avg.utilAvg = Math.min(cap, rq.cfs.utilAvg * task.weight / (rq.cfs.loadAvg + 1));
      } else {
        task.avg.utilAvg = cap;
      }
    }
    task.avg.runnableAvg = task.avg.utilAvg;
    task.attached = false;
  }

  /**
   * Equivalent of {@code remove_entity_load_avg()} for a sleeping task that wakes elsewhere: its
   * averages, synced to the old cfs_rq's last update, are removed there at its next update.
   */
  static void migrateBlockedAverages(Task task, CpuRunqueue from) {
    if (!task.attached) {
      return;
    }
    seUpdate(task, from.cfs.lastUpdateTime, false, false);
    from.removedLoad += task.avg.loadAvg;
    from.removedUtil += task.avg.utilAvg;
    from.removedRunnable += task.avg.runnableAvg;
    task.attached = false;
  }

  /**
   * {@code task_h_load(p)} in the root cgroup: the task's {@code load_avg} scaled by {@code h_load
   * / (cfs_rq load_avg + 1)}, where the root's {@code h_load} is its {@code load_avg}.
   */
  long taskHLoad(Task task) {
    long cfsLoad = rqs[task.cpu].cfs.loadAvg;
    return task.avg.loadAvg * cfsLoad / (cfsLoad + 1);
  }

  /** Equivalent of {@code update_misfit_status()} (asymmetric capacity only). */
  void updateMisfitStatus(CpuRunqueue rq) {
    if (!asymCapacity) {
      return;
    }
    Task task = rq.curr;
    if (task == null || task.nrAllowed == 1) {
      rq.setMisfitTaskLoad(0);
      return;
    }
    long util = Math.max(task.avg.utilAvg, task.utilEst);
    if (util * 1280 < (long) topology.capacity(rq.cpu) * 1024
        || topology.capacity(rq.cpu) >= topology.maxCapacity()) {
      rq.setMisfitTaskLoad(0);
    } else {
      rq.setMisfitTaskLoad(Math.max(1, taskHLoad(task)));
    }
  }
}
