package dev.schedlab.core.engine;

import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.spi.LostWork;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.topology.Topology;

/**
 * The runqueue core: the fair class's operations on one {@link CpuRunqueue}, as kernel/sched/fair.c
 * and core.c do them for a task in the root cgroup: {@code enqueue_task_fair()}, {@code
 * dequeue_task_fair()}, {@code put_prev_task_fair()}, {@code set_next_task_fair()}, {@code
 * wakeup_preempt()} with {@code check_preempt_wakeup_fair()}, {@code set_task_cpu()}, and the
 * balancer's {@code detach_task()} + {@code attach_task()}. Every change keeps the wasted-core
 * integral ({@link EngineStatistics#runqueueChanged}) in step. Its calls above itself go through
 * {@link RunqueueUpcalls}.
 */
final class FairClass {

  /** {@code normalized_sysctl_sched_base_slice}: the base slice before CPU-count scaling. */
  private static final long NORMALIZED_BASE_SLICE_NS = 700_000L;

  private final EngineContext ctx;
  private final Topology topology;
  private final ImmutableCpuMask online;
  private final TickSched tick;
  private final TaskProgress progress;
  private final PeltUpdates pelt;
  private final RunqueueUpcalls upcalls;
  private final long baseSliceNs;

  /** {@code set_protect_slice()}'s quantum: the base slice, or at most 700 µs without parity. */
  private final long protectQuantumNs;

  /** {@link Task#leftCpu} of a queued task being moved: its vruntime is kept relative. */
  private static final int MIGRATING = -2;

  /** Linux 6.1's placement and preemption rules, null under EEVDF's. */
  private final CfsWakeup cfs;

  private boolean wasteWasIdle;
  private int wasteWasWaiting;

  FairClass(
      EngineContext ctx,
      TickSched tick,
      TaskProgress progress,
      PeltUpdates pelt,
      RunqueueUpcalls upcalls) {
    this.ctx = ctx;
    this.topology = ctx.topology;
    this.online = topology.onlineMask();
    this.tick = tick;
    this.progress = progress;
    this.pelt = pelt;
    this.upcalls = upcalls;
    int ncpus = Math.max(1, online.weight());
    this.baseSliceNs = NORMALIZED_BASE_SLICE_NS * (1 + ilog2(Math.min(ncpus, 8)));
    this.protectQuantumNs =
        ctx.options.runToParity() ? baseSliceNs : Math.min(NORMALIZED_BASE_SLICE_NS, baseSliceNs);
    this.cfs = ctx.options.wakeupRule() == WakeupRule.CFS_6_1 ? new CfsWakeup(ncpus) : null;
  }

  private static int ilog2(int value) {
    return 31 - Integer.numberOfLeadingZeros(value);
  }

  /**
   * The virtual slice of {@code task}: {@code sysctl_sched_base_slice}, 0.7 ms × (1 +
   * ilog2(min(CPUs, 8))), scaled by the task's weight.
   */
  long vslice(Task task) {
    return baseSliceNs * LoadWeights.NICE_0_LOAD / task.weight;
  }

  /**
   * Models {@code set_protect_slice()}: the vruntime up to which a task just picked is protected
   * from wakeup preemption. Every task has the same slice here, so with RUN_TO_PARITY that is its
   * deadline; without it, at most {@code normalized_sysctl_sched_base_slice} (700 µs) of its own
   * run time.
   */
  private long protectUntil(Task task) {
    if (protectQuantumNs == baseSliceNs) {
      return task.deadline;
    }
    long vquantum = protectQuantumNs * LoadWeights.NICE_0_LOAD / task.weight;
    return Math.min(task.deadline, task.vruntime + vquantum);
  }

  /**
   * Models {@code enqueue_task_fair()} for one task: PELT update (attaching a task that arrives
   * from elsewhere or is new), placement ({@link #place}), {@code cfs_tasks} head, counts.
   */
  void enqueue(CpuRunqueue rq, Task task, boolean initial) {
    wasteBefore(rq);
    checkAllowed(task, rq.cpu);
    long now = ctx.now();
    rq.updateCurr(now);
    if (task.attached) {
      PeltUpdates.seUpdate(task, now, false, false);
    }
    PeltUpdates.cfsUpdate(rq, now);
    if (!task.attached) {
      task.avg.alignTo(rq.cfs, task.weight);
      rq.cfs.add(task.avg, task.weight);
      rq.syncLbRow();
      task.attached = true;
    }
    place(rq, task, initial);
    int previousNr = rq.nr;
    rq.addHead(task);
    rq.loadWeight += task.weight;
    if (task.policy.isIdlePolicy()) {
      rq.nrIdlePolicy++;
      ctx.queuedIdlePolicyTasks++;
    }
    rq.utilEstSum += task.utilEst;
    rq.syncLbRow();
    task.cpu = rq.cpu;
    task.state = TaskState.QUEUED;
    task.waitStartNs = now;
    ctx.totalNrRunning++;
    upcalls.nrRunningAdded(rq.cpu, previousNr, rq.nr);
    ctx.listener.nrRunning(now, rq.cpu, rq.nr);
    if (rq.tickStopped && !rq.inIdleLoop && rq.nr >= 2 && rq.cpu != tick.timekeeperCpu()) {
      // sched_can_stop_tick() is false with two tasks: the nohz_full tick comes back.
      tick.restart(rq);
    }
    wasteAfter(rq);
  }

  /**
   * Where an enqueued task starts. EEVDF: at the queue's average vruntime (lag 0), a new task with
   * half a slice to its deadline. Linux 6.1 ({@link CfsWakeup}): a new task one virtual slice after
   * {@code min_vruntime}, any other at its old place relative to {@code min_vruntime} with the
   * sleeper credit; its deadline is a slice later, so that the EEVDF pick, which the engine keeps,
   * chooses the leftmost task as CFS's does.
   */
  private void place(CpuRunqueue rq, Task task, boolean initial) {
    long vslice = vslice(task);
    if (cfs == null) {
      task.vruntime = rq.avgVruntime();
      task.deadline = task.vruntime + (initial ? vslice / 2 : vslice);
      return;
    }
    long min = CfsWakeup.minVruntime(rq);
    if (initial) {
      task.vruntime = cfs.placeNew(min, rq.nr, rq.loadWeight, task.weight);
    } else if (task.leftCpu == MIGRATING) {
      // dequeue_entity() without DEQUEUE_SLEEP kept it relative; enqueue_entity() renormalizes.
      task.vruntime = min + task.leftVruntime;
    } else if (task.leftCpu >= 0) {
      long relative = task.leftVruntime - CfsWakeup.minVruntime(ctx.rqs[task.leftCpu]);
      task.vruntime = cfs.placeWaking(min, relative);
    } else {
      task.vruntime = min;
    }
    task.leftCpu = -1;
    task.deadline = task.vruntime + vslice;
  }

  /**
   * Under Linux 6.1's rules, remembers where {@code task} leaves {@code rq}: a sleeper its vruntime
   * (made relative to the old queue's {@code min_vruntime} when it wakes, as {@code
   * migrate_task_rq_fair()} does), a queued task the balancer moves its vruntime relative to {@code
   * min_vruntime} now ({@code dequeue_entity()} without {@code DEQUEUE_SLEEP}).
   */
  private void noteLeaving(CpuRunqueue rq, Task task, boolean sleeping) {
    if (cfs == null) {
      return;
    }
    if (sleeping) {
      task.leftVruntime = task.vruntime;
      task.leftCpu = rq.cpu;
    } else {
      task.leftVruntime = task.vruntime - CfsWakeup.minVruntime(rq);
      task.leftCpu = MIGRATING;
    }
  }

  /** Snapshot of {@code rq}'s wasted-core state before a change (changes never nest). */
  private void wasteBefore(CpuRunqueue rq) {
    wasteWasIdle = rq.curr == null && rq.nr == 0;
    wasteWasWaiting = rq.curr != null ? rq.nr - 1 : 0;
  }

  private void wasteAfter(CpuRunqueue rq) {
    ctx.stats.runqueueChanged(
        ctx.now(),
        wasteWasIdle,
        wasteWasWaiting,
        rq.curr == null && rq.nr == 0,
        rq.curr != null ? rq.nr - 1 : 0);
  }

  /** Removes a queued, not running task (migration). Its averages leave the cfs_rq at once. */
  private void dequeueQueued(CpuRunqueue rq, Task task) {
    wasteBefore(rq);
    long now = ctx.now();
    rq.updateCurr(now);
    PeltUpdates.seUpdate(task, now, true, false);
    PeltUpdates.cfsUpdate(rq, now);
    removeFromRq(rq, task);
    rq.cfs.subtract(task.avg, task.weight);
    rq.syncLbRow();
    task.attached = false;
    wasteAfter(rq);
  }

  /** The running task leaves its runqueue ({@code dequeue_task_fair()} on sleep/block/exit). */
  void dequeueCurr(CpuRunqueue rq, TaskState newState) {
    wasteBefore(rq);
    Task task = rq.curr;
    long now = ctx.now();
    rq.updateCurr(now);
    PeltUpdates.seUpdate(task, now, true, true);
    PeltUpdates.cfsUpdate(rq, now);
    // util_est_dequeue() removes the estimate the enqueue added; util_est_update() follows.
    noteLeaving(rq, task, true);
    removeFromRq(rq, task);
    if (newState != TaskState.EXITED) {
      PeltUpdates.updateUtilEst(task);
    }
    progress.leaveCpu(rq, task);
    task.state = newState;
    rq.setCurr(null);
    ctx.listener.taskDequeued(now, rq.cpu, task.id, newState == TaskState.EXITED);
    if (newState == TaskState.EXITED) {
      rq.removedLoad += task.avg.loadAvg;
      rq.removedUtil += task.avg.utilAvg;
      rq.removedRunnable += task.avg.runnableAvg;
      task.attached = false;
    }
    wasteAfter(rq);
  }

  private void removeFromRq(CpuRunqueue rq, Task task) {
    rq.remove(task);
    rq.loadWeight -= task.weight;
    if (task.policy.isIdlePolicy()) {
      rq.nrIdlePolicy--;
      ctx.queuedIdlePolicyTasks--;
    }
    rq.utilEstSum = Math.max(0, rq.utilEstSum - task.utilEst);
    rq.syncLbRow();
    rq.zeroVruntime = rq.nr == 0 ? task.vruntime : rq.zeroVruntime;
    ctx.totalNrRunning--;
    ctx.listener.nrRunning(ctx.now(), rq.cpu, rq.nr);
  }

  /** {@code put_prev_task_fair()}: the running task stays queued and waits. */
  void putPrev(CpuRunqueue rq) {
    wasteBefore(rq);
    Task task = rq.curr;
    long now = ctx.now();
    rq.updateCurr(now);
    PeltUpdates.seUpdate(task, now, true, true);
    PeltUpdates.cfsUpdate(rq, now);
    progress.leaveCpu(rq, task);
    task.state = TaskState.QUEUED;
    task.waitStartNs = now;
    rq.setCurr(null);
    rq.putBack = task;
    wasteAfter(rq);
  }

  /**
   * {@code set_next_task_fair()}: {@code next} becomes the running task (the caller has left the
   * idle task first), with its wait time, wakeup latency and slice protection.
   */
  void setNextTask(CpuRunqueue rq, Task next) {
    wasteBefore(rq);
    long now = ctx.now();
    PeltUpdates.seUpdate(next, now, true, false);
    PeltUpdates.cfsUpdate(rq, now);
    rq.setCurr(next);
    if (next != rq.putBack) {
      // set_next_entity() runs only for a task other than the one just put back: a task picked
      // again keeps the protection of its earlier pick.
      next.vprot = protectUntil(next);
    }
    rq.putBack = null;
    next.state = TaskState.RUNNING;
    rq.moveToHead(next);
    rq.pcount++;
    rq.runDelayNs += now - next.waitStartNs;
    next.lostWork[LostWork.RUNQUEUE_WAIT.ordinal()] += now - next.waitStartNs;
    if (next.wakeStampNs >= 0) {
      ctx.stats.wakeupLatency.recordValue(now - next.wakeStampNs);
      next.wakeStampNs = -1;
    }
    next.execStartNs = now;
    rq.execClock = now;
    rq.progressClock = now;
    pelt.updateMisfitStatus(rq);
    if (!next.needsStep) {
      // Otherwise the step counts it once it knows whether the new step is a spin.
      progress.syncMemoryBound(rq, next);
    }
    progress.setTimeState(rq, 1);
    wasteAfter(rq);
  }

  private void checkAllowed(Task task, int cpu) {
    if (!task.allowed.test(cpu)) {
      throw InvariantChecker.violation(
          ctx,
          "affinity respected",
          task + " placed on CPU " + cpu + " outside " + task.allowed.toCpuList());
    }
    if (!online.test(cpu)) {
      throw InvariantChecker.violation(
          ctx, "task on an online CPU", task + " placed on offline CPU " + cpu);
    }
  }

  /**
   * Models {@code wakeup_preempt()} / {@code check_preempt_wakeup_fair()}: an idle CPU always
   * reschedules; a SCHED_IDLE current is preempted by a non-idle task; only SCHED_NORMAL wakees
   * preempt; a current task whose slice is used up ({@code update_deadline()}) is preempted;
   * otherwise the wakee preempts when it is what {@code __pick_eevdf()} would choose now, with the
   * current task kept while it is eligible and below its {@code vprot} (RUN_TO_PARITY, {@link
   * #protectUntil}). Slices are all equal here, so {@code PREEMPT_SHORT} never applies. Under
   * {@link WakeupRule#CFS_6_1} the last test is 6.1's instead: {@link CfsWakeup#preempts}.
   */
  void wakeupPreempt(CpuRunqueue rq, Task task) {
    Task curr = rq.curr;
    if (curr == null) {
      upcalls.resched(rq);
      return;
    }
    if (curr == task) {
      return;
    }
    if (curr.policy.isIdlePolicy() && !task.policy.isIdlePolicy()) {
      upcalls.resched(rq);
      return;
    }
    if (!ctx.options.wakeupPreemption() || task.policy != SchedPolicy.NORMAL) {
      return;
    }
    rq.updateCurr(ctx.now());
    if (cfs != null) {
      // Linux 6.1's check_preempt_wakeup(): the vruntime lead against the wakeup granularity.
      if (cfs.preempts(curr.vruntime, task.vruntime, task.weight)) {
        upcalls.resched(rq);
      }
      return;
    }
    if (curr.vruntime >= curr.deadline) {
      curr.deadline = curr.vruntime + vslice(curr);
      upcalls.resched(rq);
      return;
    }
    long avg = rq.avgVruntime();
    if (curr.vruntime < curr.vprot && curr.vruntime <= avg) {
      return;
    }
    if (rq.pickEevdf(avg) == task) {
      upcalls.resched(rq);
    }
  }

  /** Equivalent of {@code set_task_cpu()}: migration distance for the performance model. */
  void setTaskCpu(Task task, int cpu) {
    int from = task.cpu;
    if (from != cpu) {
      task.lastMigrationDistance = migrationDistance(from, cpu);
      task.runSinceMigrationNs = 0;
      task.execStartNs = Task.EXEC_START_COLD;
      ctx.listener.migration(ctx.now(), task.id, from, cpu);
    }
    task.cpu = cpu;
  }

  private int migrationDistance(int a, int b) {
    if (topology.coreId(a) == topology.coreId(b)) {
      return 1;
    }
    if (topology.llcId(a) == topology.llcId(b)) {
      return 2;
    }
    if (topology.nodeOf(a) == topology.nodeOf(b)) {
      return 3;
    }
    return 4;
  }

  /**
   * {@code detach_task()} + {@code attach_task()} for the balancer: moves a queued, not running
   * task to {@code dstCpu} and lets it preempt there.
   */
  void migrateQueuedTask(int taskId, int dstCpu) {
    Task task = ctx.tasks.get(taskId);
    if (task.state != TaskState.QUEUED) {
      throw new IllegalStateException(
          "the balancer may move only queued, not running tasks; " + task + " is " + task.state);
    }
    CpuRunqueue src = ctx.rqs[task.cpu];
    checkAllowed(task, dstCpu);
    noteLeaving(src, task, false);
    dequeueQueued(src, task);
    setTaskCpu(task, dstCpu);
    CpuRunqueue dst = ctx.rqs[dstCpu];
    enqueue(dst, task, false);
    wakeupPreempt(dst, task);
  }
}
