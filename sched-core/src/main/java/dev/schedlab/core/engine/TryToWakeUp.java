package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.List;

/**
 * Wakeups: {@code try_to_wake_up()} for a blocked task woken by a task program or a sleeping task's
 * timer, and the busy-waiting tasks a wake reaches without one. Wakeups and remote enqueues take
 * effect at once on the target runqueue; the target acts on them after {@link
 * EngineOptions#ipiLatencyNs()} when it is another CPU than the one doing the wakeup (the {@code
 * TTWU_QUEUE} IPI or {@code resched_curr()} IPI), at once otherwise, so {@code ttwu_pending} is
 * never set.
 *
 * <p>With {@link EngineOptions#wakeupRaceWindowNs()} a wakeup does not see a task that another
 * CPU's wakeup queued on an idle CPU less than the window earlier: the two scans overlapped, so
 * concurrent wakeups can take the same idle CPU. Wakeups from one CPU always see each other.
 */
final class TryToWakeUp {

  /**
   * Work units (ns of a thread alone on a full CPU) a spinning task runs between the wake that ends
   * its spin and the end of its step: the poll loop's next load missing, and the cache line coming
   * over from the waker's core. 100 ns, an assumption (one cross-core cache-line transfer on a
   * large server).
   */
  static final double SPIN_WAKE_DETECTION_WORK = 100;

  /**
   * The last {@value #CLAIMS} wakeups that took an idle CPU, for the race window: CPU (-1: free
   * slot), waking CPU, time. Claims older than the window are ignored, so the ring only has to hold
   * the claims of one window, which a burst of wakeups from many CPUs could overflow (the oldest
   * are then forgotten: fewer races, never spurious ones).
   */
  private static final int CLAIMS = 256;

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final EngineState state;
  private final SchedDomains domains;
  private final EngineStatistics stats;
  private final SelectTaskRq selectTaskRq;
  private final FairClass fair;
  private final TaskProgress progress;
  private final int[] claimCpu = new int[CLAIMS];
  private final int[] claimWaker = new int[CLAIMS];
  private final long[] claimNs = new long[CLAIMS];
  private int claimNext;
  private final long wakeupRaceWindowNs;

  TryToWakeUp(EngineContext ctx, SelectTaskRq selectTaskRq, FairClass fair, TaskProgress progress) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.state = ctx.state;
    this.domains = ctx.domains;
    this.stats = ctx.stats;
    this.selectTaskRq = selectTaskRq;
    this.fair = fair;
    this.progress = progress;
    this.wakeupRaceWindowNs = ctx.options.wakeupRaceWindowNs();
    java.util.Arrays.fill(claimCpu, -1);
  }

  /**
   * {@code TaskControl.wake()} from {@code waker} running on its CPU; {@code sync} is {@code
   * WF_SYNC} (a pipe or socket wakeup).
   */
  void wakeFromTask(Task waker, int taskId, boolean sync) {
    if (taskId < 0 || taskId >= ctx.tasks.size()) {
      throw new IllegalArgumentException("task " + waker.id + " woke unknown task " + taskId);
    }
    wake(ctx.tasks.get(taskId), waker.cpu, waker, sync);
  }

  private void wake(Task task, int wakingCpu, Task waker, boolean sync) {
    switch (task.state) {
      case BLOCKED ->
          tryToWakeUp(
              task, wakingCpu, waker, SelectTaskRq.WF_TTWU | (sync ? SelectTaskRq.WF_SYNC : 0));
      case EXITED -> {
        // A wake of a dead task is lost, as in the kernel.
      }
      default -> {
        if (task.spinning) {
          endSpin(task);
        } else {
          task.pendingWake = true;
        }
      }
    }
  }

  /**
   * A wake reaches a task busy-waiting in {@code TaskControl.spin()}: no IPI and no ttwu, the
   * spinner sees the store itself. Its step ends after {@link #SPIN_WAKE_DETECTION_WORK} more units
   * of its own CPU time, so a spinner that is preempted notices only when it runs again.
   */
  private void endSpin(Task task) {
    task.spinning = false;
    CpuRunqueue rq = rqs[task.cpu];
    boolean running = rq.curr == task;
    if (running) {
      rq.updateCurr(ctx.now());
    }
    task.remainingWork = Math.min(task.remainingWork, SPIN_WAKE_DETECTION_WORK);
    if (running) {
      progress.syncMemoryBound(rq, task);
      progress.armTimer(rq);
    }
  }

  /**
   * A sleeping task's timer expires ({@code hrtimer_wakeup()}) on the CPU it slept on: wakes it
   * from that CPU's context and returns the CPU, or -1 for a timer the task no longer waits for.
   */
  int sleepEnded(int taskId, long token) {
    Task task = ctx.tasks.get(taskId);
    if (task.state != TaskState.SLEEPING || token != task.sleepToken) {
      return CpuMask.NO_CPU;
    }
    int cpu = task.cpu;
    ctx.contextCpu = cpu;
    tryToWakeUp(task, cpu, rqs[cpu].curr, SelectTaskRq.WF_TTWU);
    return cpu;
  }

  /**
   * Models {@code try_to_wake_up()}: {@code select_task_rq()}, migration accounting, {@code
   * ttwu_stat()}, {@code activate_task()} and {@code wakeup_preempt()}. {@code wakeFlags} is {@code
   * WF_TTWU}, with {@code WF_SYNC} for a sync wakeup. Sync changes only the placement: {@link
   * FairClass#wakeupPreempt} ignores it (the tip rework of NEXT_BUDDY in Nov 2025 used WF_SYNC in
   * wakeup preemption; NEXT_BUDDY is off in 7.1.5, kernel-facts §9, and that code was not read).
   */
  private void tryToWakeUp(Task task, int wakingCpu, Task waker, int wakeFlags) {
    int prev = task.cpu;
    boolean racing = wakeupRaceWindowNs > 0;
    if (racing) {
      hideUnseenClaims(wakingCpu);
    }
    int cpu = selectTaskRq.selectTaskRq(task, prev, wakingCpu, wakeFlags, waker);
    if (racing) {
      state.showClaims();
      if (state.isIdle(cpu)) {
        recordClaim(cpu, wakingCpu);
      }
    }
    if (cpu != prev) {
      PeltUpdates.migrateBlockedAverages(task, rqs[prev]);
      fair.setTaskCpu(task, cpu);
      stats.wakeupMigrations++;
    }
    CpuRunqueue waking = rqs[wakingCpu];
    waking.ttwuCount++;
    if (cpu == wakingCpu) {
      waking.ttwuLocal++;
    } else {
      // Indexed loops on the hot paths: a list iterator per wakeup is garbage.
      List<SchedDomain> wakingDomains = domains.domains(wakingCpu);
      for (int i = 0; i < wakingDomains.size(); i++) {
        SchedDomain sd = wakingDomains.get(i);
        if (sd.span().test(cpu)) {
          stats.ttwuWakeRemote(wakingCpu, sd.level());
          break;
        }
      }
    }
    task.wakeStampNs = ctx.now();
    ctx.listener.taskWakeup(ctx.now(), task.id, wakingCpu, prev, cpu, false);
    CpuRunqueue rq = rqs[cpu];
    fair.enqueue(rq, task, false);
    fair.wakeupPreempt(rq, task);
  }

  /**
   * Shows the wakeup about to be placed on {@code wakingCpu} as idle every CPU that a wakeup from
   * another CPU claimed (queued a task on while it was idle) less than the race window ago and that
   * is not idle now: that wakeup's {@code ttwu_pending} write came after this one's scan read the
   * CPU ({@link EngineOptions#wakeupRaceWindowNs()}).
   */
  private void hideUnseenClaims(int wakingCpu) {
    long now = ctx.now();
    // The ring holds claims in time order: walk back from the newest while inside the window.
    for (int k = 1, i = claimNext; k <= CLAIMS; k++) {
      i = i == 0 ? CLAIMS - 1 : i - 1;
      int cpu = claimCpu[i];
      if (cpu < 0 || now - claimNs[i] >= wakeupRaceWindowNs) {
        return;
      }
      if (claimWaker[i] != wakingCpu && !state.isIdle(cpu)) {
        state.hideClaim(cpu);
      }
    }
  }

  /** Remembers that {@code wakingCpu}'s wakeup claimed idle CPU {@code cpu} now. */
  private void recordClaim(int cpu, int wakingCpu) {
    claimCpu[claimNext] = cpu;
    claimWaker[claimNext] = wakingCpu;
    claimNs[claimNext] = ctx.now();
    claimNext = (claimNext + 1) % CLAIMS;
  }
}
