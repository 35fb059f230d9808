package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceCost;
import dev.schedlab.core.balance.LoadBalancer;
import dev.schedlab.cpumask.CpuMask;

/**
 * Context switches, as {@code __schedule()} does them: putting the running task back, {@code
 * pick_next_task_fair()} with the task programs' steps run as tasks start, {@code
 * sched_balance_newidle()} when the fair class has nothing (its cost occupying the CPU before it
 * runs a pulled task or enters idle), {@code resched_curr()} with its IPI, the CPU timer of the
 * running task's step, and the stopper's {@code active_load_balance_cpu_stop()}.
 *
 * <p>Balancing defers a reschedule until the phase it occupies the CPU with ends; a local
 * reschedule requested while an event runs happens when the event's handler is done ({@link
 * #afterEvent}). Context switches themselves cost no CPU time.
 */
final class CoreSchedule {

  private static final int MAX_STEPS_PER_INSTANT = 100_000;

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final FairClass fair;
  private final TaskProgress progress;
  private final BalancingTime balancingTime;
  private final IdleLoop idle;
  private final NohzBalancing nohz;
  private final CpuidleExit cpuidle;
  private final LoadBalancer balancer;
  private final TaskProgramControl control;
  private final BalanceCost cost = new BalanceCost();
  private final int[][] siblings;

  /** Keeps {@link #touchTimers}' reads live. */
  private long touchSink;

  CoreSchedule(
      EngineContext ctx,
      FairClass fair,
      TaskProgress progress,
      BalancingTime balancingTime,
      IdleLoop idle,
      NohzBalancing nohz,
      CpuidleExit cpuidle,
      LoadBalancer balancer,
      TryToWakeUp wakeups,
      WakeUpNewTask forks) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.fair = fair;
    this.progress = progress;
    this.balancingTime = balancingTime;
    this.idle = idle;
    this.nohz = nohz;
    this.cpuidle = cpuidle;
    this.balancer = balancer;
    this.control = new TaskProgramControl(ctx, wakeups, forks, this::afterEvent);
    this.siblings = ctx.state.siblingsOf();
  }

  /**
   * Reads, for every CPU timer among {@code events[0..n)} (an instant's events, {@link
   * Event.Handler#touchAhead}), the runqueue, the running task and its program, and the SMT
   * siblings' busy flags that {@link #onCpuTimer} reads first. These loads do not depend on one
   * another, so the processor overlaps their cache misses, and the timers that follow find them in
   * cache: on a wide machine a GEMM team's threads finish their steps at the same instant, each
   * timer otherwise missing in turn. Changes nothing the simulation computes.
   */
  void touchTimers(Event[] events, int n) {
    long sink = 0;
    for (int i = 0; i < n; i++) {
      if (events[i] instanceof Event.CpuTimer timer) {
        int cpu = timer.cpu();
        CpuRunqueue rq = rqs[cpu];
        sink += rq.execClock + rq.completionTime;
        Task curr = rq.curr;
        if (curr != null) {
          sink += curr.vruntime + curr.sumExecNs + (long) curr.remainingWork + curr.weight;
          sink += (long) curr.lostWork[0];
          // The program's header: the step's first call goes through its class.
          sink += (Object) curr.program.getClass() == Object.class ? 1 : 0;
        }
        for (int sibling : siblings[cpu]) {
          sink += rqs[sibling].perfBusy ? 1 : 0;
        }
      }
    }
    touchSink += sink;
  }

  /**
   * Models {@code __schedule()}: puts the running task back (preemption) and picks the next one;
   * deferred while the CPU is busy balancing.
   */
  void schedule(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    if (rq.phase != CpuPhase.NONE) {
      rq.needResched = true;
      return;
    }
    rq.needResched = false;
    if (rq.curr == null && rq.nr == 0 && rq.inIdleLoop) {
      return;
    }
    rq.schedCount++;
    if (rq.curr != null) {
      fair.putPrev(rq);
    }
    pickAndRun(rq);
  }

  /** Picks and runs tasks until one is running, or starts newidle balancing. */
  private void pickAndRun(CpuRunqueue rq) {
    for (int guard = 0; ; guard++) {
      if (guard > MAX_STEPS_PER_INSTANT) {
        throw new IllegalStateException(
            "task programs on CPU "
                + rq.cpu
                + " keep ending steps without using time at "
                + ctx.now()
                + " ns");
      }
      Task next = rq.pickEevdf();
      if (next == null) {
        rq.putBack = null;
        if (!rq.inIdleLoop) {
          startNewidle(rq);
        }
        return;
      }
      switchIn(rq, next);
      if (next.needsStep) {
        runStep(rq, next);
        if (rq.curr == null) {
          rq.schedCount++;
          continue;
        }
      }
      if (rq.needResched) {
        rq.needResched = false;
        rq.schedCount++;
        fair.putPrev(rq);
        continue;
      }
      progress.armTimer(rq);
      return;
    }
  }

  /** {@code set_next_task_fair()} plus the idle exit when the idle task was running. */
  private void switchIn(CpuRunqueue rq, Task next) {
    if (rq.inIdleLoop) {
      idle.exit(rq);
    }
    fair.setNextTask(rq, next);
  }

  /**
   * The fair class found nothing: {@code sched_balance_newidle()}, with its cost occupying the CPU
   * before it either runs a pulled task or enters idle.
   */
  private void startNewidle(CpuRunqueue rq) {
    long now = ctx.now();
    rq.idleStamp = now;
    rq.setPhase(CpuPhase.NEWIDLE);
    cost.reset();
    int previousContext = ctx.contextCpu;
    ctx.contextCpu = rq.cpu;
    int pulled = balancer.newidleBalance(rq.cpu, cost);
    ctx.contextCpu = previousContext;
    long costNs = cost.domainsBalanced == 0 && cost.cpusScanned == 0 ? 0 : ctx.costModel.toNs(cost);
    if (pulled > 0) {
      rq.idleStamp = 0;
    } else if (rq.nr == 0) {
      nohz.newidleBalanceKickCheck(rq);
    }
    if (costNs > 0) {
      ctx.stats.newidleDuration.recordNs(costNs);
      balancingTime.beginPhase(rq, CpuPhase.NEWIDLE, costNs);
    } else {
      finishNewidle(rq);
    }
  }

  private void finishNewidle(CpuRunqueue rq) {
    rq.setPhase(CpuPhase.NONE);
    rq.needResched = false;
    if (rq.nr > 0) {
      pickAndRun(rq);
    } else {
      idle.enter(rq);
    }
  }

  /** Runs in {@code cpu}'s context when its balancing phase ends, as scheduled. */
  void onPhaseEnd(int cpu, long token) {
    CpuRunqueue rq = rqs[cpu];
    if (token != rq.phaseToken || rq.phase == CpuPhase.NONE) {
      return;
    }
    ctx.contextCpu = cpu;
    if (rq.phase == CpuPhase.NEWIDLE) {
      finishNewidle(rq);
    } else {
      if (rq.ilbVisitNs > 0) {
        nohz.ilbPassEnded(rq);
      }
      rq.setPhase(CpuPhase.NONE);
      rq.needResched = false;
      int deferred = rq.deferredIdleBalanceFlags;
      rq.deferredIdleBalanceFlags = 0;
      if (deferred != 0 && ctx.state.isIdle(cpu)) {
        nohz.runKickedIdleBalance(rq, deferred);
      } else if (rq.nr > 0) {
        rq.schedCount++;
        pickAndRun(rq);
      } else {
        progress.setPerfBusy(rq, false);
        progress.setTimeState(rq, 0);
        idle.tickStop(rq);
      }
    }
    afterEvent(cpu);
  }

  /** The running task's step completes or its speed changes: the CPU timer fires. */
  void onCpuTimer(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    if (rq.curr == null) {
      return;
    }
    rq.timerAt = Long.MAX_VALUE;
    ctx.contextCpu = cpu;
    rq.updateCurr(ctx.now());
    if (ctx.now() >= rq.completionTime) {
      Task task = rq.curr;
      task.workDone += Math.max(0, task.remainingWork);
      task.remainingWork = 0;
      task.needsStep = true;
      runStep(rq, task);
      if (rq.curr == null) {
        rq.schedCount++;
        pickAndRun(rq);
      } else if (rq.needResched) {
        schedule(cpu);
      } else {
        progress.armTimer(rq);
      }
    } else {
      progress.rearmBeforeCompletion(rq);
    }
    afterEvent(cpu);
  }

  /** Asks the running task's program for its next step and applies it. */
  private void runStep(CpuRunqueue rq, Task task) {
    for (int guard = 0; ; guard++) {
      if (guard > MAX_STEPS_PER_INSTANT) {
        throw new IllegalStateException(
            "program of " + task + " keeps blocking with pending wakeups at " + ctx.now() + " ns");
      }
      task.spinning = false;
      TaskProgramControl.Step step = control.ask(task);
      switch (step) {
        case RUN -> {
          task.remainingWork = control.work();
          task.spinning = control.spin();
          task.needsStep = false;
          progress.syncMemoryBound(rq, task);
          return;
        }
        case SLEEP -> {
          fair.dequeueCurr(rq, TaskState.SLEEPING);
          task.needsStep = true;
          task.sleepToken++;
          ctx.loop.schedule(
              ctx.now() + control.sleepNs(), new Event.SleepEnd(task.id, task.sleepToken));
          return;
        }
        case BLOCK -> {
          if (task.pendingWake) {
            task.pendingWake = false;
            continue;
          }
          fair.dequeueCurr(rq, TaskState.BLOCKED);
          task.needsStep = true;
          return;
        }
        case EXIT -> {
          fair.dequeueCurr(rq, TaskState.EXITED);
          return;
        }
        default -> throw new IllegalStateException("unknown step " + step);
      }
    }
  }

  /** Equivalent of {@code resched_curr()}: at once for the local CPU, by IPI for another. */
  void resched(CpuRunqueue rq) {
    if (rq.ilbVisitNs > 0) {
      // The CPU runs an ILB pass, which stops at its next need_resched() check.
      nohz.abortIlbPass(rq);
    }
    if (rq.cpu == ctx.contextCpu) {
      rq.needResched = true;
      return;
    }
    if (rq.phase != CpuPhase.NONE) {
      rq.needResched = true;
      return;
    }
    if (!rq.reschedIpiPending) {
      rq.reschedIpiPending = true;
      ctx.loop.schedule(ctx.now() + cpuidle.ipiDelayNs(rq.cpu), new Event.ReschedIpi(rq.cpu));
    }
  }

  /** A reschedule IPI reaches {@code cpu}. */
  void onReschedIpi(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    rq.reschedIpiPending = false;
    ctx.contextCpu = cpu;
    schedule(cpu);
    afterEvent(cpu);
  }

  /** Runs a local reschedule the event requested, once its handler is done. */
  void afterEvent(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    if (rq.needResched && rq.phase == CpuPhase.NONE) {
      schedule(cpu);
    }
    ctx.contextCpu = CpuMask.NO_CPU;
  }

  /**
   * Runs {@code active_load_balance_cpu_stop} on {@code busiestCpu}. The stopper is the highest
   * priority task, so the fair task that was running is put back on its queue first; that is what
   * lets active balancing move a lone CPU hog or a misfit task, which no periodic pass can.
   */
  void onActiveBalance(int busiestCpu, int targetCpu) {
    CpuRunqueue rq = rqs[busiestCpu];
    rq.activeBalancePending = false;
    ctx.contextCpu = busiestCpu;
    if (rq.curr != null && rq.phase == CpuPhase.NONE) {
      fair.putPrev(rq);
      rq.needResched = true;
    }
    cost.reset();
    balancer.activeLoadBalanceCpuStop(busiestCpu, targetCpu, cost);
    balancingTime.chargeBalancing(rq, ctx.costModel.toNs(cost));
    afterEvent(busiestCpu);
  }
}
