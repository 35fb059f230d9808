package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.LostWork;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;

/**
 * How running tasks progress: each CPU's timer at the end of its task's step or at the next speed
 * change, the speed the {@link PerformanceModel} gives, which changes when a hardware thread's
 * sibling becomes busy or idle and when the running memory-bound tasks of a node change, stolen
 * time, and the per-CPU time accounting. The model's own machinery: the kernel only sees the tasks'
 * exec time, which {@link CpuRunqueue#updateCurr} charges.
 */
final class TaskProgress {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final Topology topology;
  private final PerformanceModel performance;

  /** What the performance model reads. */
  final EnginePerfView perfView;

  /** {@link #perfView} with the target CPU's siblings idle: the solo speed's view. */
  private final SoloPerfView soloView;

  /** {@code EngineOptions.retainShortIdleTick}: the idle governor keeps a history. */
  private final boolean retainShortIdleTick;

  /**
   * {@code EngineOptions.checkInvariants}: {@link #rearmBeforeCompletion} verifies what it keeps.
   */
  private final boolean checkInvariants;

  /** {@link EngineState#siblingsOf()}. */
  private final int[][] siblingsOf;

  /** Each CPU's timer event, scheduled under the CPU's slot (the CPU number). */
  private final Event.CpuTimer[] cpuTimers;

  private final int[] nodeIndex;
  private final int[] memoryBoundPerNode;
  private final ImmutableCpuMask[] nodeCpus;

  /** Running memory-bound tasks counted by the node that holds their memory. */
  private final MemoryHomes memoryHomes;

  /** Dense node index of each CPU (-1 for impossible CPU numbers). */
  private final int[] cpuNodeIndex;

  /** CPUs running a {@link WorkClass#MEMORY} task. */
  private final MutableCpuMask memoryBoundCpus;

  TaskProgress(EngineContext ctx, PerformanceModel performance) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.topology = ctx.topology;
    this.performance = performance;
    this.retainShortIdleTick = ctx.options.retainShortIdleTick();
    this.checkInvariants = ctx.options.checkInvariants();
    this.siblingsOf = ctx.state.siblingsOf();
    int nrCpuIds = topology.nrCpuIds();
    int[] nodes = topology.nodes();
    int maxNode = 0;
    for (int node : nodes) {
      maxNode = Math.max(maxNode, node);
    }
    this.nodeIndex = new int[maxNode + 1];
    this.nodeCpus = new ImmutableCpuMask[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      nodeIndex[nodes[i]] = i;
      nodeCpus[i] = topology.nodeMask(nodes[i]);
    }
    this.memoryBoundCpus = CpuMasks.mutable(nrCpuIds);
    this.memoryBoundPerNode = new int[nodes.length];
    this.memoryHomes = new MemoryHomes(nodes.length, nrCpuIds, ctx.counters);
    this.cpuNodeIndex = new int[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      cpuNodeIndex[cpu] = topology.possibleMask().test(cpu) ? nodeIndex[topology.nodeOf(cpu)] : -1;
    }
    this.cpuTimers = new Event.CpuTimer[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      cpuTimers[cpu] = new Event.CpuTimer(cpu);
    }
    this.perfView = new EnginePerfView(ctx, this);
    this.soloView = new SoloPerfView(perfView, siblingsOf);
  }

  /** Recomputes the running task's speed and (re)arms its CPU timer. */
  void armTimer(CpuRunqueue rq) {
    Task task = rq.curr;
    if (task == null) {
      return;
    }
    long now = ctx.now();
    double speed = performance.speed(rq.cpu, task.id, perfView);
    long change = performance.nextSpeedChangeNs(rq.cpu, task.id, perfView);
    if (!(speed >= 0) || Double.isInfinite(speed)) {
      throw new IllegalStateException(
          "performance model gave speed " + speed + " for task " + task.id + " on CPU " + rq.cpu);
    }
    rq.speed = speed;
    if (siblingsOf[rq.cpu].length == 0) {
      rq.soloSpeed = speed;
    } else {
      rq.slowCause = siblingCause(rq.cpu);
      soloView.target = rq.cpu;
      rq.soloSpeed = performance.speed(rq.cpu, task.id, soloView);
    }
    rq.nextSpeedChange = change > now ? change : Long.MAX_VALUE;
    setTimer(rq, completionAt(rq, task, speed));
  }

  /**
   * The CPU timer fired before the step's completion. At the model's announced speed change the
   * speed is asked for again ({@link #armTimer}). Before it, a {@link #steal} moved the completion
   * later after the last arming (it leaves the timer early on purpose); every change of what the
   * {@link PerformanceModel} reads re-arms through {@link #armTimer}, and by the model's contract
   * its speed does not change before {@code nextSpeedChangeNs} otherwise, so the speeds and the
   * next change time stand: only the completion and the siblings' cause are recomputed, and the
   * timer is armed again. With {@code check_invariants} the full recomputation runs there and must
   * agree.
   */
  void rearmBeforeCompletion(CpuRunqueue rq) {
    if (ctx.now() >= rq.nextSpeedChange) {
      armTimer(rq);
      return;
    }
    Task task = rq.curr;
    if (checkInvariants) {
      double speed = rq.speed;
      double solo = rq.soloSpeed;
      long change = rq.nextSpeedChange;
      armTimer(rq);
      if (rq.speed != speed || rq.soloSpeed != solo || rq.nextSpeedChange != change) {
        throw new IllegalStateException(
            "performance model changed its answer for task "
                + task.id
                + " on CPU "
                + rq.cpu
                + " before its announced next change with no state change: speed "
                + speed
                + " -> "
                + rq.speed
                + ", solo speed "
                + solo
                + " -> "
                + rq.soloSpeed
                + ", next change "
                + change
                + " -> "
                + rq.nextSpeedChange);
      }
      return;
    }
    if (siblingsOf[rq.cpu].length != 0) {
      rq.slowCause = siblingCause(rq.cpu);
    }
    setTimer(rq, completionAt(rq, task, rq.speed));
  }

  /** Records the step's completion and arms the timer at it or at the next speed change. */
  private void setTimer(CpuRunqueue rq, long completion) {
    rq.completionTime = completion;
    long when = Math.max(Math.min(completion, rq.nextSpeedChange), ctx.now());
    if (when == rq.timerAt) {
      // The live timer already fires then (a resync that changed nothing).
      return;
    }
    rq.timerAt = when;
    if (when != Long.MAX_VALUE) {
      ctx.loop.scheduleSlot(rq.cpu, when, cpuTimers[rq.cpu]);
    } else {
      ctx.loop.cancelSlot(rq.cpu);
    }
  }

  /**
   * What the siblings of {@code cpu} are doing now, as a {@link LostWork} ordinal: the cause the
   * running task's slowdown is charged to until the next arming (the solo speed, which {@link
   * #armTimer} asks for with every sibling idle and out of its qualification window, is the speed
   * the slowdown is measured against). A sibling running a task, then one running an ILB pass, one
   * busy with other kernel work, one idle after an ILB pass (its qualification window), else other
   * work's window.
   */
  private int siblingCause(int cpu) {
    boolean siblingTask = false;
    boolean siblingIlb = false;
    boolean siblingOther = false;
    boolean afterIlb = false;
    for (int sibling : siblingsOf[cpu]) {
      CpuRunqueue other = rqs[sibling];
      if (other.curr != null) {
        siblingTask = true;
      } else if (other.perfBusy) {
        if (other.ilbVisitNs > 0 || other.ilbPassStarting) {
          siblingIlb = true;
        } else {
          siblingOther = true;
        }
      } else if (other.lastBusyWasIlb) {
        afterIlb = true;
      }
    }
    return (siblingTask
            ? LostWork.SIBLING_TASK
            : siblingIlb
                ? LostWork.SIBLING_ILB
                : siblingOther
                    ? LostWork.SIBLING_OTHER
                    : afterIlb ? LostWork.SIBLING_ILB_QUALIFICATION : LostWork.SIBLING_OTHER)
        .ordinal();
  }

  /** When {@code task}'s step completes at {@code speed}, after any pause. */
  private long completionAt(CpuRunqueue rq, Task task, double speed) {
    long start = Math.max(ctx.now(), rq.pausedUntil);
    if (task.remainingWork <= 0) {
      return start;
    }
    if (speed <= 0) {
      return Long.MAX_VALUE;
    }
    double ns = Math.ceil(task.remainingWork / speed);
    return ns >= (double) (Long.MAX_VALUE / 4) ? Long.MAX_VALUE : start + (long) ns;
  }

  /** Charges progress at the old speed and re-arms at the new one. */
  private void resync(CpuRunqueue rq) {
    if (rq.curr == null) {
      return;
    }
    rq.updateCurr(ctx.now());
    armTimer(rq);
  }

  /**
   * Softirq, stopper or interrupt work on a CPU running a task: the task makes no progress for
   * {@code ns}, lost work of {@code cause}.
   */
  void steal(CpuRunqueue rq, long ns, LostWork cause) {
    if (ns <= 0 || rq.curr == null) {
      return;
    }
    rq.curr.lostWork[cause.ordinal()] += ns;
    rq.updateCurr(ctx.now());
    rq.pausedUntil = Math.max(rq.pausedUntil, ctx.now()) + ns;
    rq.stolenNs += ns;
    // The pending timer fires no later than the new completion and re-arms then, so many small
    // steals within one step cost no extra events.
    rq.completionTime = completionAt(rq, rq.curr, rq.speed);
  }

  /** Bookkeeping when a task stops running on its CPU. */
  void leaveCpu(CpuRunqueue rq, Task task) {
    rq.timerAt = Long.MAX_VALUE;
    ctx.loop.cancelSlot(rq.cpu);
    rq.completionTime = Long.MAX_VALUE;
    if (task.memoryCounted) {
      task.memoryCounted = false;
      memoryBoundChanged(rq.cpu, task, -1);
    }
  }

  /**
   * Counts {@code task} among the running memory-bound tasks of its CPU's node exactly while it
   * runs there doing memory-bound work: a memory-bound task's spin does not count (see {@code
   * Task.currentWorkClass()}).
   */
  void syncMemoryBound(CpuRunqueue rq, Task task) {
    boolean counts = rq.curr == task && task.currentWorkClass() == WorkClass.MEMORY;
    if (counts != task.memoryCounted) {
      task.memoryCounted = counts;
      memoryBoundChanged(rq.cpu, task, counts ? 1 : -1);
    }
  }

  /** A hardware thread became busy or idle: its siblings' speed may change. */
  void setPerfBusy(CpuRunqueue rq, boolean busy) {
    if (rq.perfBusy == busy) {
      return;
    }
    rq.perfBusy = busy;
    if (busy) {
      rq.busyRanIlb = rq.ilbPassStarting;
      if (retainShortIdleTick && rq.curr == null && rq.idleSince >= 0) {
        // An interrupt or a task ended a hardware idle period: the governor's history.
        IdleGovernor.record(rq, ctx.now() - rq.idleSince);
      }
      rq.busySince = ctx.now();
    } else {
      rq.idleSince = ctx.now();
      rq.lastBusyWasIlb = rq.busyRanIlb;
    }
    for (int sibling : siblingsOf[rq.cpu]) {
      CpuRunqueue other = rqs[sibling];
      if (other.curr != null) {
        resync(other);
      }
    }
  }

  /**
   * A memory-bound task starts or stops running on {@code cpu}: the other memory-bound tasks of its
   * node may change speed. Visits only the CPUs running one, not the whole node.
   */
  private void memoryBoundChanged(int cpu, Task task, int delta) {
    int node = nodeIndex[topology.nodeOf(cpu)];
    if (task.memoryHomeNode < 0) {
      // First touch: the task's pages land on the node it first runs on.
      task.memoryHomeNode = topology.nodeOf(cpu);
    }
    int home = nodeIndex[task.memoryHomeNode];
    memoryBoundPerNode[node] += delta;
    memoryHomes.changed(home, node, cpu, delta, ctx.now());
    memoryBoundCpus.clear(cpu);
    CpuMask nodeMask = nodeCpus[node];
    for (int other = memoryBoundCpus.firstAnd(nodeMask);
        other != CpuMask.NO_CPU;
        other = memoryBoundCpus.nextAnd(other, nodeMask)) {
      resync(rqs[other]);
    }
    // Tasks whose memory is on the same home node but which run on other nodes share its
    // controllers, also when this task runs at home.
    CpuMask homed = memoryHomes.cpusHomedOn(home);
    for (int other = homed.first(); other != CpuMask.NO_CPU; other = homed.next(other)) {
      if (other != cpu && !nodeMask.test(other)) {
        resync(rqs[other]);
      }
    }
    if (delta > 0) {
      memoryBoundCpus.set(cpu);
    }
  }

  /** Running memory-bound tasks on {@code node}. */
  int memoryBoundRunning(int node) {
    return node < nodeIndex.length ? memoryBoundPerNode[nodeIndex[node]] : 0;
  }

  /** Memory-bound tasks running anywhere whose memory is on {@code node}. */
  int memoryBoundHomedRunning(int node) {
    return node < nodeIndex.length ? memoryHomes.running(nodeIndex[node]) : 0;
  }

  /** Memory-bound tasks whose memory is on {@code home} running on node {@code running}. */
  int memoryBoundHomedRunning(int home, int running) {
    if (home >= nodeIndex.length || running >= nodeIndex.length) {
      return 0;
    }
    return memoryHomes.running(nodeIndex[home], nodeIndex[running]);
  }

  /** Per-CPU time accounting: 0 idle, 1 task, 2 balancing overhead. */
  void setTimeState(CpuRunqueue rq, int state) {
    long now = ctx.now();
    long dt = now - rq.timeStateSince;
    switch (rq.timeState) {
      case 1 -> rq.taskNs += dt;
      case 2 -> rq.overheadNs += dt;
      default -> rq.idleNs += dt;
    }
    rq.timeState = state;
    rq.timeStateSince = now;
    ctx.listener.cpuActivity(
        now,
        rq.cpu,
        state == 1
            ? SimulationListener.CpuActivity.TASK
            : state == 2
                ? SimulationListener.CpuActivity.BALANCING
                : SimulationListener.CpuActivity.IDLE,
        state == 1 && rq.curr != null ? rq.curr.id : -1);
  }

  /** Closes the time accounting at the end of the run. */
  void finish() {
    long now = ctx.now();
    ctx.stats.advanceWaste(now);
    memoryHomes.flush(now, cpuNodeIndex);
    CpuMask online = topology.onlineMask();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      if (rq.curr != null) {
        rq.updateCurr(now);
      }
      setTimeState(rq, rq.timeState);
    }
  }
}
