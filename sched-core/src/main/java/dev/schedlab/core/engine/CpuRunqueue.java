package dev.schedlab.core.engine;

import dev.schedlab.core.balance.GroupStamps;
import dev.schedlab.cpumask.DistributeCursor;
import java.util.SplittableRandom;

/**
 * One CPU's {@code struct rq} with its root {@code cfs_rq}: the current task, the fair tasks in
 * {@code cfs_tasks} order, PELT averages, idle and tick state, NOHZ flags, and the schedstat
 * counters of the CPU line. Field access is package-private: the engine's components share it.
 *
 * <p>Fair sharing is EEVDF-like and deliberately simplified: every enqueue places the entity at the
 * queue's weighted average vruntime (lag 0, i.e. no {@code PLACE_LAG} memory), the pick is {@code
 * pick_eevdf()}'s rule (earliest virtual deadline among eligible entities) by a linear scan, wakeup
 * preemption keeps RUN_TO_PARITY's slice protection, and there is no {@code DELAY_DEQUEUE} or buddy
 * logic.
 */
final class CpuRunqueue {

  final int cpu;

  /**
   * {@code rq->curr} when it is a fair task; null when the idle task (or balancing) runs. Assign
   * only through {@link #setCurr}, which keeps the idle masks in step.
   */
  Task curr;

  /** Longs per CPU in the balancing rows (see {@link #syncLbRow}). */
  static final int LB_ROW = 4;

  /**
   * Row offsets: {@code cfs_rq->avg.load_avg}, {@code runnable_avg}, the larger of {@code util_avg}
   * and {@code util_est} (uncapped), {@code nr_running}.
   */
  static final int LB_LOAD = 0;

  static final int LB_RUNNABLE = 1;
  static final int LB_UTIL = 2;
  static final int LB_NR = 3;

  private final long[] lbRows;
  private final int rowBase;

  /** {@code rq->cfs_tasks}, index 0 the tail (least recently run), {@code nr - 1} the head. */
  Task[] tasks = new Task[4];

  /** {@code rq->nr_running} (all fair); changed only by {@link #addHead} and {@link #remove}. */
  int nr;

  /** {@code cfs_rq->h_nr_idle}: SCHED_IDLE tasks among {@link #nr}. */
  int nrIdlePolicy;

  /** {@code cfs_rq->load.weight} after {@code scale_load_down()}. */
  long loadWeight;

  /** {@code cfs_rq->avg}. */
  final PeltAverage cfs = new PeltAverage();

  /** {@code cfs_rq->avg.util_est}: sum of queued tasks' estimates. */
  long utilEstSum;

  /** {@code cfs_rq->removed}: averages of tasks that left while blocked, applied lazily. */
  long removedLoad;

  long removedUtil;
  long removedRunnable;

  /** Placement base while the queue is empty (last average vruntime). */
  long zeroVruntime;

  // Execution of the current task.
  /** Time up to which the current task's exec time and vruntime were accounted. */
  long execClock;

  /** Time up to which the current task's work progress was accounted. */
  long progressClock;

  /** The current task makes no progress before this time (softirq work stealing the CPU). */
  long pausedUntil;

  /** Work units per ns of the current task. */
  double speed;

  /** When the current {@code run()} step completes at {@link #speed}. */
  long completionTime = Long.MAX_VALUE;

  /** When the performance model said the speed changes next. */
  long nextSpeedChange = Long.MAX_VALUE;

  /** When the live CPU timer event fires; {@code Long.MAX_VALUE} when none is live. */
  long timerAt = Long.MAX_VALUE;

  /**
   * The task {@code put_prev_task_fair()} just put back, until the next pick: picked again, it
   * keeps its slice protection ({@code set_next_entity()} is skipped for {@code prev == next}).
   */
  Task putBack;

  /** {@code TIF_NEED_RESCHED} for a reschedule deferred until the current activity ends. */
  boolean needResched;

  /** A reschedule IPI to this CPU is in flight. */
  boolean reschedIpiPending;

  /** The idle task is {@code rq->curr}: the CPU is in its idle loop. */
  boolean inIdleLoop;

  /** What the CPU does besides its task; assign only through {@link #setPhase}. */
  CpuPhase phase = CpuPhase.NONE;

  long phaseToken;

  /** When the phase in progress ends. */
  long phaseEndNs;

  /**
   * The kick-driven {@code _nohz_idle_balance()} pass this CPU runs as ILB, for its mid-pass abort:
   * the mean time of one CPU visit (0 when no such pass is in progress), when the pass began, its
   * kick flags, and whether it was cut short.
   */
  long ilbVisitNs;

  long ilbPassStartNs;
  int ilbPassFlags;
  boolean ilbPassAborted;

  /**
   * The idle governor's history (with {@code EngineOptions.retainShortIdleTick}): the lengths of
   * the CPU's last {@link IdleGovernor#INTERVALS} hardware idle periods, a ring.
   */
  final long[] idleIntervals = new long[IdleGovernor.INTERVALS];

  int idleIntervalCount;
  int idleIntervalNext;

  /**
   * Keeps {@link EngineState#idleMask()} and {@link EngineState#idleCoreMask()} in step with {@code
   * idle_cpu()}, which reads {@link #curr}, {@link #nr} and {@link #phase}; set once by the {@link
   * EngineState} constructor.
   */
  EngineState idleTracker;

  // Idle bookkeeping.
  /** {@code rq->idle_stamp}: when the CPU last started going idle; 0 when not idle. */
  long idleStamp;

  /** {@code rq->avg_idle}. */
  long avgIdle;

  /** The tick is stopped ({@code TS_FLAG_STOPPED}). */
  boolean tickStopped;

  // Hardware-thread activity for the performance model.
  boolean perfBusy;
  long busySince;
  long idleSince = Long.MIN_VALUE;

  // Time accounting: 0 idle, 1 running a task, 2 balancing overhead.
  int timeState;
  long timeStateSince;
  long taskNs;
  long overheadNs;
  long idleNs;
  long stolenNs;

  /**
   * The running task's speed with every SMT sibling idle, from the last timer arming: the reference
   * of its SMT lost work ({@link TaskProgress#armTimer}).
   */
  double soloSpeed;

  /** The {@link dev.schedlab.spi.LostWork} ordinal its SMT slowdown is charged to. */
  int slowCause;

  /** True while an ILB pass is being charged (its phase beginning): siblings see the ILB. */
  boolean ilbPassStarting;

  /** Whether the busy period now running (or the last one, once idle) ran an ILB pass. */
  boolean busyRanIlb;

  /** {@link #busyRanIlb} of the last finished busy period: its qualification window's cause. */
  boolean lastBusyWasIlb;

  // NOHZ state.
  /** {@code rq->nohz_tick_stopped}: registered in {@code nohz.idle_cpus_mask}. */
  boolean nohzTickStopped;

  /** {@code rq->has_blocked_load}. */
  boolean hasBlockedLoad;

  /** {@code rq->last_blocked_load_update_tick}. */
  long lastBlockedLoadUpdateTick = Long.MIN_VALUE;

  /** {@code nohz_flags(cpu)}. */
  int nohzFlags;

  /** Kick flags received while already balancing, run when that ends. */
  int deferredIdleBalanceFlags;

  /** {@code rq->active_balance}. */
  boolean activeBalancePending;

  /** {@code rq->misfit_task_load}; set through {@link #setMisfitTaskLoad}. */
  long misfitTaskLoad;

  /** The balancer's change stamps, told of every change of this CPU's balancing inputs. */
  private final GroupStamps groupStamps;

  // schedstat cpu line.
  long schedCount;
  long schedGoidle;
  long ttwuCount;
  long ttwuLocal;
  long rqCpuTimeNs;
  long runDelayNs;
  long pcount;

  /** {@code sched_rng()} of this CPU. */
  final SplittableRandom rng;

  /** {@code distribute_cpu_mask_prev} of this CPU. */
  final DistributeCursor distributeCursor = new DistributeCursor();

  CpuRunqueue(int cpu, SplittableRandom rng) {
    this(cpu, rng, new long[LB_ROW], 0, GroupStamps.untracked());
  }

  /**
   * @param lbRows the engine's balancing rows, {@link #LB_ROW} longs per CPU; this CPU's start at
   *     {@code rowBase}
   */
  CpuRunqueue(int cpu, SplittableRandom rng, long[] lbRows, int rowBase, GroupStamps groupStamps) {
    this.cpu = cpu;
    this.rng = rng;
    this.lbRows = lbRows;
    this.rowBase = rowBase;
    this.groupStamps = groupStamps;
  }

  /**
   * Writes this CPU's balancing row: what {@code update_sg_lb_stats()} reads of a runqueue, copied
   * into one array shared by every CPU ({@link #LB_LOAD}, {@link #LB_RUNNABLE}, {@link #LB_UTIL},
   * {@link #LB_NR}). A balancing pass scans CPUs in ascending order, and on a wide machine reading
   * each CPU's runqueue and {@code cfs_rq} objects was two or three cache misses per CPU (roughly
   * 70 ns per CPU scanned at 8192 CPUs against 13 at 352, estimated from profiles; see
   * benchmarks/README.md); the rows are 32 bytes a CPU, in CPU order. Called after every change of
   * {@link #nr}, {@link #utilEstSum} or {@link #cfs}'s averages; the full invariant checks compare
   * the rows with their sources.
   */
  void syncLbRow() {
    long[] rows = lbRows;
    int base = rowBase;
    long load = cfs.loadAvg;
    long runnable = cfs.runnableAvg;
    long util = Math.max(cfs.utilAvg, utilEstSum);
    if (rows[base + LB_LOAD] == load
        && rows[base + LB_RUNNABLE] == runnable
        && rows[base + LB_UTIL] == util
        && rows[base + LB_NR] == nr) {
      return;
    }
    rows[base + LB_LOAD] = load;
    rows[base + LB_RUNNABLE] = runnable;
    rows[base + LB_UTIL] = util;
    rows[base + LB_NR] = nr;
    groupStamps.cpuChanged(cpu);
  }

  /** Sets {@code rq->misfit_task_load}, stamping the change for the balancer. */
  void setMisfitTaskLoad(long value) {
    if (misfitTaskLoad != value) {
      misfitTaskLoad = value;
      groupStamps.cpuChanged(cpu);
    }
  }

  /** {@code idle_cpu()} of this CPU changed: stamps it for the balancer. */
  void idleChanged() {
    groupStamps.cpuChanged(cpu);
  }

  /** Whether this CPU's balancing row holds what {@link #syncLbRow} would write. */
  boolean lbRowInSync() {
    int base = rowBase;
    return lbRows[base + LB_LOAD] == cfs.loadAvg
        && lbRows[base + LB_RUNNABLE] == cfs.runnableAvg
        && lbRows[base + LB_UTIL] == Math.max(cfs.utilAvg, utilEstSum)
        && lbRows[base + LB_NR] == nr;
  }

  /**
   * Equivalent of {@code update_curr()}: charges the running task's exec time and vruntime up to
   * {@code now}, and its work progress at the current speed (none while it is paused).
   */
  void updateCurr(long now) {
    Task task = curr;
    if (task == null) {
      return;
    }
    long delta = now - execClock;
    if (delta > 0) {
      task.sumExecNs += delta;
      // calc_delta_fair(): a nice-0 task's virtual time is its run time, with no division.
      task.vruntime +=
          task.weight == LoadWeights.NICE_0_LOAD
              ? delta
              : delta * LoadWeights.NICE_0_LOAD / task.weight;
      task.runSinceMigrationNs += delta;
      rqCpuTimeNs += delta;
      execClock = now;
      // update_curr_se(): exec_start follows the accounting, so once the task stops running it
      // holds when it last ran, which task_hot() measures from.
      task.execStartNs = now;
    }
    long from = Math.max(progressClock, pausedUntil);
    if (now > from) {
      double done = Math.min((now - from) * speed, Math.max(0, task.remainingWork));
      if (soloSpeed > speed) {
        task.lostWork[slowCause] += (now - from) * (1 - speed / soloSpeed);
      }
      task.remainingWork -= done;
      task.workDone += done;
      progressClock = now;
    }
  }

  /** Equivalent of {@code sched_idle_rq()}. */
  boolean isSchedIdleRq() {
    return nr != 0 && nr == nrIdlePolicy;
  }

  /** Sets {@code rq->curr} and refreshes the CPU's idle bits. */
  void setCurr(Task task) {
    curr = task;
    idleTracker.refreshIdle(cpu);
  }

  /** Sets the phase and refreshes the CPU's idle bits. */
  void setPhase(CpuPhase value) {
    phase = value;
    idleTracker.refreshIdle(cpu);
  }

  /** Adds {@code task} at the head of {@code cfs_tasks} ({@code list_add()}). */
  void addHead(Task task) {
    if (nr == tasks.length) {
      Task[] grown = new Task[nr * 2];
      System.arraycopy(tasks, 0, grown, 0, nr);
      tasks = grown;
    }
    tasks[nr++] = task;
    syncLbRow();
    if (nr == 1) {
      idleTracker.refreshIdle(cpu);
    }
  }

  /** Removes {@code task} from {@code cfs_tasks}. */
  void remove(Task task) {
    int index = indexOf(task);
    System.arraycopy(tasks, index + 1, tasks, index, nr - index - 1);
    tasks[--nr] = null;
    syncLbRow();
    if (nr == 0) {
      idleTracker.refreshIdle(cpu);
    }
  }

  /** Moves {@code task} to the head ({@code list_move()}). */
  void moveToHead(Task task) {
    int index = indexOf(task);
    System.arraycopy(tasks, index + 1, tasks, index, nr - index - 1);
    tasks[nr - 1] = task;
  }

  int indexOf(Task task) {
    for (int i = nr - 1; i >= 0; i--) {
      if (tasks[i] == task) {
        return i;
      }
    }
    throw new IllegalStateException(task + " is not on CPU " + cpu + "'s runqueue");
  }

  /**
   * Equivalent of {@code avg_vruntime()}: the load-weighted mean vruntime of the queued entities
   * (the running one included), or the last mean when the queue is empty.
   */
  long avgVruntime() {
    if (nr == 0) {
      return zeroVruntime;
    }
    long base = tasks[0].vruntime;
    long weightedKeys = 0;
    for (int i = 0; i < nr; i++) {
      weightedKeys += (tasks[i].vruntime - base) * tasks[i].weight;
    }
    return base + Math.floorDiv(weightedKeys, loadWeight);
  }

  /**
   * Equivalent of {@code pick_eevdf()} without buddies: among the eligible entities ({@code
   * vruntime <= avg_vruntime}), the earliest virtual deadline; ties go to the entity nearer the
   * head of {@code cfs_tasks}. Null when empty. RUN_TO_PARITY's protection of the running task is
   * applied where it decides, in wakeup preemption ({@code FairClass.wakeupPreempt}).
   */
  Task pickEevdf() {
    if (nr == 0) {
      return null;
    }
    if (nr == 1) {
      return tasks[0];
    }
    return pickEevdf(avgVruntime());
  }

  /** {@link #pickEevdf()} on a non-empty queue whose {@code avg_vruntime()} is {@code avg}. */
  Task pickEevdf(long avg) {
    Task best = null;
    Task leftmost = null;
    for (int i = nr - 1; i >= 0; i--) {
      Task t = tasks[i];
      if (leftmost == null || t.vruntime < leftmost.vruntime) {
        leftmost = t;
      }
      if (t.vruntime <= avg && (best == null || t.deadline < best.deadline)) {
        best = t;
      }
    }
    return best != null ? best : leftmost;
  }

  @Override
  public String toString() {
    return "rq "
        + cpu
        + " (curr "
        + (curr == null ? "idle" : curr.id)
        + ", nr "
        + nr
        + ", "
        + phase
        + ")";
  }
}
