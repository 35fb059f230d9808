package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceCost;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.HousekeepingType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.List;

/**
 * The core of the engine: per-CPU runqueues, context switches, the tick, task programs and their
 * work, wakeups and forks, and the CPU time that balancing takes. NOHZ bookkeeping is delegated to
 * {@link NohzBalancing}, CPU selection to {@link WakeupPlacement}, balancing itself to the {@code
 * LoadBalancer}.
 *
 * <p>Modelling choices stated once here:
 *
 * <ul>
 *   <li>Idle governor: the tick stops on every idle entry ({@code tick_nohz_idle_stop_tick()}
 *       always finds the next timer more than a tick away), except on the timekeeping CPU (the
 *       first housekeeping CPU) while nohz_full is in use, which keeps its tick as {@code
 *       can_stop_idle_tick()} requires.
 *   <li>A busy nohz_full CPU stops its tick at the end of a tick when it runs exactly one task,
 *       and restarts it when a second task is queued.
 *   <li>Wakeups and remote enqueues take effect at once on the target runqueue; the target acts
 *       on them after {@link EngineOptions#ipiLatencyNs()} when it is another CPU than the one
 *       doing the wakeup (the {@code TTWU_QUEUE} IPI or {@code resched_curr()} IPI), at once
 *       otherwise. {@code ttwu_pending} is therefore never set.
 *   <li>Balancing runs instantaneously at its start and then occupies its CPU for the cost model's
 *       time: on a CPU running a task the task is paused for that long (softirq time stealing
 *       the CPU); on an idle CPU the hardware thread is busy (it counts as busy for the
 *       performance model) while {@code idle_cpu()} stays true, as in the kernel.
 *   <li>Context switches, the tick handler and wakeups themselves cost no CPU time.
 *   <li>All tasks are fair-class tasks in the root cgroup.
 * </ul>
 */
final class Scheduler {

  private static final int MAX_STEPS_PER_INSTANT = 100_000;

  /**
   * Work units (ns of a thread alone on a full CPU) a spinning task runs between the wake that
   * ends its spin and the end of its step: the poll loop's next load missing, and the cache line
   * coming over from the waker's core. 100 ns, an assumption (one cross-core cache-line transfer
   * on a large server).
   */
  static final double SPIN_WAKE_DETECTION_WORK = 100;

  private final Simulation sim;
  private final CpuRunqueue[] rqs;
  private final EventLoop loop;
  private final EngineStatistics stats;
  private final Topology topology;
  private final SchedDomains domains;
  private final int nrCpuIds;
  private final int hz;
  /** {@code EngineOptions.retainShortIdleTick}: the idle governor may keep the tick. */
  private final boolean retainShortIdleTick;
  /** {@code normalized_sysctl_sched_base_slice}: the base slice before CPU-count scaling. */
  private static final long NORMALIZED_BASE_SLICE_NS = 700_000L;

  private final long baseSliceNs;
  /** {@code set_protect_slice()}'s quantum: the base slice, or at most 700 µs without parity. */
  private final long protectQuantumNs;
  private final long ipiLatencyNs;
  private final int timekeeperCpu;
  private final ImmutableCpuMask nohzFull;
  private final ImmutableCpuMask online;
  /** {@link EngineState#siblingsOf()}. */
  private final int[][] siblingsOf;
  /** Whether each CPU has sched domains ({@code !on_null_domain()}). */
  private final boolean[] hasDomains;
  private final int[] nodeIndex;
  private final int[] memoryBoundPerNode;
  private final ImmutableCpuMask[] nodeCpus;
  /** Running memory-bound tasks counted by the node that holds their memory. */
  private final MemoryHomes memoryHomes;
  /** Dense node index of each CPU (-1 for impossible CPU numbers). */
  private final int[] cpuNodeIndex;

  /** CPUs running a {@link WorkClass#MEMORY} task. */
  private final MutableCpuMask memoryBoundCpus;
  private final TaskProgramControl control;
  private final BalanceCost cost = new BalanceCost();
  /** Each CPU's timer event, scheduled under the CPU's slot (the CPU number). */
  private final Event.CpuTimer[] cpuTimers;

  /** CPUs whose tick is running; a snapshot is walked at each jiffy. */
  final MutableCpuMask tickRunning;

  private final MutableCpuMask tickSnapshot;
  /** {@code (TICK_NSEC / 2) / num_possible_cpus()} with {@code skew_tick=1}, else 0. */
  private final long skewTickStepNs;
  private final Event.SkewedTick skewedTick = new Event.SkewedTick();
  private int skewNextCpu;
  /**
   * The last {@value #CLAIMS} wakeups that took an idle CPU, for the race window: CPU (-1: free
   * slot), waking CPU, time. Claims older than the window are ignored, so the ring only has to
   * hold the claims of one window, which a burst of wakeups from many CPUs could overflow (the
   * oldest are then forgotten: fewer races, never spurious ones).
   */
  private static final int CLAIMS = 256;
  private final int[] claimCpu = new int[CLAIMS];
  private final int[] claimWaker = new int[CLAIMS];
  private final long[] claimNs = new long[CLAIMS];
  private int claimNext;
  private final long wakeupRaceWindowNs;
  /** {@code -E deep_idle_exit} and {@code deep_idle_residency}; exit 0: no deep idle state. */
  private final long deepIdleExitNs;
  private final long deepIdleResidencyNs;
  /** {@code engine.deep_idle_exits}, registered at the first one. */
  private dev.schedlab.spi.Counter deepIdleExits;

  /** The CPU whose code the current event runs (local reschedules need no IPI), or -1. */
  int contextCpu = -1;

  /** Sum of {@code nr_running}. */
  long totalNrRunning;

  private long jiffies;
  private long nextSisUpdateJiffy;

  Scheduler(Simulation sim) {
    this.sim = sim;
    this.rqs = sim.rqs;
    this.loop = sim.loop;
    this.stats = sim.stats;
    this.topology = sim.topology;
    this.domains = sim.domains;
    this.nrCpuIds = topology.nrCpuIds();
    this.hz = sim.hz;
    this.retainShortIdleTick = sim.options.retainShortIdleTick();
    this.ipiLatencyNs = sim.options.ipiLatencyNs();
    this.online = topology.onlineMask();
    int ncpus = Math.max(1, online.weight());
    this.baseSliceNs = NORMALIZED_BASE_SLICE_NS * (1 + ilog2(Math.min(ncpus, 8)));
    this.protectQuantumNs = sim.options.runToParity()
        ? baseSliceNs : Math.min(NORMALIZED_BASE_SLICE_NS, baseSliceNs);
    this.nohzFull = topology.housekeeping().nohzFullMask();
    this.timekeeperCpu =
        nohzFull.isEmpty()
            ? CpuMask.NO_CPU
            : topology.housekeeping().mask(HousekeepingType.KERNEL_NOISE).firstAnd(online);
    this.siblingsOf = sim.state.siblingsOf();
    this.hasDomains = new boolean[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      hasDomains[cpu] =
          topology.isPossible(cpu) && !domains.domains(cpu).isEmpty() && online.test(cpu);
    }
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
    this.memoryHomes = new MemoryHomes(nodes.length, nrCpuIds, sim.counters);
    this.cpuNodeIndex = new int[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      cpuNodeIndex[cpu] = topology.possibleMask().test(cpu) ? nodeIndex[topology.nodeOf(cpu)] : -1;
    }
    this.control = new TaskProgramControl(this);
    this.cpuTimers = new Event.CpuTimer[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      cpuTimers[cpu] = new Event.CpuTimer(cpu);
    }
    this.tickRunning = CpuMasks.mutable(nrCpuIds);
    this.tickSnapshot = CpuMasks.mutable(nrCpuIds);
    this.skewTickStepNs = sim.options.skewTick() ? tickTime(1) / 2 / nrCpuIds : 0;
    this.wakeupRaceWindowNs = sim.options.wakeupRaceWindowNs();
    this.deepIdleExitNs = sim.options.deepIdleExitNs();
    this.deepIdleResidencyNs = sim.options.deepIdleResidencyNs();
    java.util.Arrays.fill(claimCpu, -1);
  }

  private static int ilog2(int value) {
    return 31 - Integer.numberOfLeadingZeros(value);
  }

  long now() {
    return loop.now();
  }

  long jiffies() {
    return jiffies;
  }

  long baseSliceNs() {
    return baseSliceNs;
  }

  /** Time of jiffy {@code j}: {@code j * 1e9 / hz}, rounded down. */
  long tickTime(long j) {
    return Math.multiplyExact(j, 1_000_000_000L) / hz;
  }

  int memoryBoundRunning(int node) {
    return node < nodeIndex.length ? memoryBoundPerNode[nodeIndex[node]] : 0;
  }

  boolean isNohzFull(int cpu) {
    return nohzFull.test(cpu);
  }

  // ---------------------------------------------------------------------------------------
  // Start and end

  /**
   * Brings every online CPU into its idle loop at time 0 with its tick running, then lets each
   * stop its tick (and register for NOHZ) as an idle entry would; schedules the first tick.
   */
  void start() {
    long history = sim.options.idleHistoryNs();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      if (history > 0) {
        rq.idleSince = -1 - sim.random.tieBreak().nextLong(history);
      }
      rq.inIdleLoop = true;
      rq.avgIdle = 2 * sim.setup.balancer().migrationCostNs();
      rq.avgIdle = Math.max(rq.avgIdle, 0);
      tickRunning.set(cpu);
    }
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      updateIdleCore(rq);
      idleLoopTickStop(rq);
    }
    nextSisUpdateJiffy = 0;
    loop.schedule(tickTime(1), new Event.JiffyTick(1));
  }

  /** Closes time accounting at the end of the run. */
  void finish() {
    long now = now();
    stats.advanceWaste(now);
    memoryHomes.flush(now, cpuNodeIndex);
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      if (rq.curr != null) {
        updateCurr(rq);
      }
      setTimeState(rq, rq.timeState);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Tasks: creation

  /**
   * Creates a task as {@code sched_fork()} + {@code wake_up_new_task()} do, forked on {@code
   * parentCpu} by {@code parent} (null for the workload's initial tasks), and returns its id.
   */
  int spawn(TaskSpec spec, TaskProgram program, int parentCpu, Task parent) {
    if (!online.test(parentCpu)) {
      throw new IllegalArgumentException(
          "parent CPU " + parentCpu + " of task " + spec.name() + " is not online");
    }
    ImmutableCpuMask allowed;
    if (spec.allowedCpus() == null) {
      allowed = online;
    } else {
      if (spec.allowedCpus().nrCpuIds() != nrCpuIds) {
        throw new IllegalArgumentException(
            "affinity of task " + spec.name() + " is " + spec.allowedCpus().nrCpuIds()
                + " CPUs wide; the machine has nrCpuIds " + nrCpuIds);
      }
      MutableCpuMask m = spec.allowedCpus().mutableCopy();
      m.andWith(online);
      if (m.isEmpty()) {
        throw new IllegalArgumentException(
            "affinity " + spec.allowedCpus().toCpuList() + " of task " + spec.name()
                + " contains no online CPU");
      }
      allowed = m.toImmutable();
    }
    int id = sim.tasks.size();
    WorkClass workClass = spec.workClass() == null ? WorkClass.COMPUTE : spec.workClass();
    SchedPolicy policy = spec.policy() == null ? SchedPolicy.NORMAL : spec.policy();
    Task task = new Task(id, spec.name(), policy, spec.nice(), allowed, workClass, program);
    sim.tasks.add(task);
    task.cpu = parentCpu;
    if (parent != null) {
      task.recentUsedCpu = parent.cpu;
    }
    int previousContext = contextCpu;
    contextCpu = parentCpu;
    int cpu = sim.placement.selectTaskRq(task, parentCpu, parentCpu, WakeupPlacement.WF_FORK,
        parent);
    task.cpu = cpu;
    CpuRunqueue rq = rqs[cpu];
    postInitUtilAvg(task, rq);
    task.state = TaskState.QUEUED;
    enqueue(rq, task, true);
    wakeupPreempt(rq, task);
    contextCpu = previousContext;
    if (previousContext == CpuMask.NO_CPU) {
      afterEvent(parentCpu);
    }
    return id;
  }

  /** Models {@code init_entity_runnable_average()} + {@code post_init_entity_util_avg()}. */
  private void postInitUtilAvg(Task task, CpuRunqueue rq) {
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

  // ---------------------------------------------------------------------------------------
  // Runqueue primitives

  /**
   * Models {@code enqueue_task_fair()} for one task: PELT update (attaching a task that arrives
   * from elsewhere or is new), placement at the average vruntime, {@code cfs_tasks} head, counts.
   */
  void enqueue(CpuRunqueue rq, Task task, boolean initial) {
    wasteBefore(rq);
    checkAllowed(task, rq.cpu);
    long now = now();
    updateCurr(rq);
    if (task.attached) {
      seUpdate(task, now, false, false);
    }
    cfsUpdate(rq, now);
    if (!task.attached) {
      task.avg.alignTo(rq.cfs, task.weight);
      rq.cfs.add(task.avg, task.weight);
      task.attached = true;
    }
    long vslice = vslice(task);
    task.vruntime = rq.avgVruntime();
    task.deadline = task.vruntime + (initial ? vslice / 2 : vslice);
    int previousNr = rq.nr;
    rq.addHead(task);
    rq.loadWeight += task.weight;
    if (task.policy.isIdlePolicy()) {
      rq.nrIdlePolicy++;
      sim.queuedIdlePolicyTasks++;
    }
    rq.utilEstSum += task.utilEst;
    task.cpu = rq.cpu;
    task.state = TaskState.QUEUED;
    task.waitStartNs = now;
    totalNrRunning++;
    sim.balancer.addNrRunning(rq.cpu, previousNr, rq.nr);
    sim.listener.nrRunning(now, rq.cpu, rq.nr);
    if (rq.tickStopped && !rq.inIdleLoop && rq.nr >= 2 && rq.cpu != timekeeperCpu) {
      // sched_can_stop_tick() is false with two tasks: the nohz_full tick comes back.
      startTick(rq);
    }
    wasteAfter(rq);
  }

  private boolean wasteWasIdle;
  private int wasteWasWaiting;

  /** Snapshot of {@code rq}'s wasted-core state before a change (changes never nest). */
  private void wasteBefore(CpuRunqueue rq) {
    wasteWasIdle = rq.curr == null && rq.nr == 0;
    wasteWasWaiting = rq.curr != null ? rq.nr - 1 : 0;
  }

  private void wasteAfter(CpuRunqueue rq) {
    stats.runqueueChanged(
        now(), wasteWasIdle, wasteWasWaiting, rq.curr == null && rq.nr == 0,
        rq.curr != null ? rq.nr - 1 : 0);
  }

  /** Removes a queued, not running task (migration). Its averages leave the cfs_rq at once. */
  private void dequeueQueued(CpuRunqueue rq, Task task) {
    wasteBefore(rq);
    long now = now();
    updateCurr(rq);
    seUpdate(task, now, true, false);
    cfsUpdate(rq, now);
    removeFromRq(rq, task);
    rq.cfs.subtract(task.avg, task.weight);
    task.attached = false;
    wasteAfter(rq);
  }

  /** The running task leaves its runqueue ({@code dequeue_task_fair()} on sleep/block/exit). */
  private void dequeueCurr(CpuRunqueue rq, TaskState newState) {
    wasteBefore(rq);
    Task task = rq.curr;
    long now = now();
    updateCurr(rq);
    seUpdate(task, now, true, true);
    cfsUpdate(rq, now);
    // util_est_dequeue() removes the estimate the enqueue added; util_est_update() follows.
    removeFromRq(rq, task);
    if (newState != TaskState.EXITED) {
      updateUtilEst(task);
    }
    leaveCpu(rq, task);
    task.state = newState;
    rq.setCurr(null);
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
      sim.queuedIdlePolicyTasks--;
    }
    rq.utilEstSum = Math.max(0, rq.utilEstSum - task.utilEst);
    rq.zeroVruntime = rq.nr == 0 ? task.vruntime : rq.zeroVruntime;
    totalNrRunning--;
    sim.listener.nrRunning(now(), rq.cpu, rq.nr);
  }

  /** Equivalent of {@code util_est_update()} when a task sleeps. */
  private static void updateUtilEst(Task task) {
    long util = task.avg.utilAvg;
    if (util >= task.utilEst) {
      task.utilEst = util;
    } else {
      task.utilEst -= (task.utilEst - util) >> 2;
    }
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
      sa.loadSum = Math.max(Math.max(0, sa.loadSum - rq.removedLoad * divider),
          sa.loadAvg * Pelt.PELT_MIN_DIVIDER);
      sa.utilAvg = Math.max(0, sa.utilAvg - rq.removedUtil);
      sa.utilSum = Math.max(Math.max(0, sa.utilSum - rq.removedUtil * divider),
          sa.utilAvg * Pelt.PELT_MIN_DIVIDER);
      sa.runnableAvg = Math.max(0, sa.runnableAvg - rq.removedRunnable);
      sa.runnableSum = Math.max(Math.max(0, sa.runnableSum - rq.removedRunnable * divider),
          sa.runnableAvg * Pelt.PELT_MIN_DIVIDER);
      rq.removedLoad = 0;
      rq.removedUtil = 0;
      rq.removedRunnable = 0;
      decayed = true;
    }
    if (sa.updateSum(now, rq.loadWeight, rq.nr, rq.curr != null) || decayed) {
      sa.updateAvg(1);
    }
  }

  /** Equivalent of {@code sched_balance_update_blocked_averages(cpu)} for one root cfs_rq. */
  void updateBlockedAverages(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    long now = now();
    if (rq.curr != null) {
      updateCurr(rq);
      seUpdate(rq.curr, now, true, true);
    }
    cfsUpdate(rq, now);
    rq.lastBlockedLoadUpdateTick = jiffies;
    if (rq.cfs.loadAvg == 0 && rq.cfs.utilAvg == 0) {
      rq.hasBlockedLoad = false;
    }
  }

  private long vslice(Task task) {
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
   * Equivalent of {@code update_curr()}: charges the running task's exec time and vruntime up to
   * now, and its work progress at the current speed (none while it is paused).
   */
  void updateCurr(CpuRunqueue rq) {
    Task task = rq.curr;
    if (task == null) {
      return;
    }
    long now = now();
    long delta = now - rq.execClock;
    if (delta > 0) {
      task.sumExecNs += delta;
      task.vruntime += delta * LoadWeights.NICE_0_LOAD / task.weight;
      task.runSinceMigrationNs += delta;
      rq.rqCpuTimeNs += delta;
      rq.execClock = now;
      // update_curr_se(): exec_start follows the accounting, so once the task stops running it
      // holds when it last ran, which task_hot() measures from.
      task.execStartNs = now;
    }
    long from = Math.max(rq.progressClock, rq.pausedUntil);
    if (now > from) {
      double done = Math.min((now - from) * rq.speed, Math.max(0, task.remainingWork));
      task.remainingWork -= done;
      task.workDone += done;
      rq.progressClock = now;
    }
  }

  private void checkAllowed(Task task, int cpu) {
    if (!task.allowed.test(cpu)) {
      throw new InvariantViolation(
          "affinity violated: " + task + " placed on CPU " + cpu + " outside "
              + task.allowed.toCpuList());
    }
    if (!online.test(cpu)) {
      throw new InvariantViolation(task + " placed on offline CPU " + cpu);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Context switches

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
      putPrev(rq);
    }
    pickAndRun(rq);
  }

  /** {@code put_prev_task_fair()}: the running task stays queued and waits. */
  private void putPrev(CpuRunqueue rq) {
    wasteBefore(rq);
    Task task = rq.curr;
    long now = now();
    updateCurr(rq);
    seUpdate(task, now, true, true);
    cfsUpdate(rq, now);
    leaveCpu(rq, task);
    task.state = TaskState.QUEUED;
    task.waitStartNs = now;
    rq.setCurr(null);
    rq.putBack = task;
    wasteAfter(rq);
  }

  /** Bookkeeping when a task stops running on its CPU. */
  private void leaveCpu(CpuRunqueue rq, Task task) {
    rq.timerAt = Long.MAX_VALUE;
    loop.cancelSlot(rq.cpu);
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
  private void syncMemoryBound(CpuRunqueue rq, Task task) {
    boolean counts = rq.curr == task && task.currentWorkClass() == WorkClass.MEMORY;
    if (counts != task.memoryCounted) {
      task.memoryCounted = counts;
      memoryBoundChanged(rq.cpu, task, counts ? 1 : -1);
    }
  }

  /** Picks and runs tasks until one is running, or starts newidle balancing. */
  private void pickAndRun(CpuRunqueue rq) {
    for (int guard = 0; ; guard++) {
      if (guard > MAX_STEPS_PER_INSTANT) {
        throw new IllegalStateException(
            "task programs on CPU " + rq.cpu + " keep ending steps without using time at "
                + now() + " ns");
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
        putPrev(rq);
        continue;
      }
      armTimer(rq);
      return;
    }
  }

  /** {@code set_next_task_fair()} plus the idle exit when the idle task was running. */
  private void switchIn(CpuRunqueue rq, Task next) {
    wasteBefore(rq);
    long now = now();
    if (rq.inIdleLoop) {
      idleExit(rq);
    }
    seUpdate(next, now, true, false);
    cfsUpdate(rq, now);
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
    if (next.wakeStampNs >= 0) {
      stats.wakeupLatency.recordValue(now - next.wakeStampNs);
      next.wakeStampNs = -1;
    }
    next.execStartNs = now;
    rq.execClock = now;
    rq.progressClock = now;
    updateMisfitStatus(rq);
    if (!next.needsStep) {
      // Otherwise runStep() counts it once it knows whether the new step is a spin.
      syncMemoryBound(rq, next);
    }
    setTimeState(rq, 1);
    wasteAfter(rq);
  }

  /** Leaving the idle task: {@code put_prev_task_idle()} and {@code tick_nohz_idle_exit()}. */
  private void idleExit(CpuRunqueue rq) {
    long now = now();
    rq.inIdleLoop = false;
    if (rq.idleStamp != 0) {
      // update_rq_avg_idle(): an 1/8 EWMA of idle durations, capped at twice the balance cost.
      long sample = now - rq.idleStamp;
      rq.avgIdle += (sample - rq.avgIdle) / 8;
      long max = 2 * sim.balancer.maxIdleBalanceCostNs(rq.cpu);
      if (rq.avgIdle > max) {
        rq.avgIdle = max;
      }
      rq.idleStamp = 0;
    }
    if (rq.tickStopped) {
      startTick(rq);
    }
    boolean siblingRunsTask = false;
    boolean siblingBalances = false;
    for (int sibling : siblingsOf[rq.cpu]) {
      siblingRunsTask |= rqs[sibling].curr != null;
      siblingBalances |= rqs[sibling].perfBusy;
    }
    // A sibling busy with balancing (ILB, newidle, softirq) contends for the core too.
    if (siblingRunsTask || siblingBalances) {
      stats.smtContention++;
      if (!siblingRunsTask) {
        stats.smtContentionSiblingBalancing++;
      }
    } else {
      stats.smtNoContention++;
    }
    setPerfBusy(rq, true);
  }

  private void startTick(CpuRunqueue rq) {
    rq.tickStopped = false;
    tickRunning.set(rq.cpu);
  }

  /**
   * The fair class found nothing: {@code sched_balance_newidle()}, with its cost occupying the
   * CPU before it either runs a pulled task or enters idle.
   */
  private void startNewidle(CpuRunqueue rq) {
    long now = now();
    rq.idleStamp = now;
    rq.setPhase(CpuPhase.NEWIDLE);
    cost.reset();
    int previousContext = contextCpu;
    contextCpu = rq.cpu;
    int pulled = sim.balancer.newidleBalance(rq.cpu, cost);
    contextCpu = previousContext;
    long costNs = cost.domainsBalanced == 0 && cost.cpusScanned == 0
        ? 0 : sim.setup.costModel().toNs(cost);
    if (pulled > 0) {
      rq.idleStamp = 0;
    } else if (rq.nr == 0) {
      sim.nohz.newidleBalanceKickCheck(rq);
    }
    if (costNs > 0) {
      stats.newidleDuration.recordNs(costNs);
      beginPhase(rq, CpuPhase.NEWIDLE, costNs);
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
      enterIdle(rq);
    }
  }

  /** Switching to the idle task and the start of {@code do_idle()}. */
  private void enterIdle(CpuRunqueue rq) {
    rq.inIdleLoop = true;
    rq.schedGoidle++;
    setPerfBusy(rq, false);
    setTimeState(rq, 0);
    updateIdleCore(rq);
    idleLoopTickStop(rq);
    sim.nohz.runIdleBalanceIfOnlyNewIlb(rq);
  }

  /**
   * Equivalent of {@code __update_idle_core()}: when every other SMT sibling is idle too, the
   * LLC may hold an idle core.
   */
  private void updateIdleCore(CpuRunqueue rq) {
    if (siblingsOf[rq.cpu].length == 0) {
      return;
    }
    for (int sibling : siblingsOf[rq.cpu]) {
      if (!sim.state.isIdle(sibling)) {
        return;
      }
    }
    sim.placement.setIdleCores(rq.cpu, true);
  }

  /**
   * The idle loop's {@code tick_nohz_idle_stop_tick()}: stop the tick (see the class comment for
   * the governor assumption) and ask the registration rule whether to call {@code
   * nohz_balance_enter_idle()}.
   */
  void idleLoopTickStop(CpuRunqueue rq) {
    if (rq.cpu == timekeeperCpu) {
      return;
    }
    boolean wasStopped = rq.tickStopped;
    if (!wasStopped && retainShortIdleTick && IdleGovernor.retainsTick(rq, tickTime(1))) {
      // cpuidle_idle_call(): the governor keeps the tick, tick_nohz_idle_stop_tick() is not called.
      return;
    }
    if (!wasStopped) {
      rq.tickStopped = true;
      tickRunning.clear(rq.cpu);
    }
    boolean register = sim.nohzTracking.registerOnIdleEntry(rq.cpu, wasStopped);
    if (register) {
      sim.nohz.enterIdle(rq);
    }
    if (sim.invariants != null) {
      sim.invariants.afterIdleEntry(rq, wasStopped, register);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Balancing phases and stolen time

  /** Occupies a CPU that runs no task for {@code ns} of balancing work. */
  void beginPhase(CpuRunqueue rq, CpuPhase phase, long ns) {
    rq.setPhase(phase);
    rq.phaseToken++;
    setPerfBusy(rq, true);
    setTimeState(rq, 2);
    rq.phaseEndNs = now() + ns;
    loop.schedule(rq.phaseEndNs, new Event.PhaseEnd(rq.cpu, rq.phaseToken));
  }

  /** Ends the phase in progress at {@code endNs} instead, if that is sooner. */
  void shortenPhase(CpuRunqueue rq, long endNs) {
    if (rq.phase == CpuPhase.NONE || endNs >= rq.phaseEndNs) {
      return;
    }
    rq.phaseToken++;
    rq.phaseEndNs = Math.max(endNs, now());
    loop.schedule(rq.phaseEndNs, new Event.PhaseEnd(rq.cpu, rq.phaseToken));
  }

  void onPhaseEnd(int cpu, long token) {
    CpuRunqueue rq = rqs[cpu];
    if (token != rq.phaseToken || rq.phase == CpuPhase.NONE) {
      return;
    }
    contextCpu = cpu;
    if (rq.phase == CpuPhase.NEWIDLE) {
      finishNewidle(rq);
    } else {
      if (rq.ilbVisitNs > 0) {
        sim.nohz.ilbPassEnded(rq);
      }
      rq.setPhase(CpuPhase.NONE);
      rq.needResched = false;
      int deferred = rq.deferredIdleBalanceFlags;
      rq.deferredIdleBalanceFlags = 0;
      if (deferred != 0 && sim.state.isIdle(cpu)) {
        sim.nohz.runKickedIdleBalance(rq, deferred);
      } else if (rq.nr > 0) {
        rq.schedCount++;
        pickAndRun(rq);
      } else {
        setPerfBusy(rq, false);
        setTimeState(rq, 0);
        idleLoopTickStop(rq);
      }
    }
    afterEvent(cpu);
  }

  /** Softirq or stopper work on a CPU running a task: the task makes no progress for {@code ns}. */
  void steal(CpuRunqueue rq, long ns) {
    if (ns <= 0 || rq.curr == null) {
      return;
    }
    updateCurr(rq);
    rq.pausedUntil = Math.max(rq.pausedUntil, now()) + ns;
    rq.stolenNs += ns;
    // The pending timer fires no later than the new completion and re-arms then, so many small
    // steals within one step cost no extra events.
    rq.completionTime = completionAt(rq, rq.curr, rq.speed);
  }

  /**
   * Charges balancing work done from {@code rq}'s context: stolen time, or an idle phase. Returns
   * whether it began an idle phase.
   */
  boolean chargeBalancing(CpuRunqueue rq, long ns) {
    if (ns <= 0) {
      return false;
    }
    if (rq.curr != null) {
      steal(rq, ns);
    } else if (rq.phase == CpuPhase.NONE) {
      beginPhase(rq, CpuPhase.IDLE_SOFTIRQ, ns);
      return true;
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------
  // Work and speed

  /** Recomputes the running task's speed and (re)arms its CPU timer. */
  void armTimer(CpuRunqueue rq) {
    Task task = rq.curr;
    if (task == null) {
      return;
    }
    long now = now();
    double speed = sim.performance.speed(rq.cpu, task.id, sim.perfView);
    long change = sim.performance.nextSpeedChangeNs(rq.cpu, task.id, sim.perfView);
    if (!(speed >= 0) || Double.isInfinite(speed)) {
      throw new IllegalStateException(
          "performance model gave speed " + speed + " for task " + task.id + " on CPU " + rq.cpu);
    }
    rq.speed = speed;
    rq.nextSpeedChange = change > now ? change : Long.MAX_VALUE;
    long completion = completionAt(rq, task, speed);
    rq.completionTime = completion;
    long when = Math.max(Math.min(completion, rq.nextSpeedChange), now);
    if (when == rq.timerAt) {
      // The live timer already fires then (a resync that changed nothing).
      return;
    }
    rq.timerAt = when;
    if (when != Long.MAX_VALUE) {
      loop.scheduleSlot(rq.cpu, when, cpuTimers[rq.cpu]);
    } else {
      loop.cancelSlot(rq.cpu);
    }
  }

  /** When {@code task}'s step completes at {@code speed}, after any pause. */
  private long completionAt(CpuRunqueue rq, Task task, double speed) {
    long start = Math.max(now(), rq.pausedUntil);
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
    updateCurr(rq);
    armTimer(rq);
  }

  void onCpuTimer(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    if (rq.curr == null) {
      return;
    }
    rq.timerAt = Long.MAX_VALUE;
    contextCpu = cpu;
    updateCurr(rq);
    if (now() >= rq.completionTime) {
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
        armTimer(rq);
      }
    } else {
      armTimer(rq);
    }
    afterEvent(cpu);
  }

  /** A hardware thread became busy or idle: its siblings' speed may change. */
  private void setPerfBusy(CpuRunqueue rq, boolean busy) {
    if (rq.perfBusy == busy) {
      return;
    }
    rq.perfBusy = busy;
    if (busy) {
      if (retainShortIdleTick && rq.curr == null && rq.idleSince >= 0) {
        // An interrupt or a task ended a hardware idle period: the governor's history.
        IdleGovernor.record(rq, now() - rq.idleSince);
      }
      rq.busySince = now();
    } else {
      rq.idleSince = now();
    }
    for (int sibling : siblingsOf[rq.cpu]) {
      CpuRunqueue other = rqs[sibling];
      if (other.curr != null) {
        resync(other);
      }
    }
  }

  /**
   * A memory-bound task starts or stops running on {@code cpu}: the other memory-bound tasks of
   * its node may change speed. Visits only the CPUs running one, not the whole node.
   */
  private void memoryBoundChanged(int cpu, Task task, int delta) {
    int node = nodeIndex[topology.nodeOf(cpu)];
    if (task.memoryHomeNode < 0) {
      // First touch: the task's pages land on the node it first runs on.
      task.memoryHomeNode = topology.nodeOf(cpu);
    }
    int home = nodeIndex[task.memoryHomeNode];
    memoryBoundPerNode[node] += delta;
    memoryHomes.changed(home, node, cpu, delta, now());
    memoryBoundCpus.clear(cpu);
    CpuMask nodeMask = nodeCpus[node];
    for (int other = memoryBoundCpus.firstAnd(nodeMask);
        other != CpuMask.NO_CPU;
        other = memoryBoundCpus.nextAnd(other, nodeMask)) {
      resync(rqs[other]);
    }
    if (home != node) {
      // Tasks whose memory is on the same node but which run elsewhere share its controllers.
      CpuMask homed = memoryHomes.cpusHomedOn(home);
      for (int other = homed.first(); other != CpuMask.NO_CPU; other = homed.next(other)) {
        if (other != cpu && !nodeMask.test(other)) {
          resync(rqs[other]);
        }
      }
    }
    if (delta > 0) {
      memoryBoundCpus.set(cpu);
    }
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
  private void setTimeState(CpuRunqueue rq, int state) {
    long now = now();
    long dt = now - rq.timeStateSince;
    switch (rq.timeState) {
      case 1 -> rq.taskNs += dt;
      case 2 -> rq.overheadNs += dt;
      default -> rq.idleNs += dt;
    }
    rq.timeState = state;
    rq.timeStateSince = now;
    sim.listener.cpuActivity(now, rq.cpu,
        state == 1 ? SimulationListener.CpuActivity.TASK
            : state == 2 ? SimulationListener.CpuActivity.BALANCING
            : SimulationListener.CpuActivity.IDLE,
        state == 1 && rq.curr != null ? rq.curr.id : -1);
  }

  // ---------------------------------------------------------------------------------------
  // Task programs

  /** Asks the running task's program for its next step and applies it. */
  private void runStep(CpuRunqueue rq, Task task) {
    for (int guard = 0; ; guard++) {
      if (guard > MAX_STEPS_PER_INSTANT) {
        throw new IllegalStateException(
            "program of " + task + " keeps blocking with pending wakeups at " + now() + " ns");
      }
      task.spinning = false;
      TaskProgramControl.Step step = control.ask(task);
      switch (step) {
        case RUN -> {
          task.remainingWork = control.work();
          task.spinning = control.spin();
          task.needsStep = false;
          syncMemoryBound(rq, task);
          return;
        }
        case SLEEP -> {
          dequeueCurr(rq, TaskState.SLEEPING);
          task.needsStep = true;
          task.sleepToken++;
          loop.schedule(now() + control.sleepNs(), new Event.SleepEnd(task.id, task.sleepToken));
          return;
        }
        case BLOCK -> {
          if (task.pendingWake) {
            task.pendingWake = false;
            continue;
          }
          dequeueCurr(rq, TaskState.BLOCKED);
          task.needsStep = true;
          return;
        }
        case EXIT -> {
          dequeueCurr(rq, TaskState.EXITED);
          return;
        }
        default -> throw new IllegalStateException("unknown step " + step);
      }
    }
  }

  /**
   * {@code TaskControl.wake()} from {@code waker} running on its CPU; {@code sync} is {@code
   * WF_SYNC} (a pipe or socket wakeup).
   */
  void wakeFromTask(Task waker, int taskId, boolean sync) {
    if (taskId < 0 || taskId >= sim.tasks.size()) {
      throw new IllegalArgumentException("task " + waker.id + " woke unknown task " + taskId);
    }
    wake(sim.tasks.get(taskId), waker.cpu, waker, sync);
  }

  private void wake(Task task, int wakingCpu, Task waker, boolean sync) {
    switch (task.state) {
      case BLOCKED -> tryToWakeUp(task, wakingCpu, waker,
          WakeupPlacement.WF_TTWU | (sync ? WakeupPlacement.WF_SYNC : 0));
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
      updateCurr(rq);
    }
    task.remainingWork = Math.min(task.remainingWork, SPIN_WAKE_DETECTION_WORK);
    if (running) {
      syncMemoryBound(rq, task);
      armTimer(rq);
    }
  }

  void onSleepEnd(int taskId, long token) {
    Task task = sim.tasks.get(taskId);
    if (task.state != TaskState.SLEEPING || token != task.sleepToken) {
      return;
    }
    // The hrtimer fires on the CPU the task slept on.
    int cpu = task.cpu;
    contextCpu = cpu;
    tryToWakeUp(task, cpu, rqs[cpu].curr, WakeupPlacement.WF_TTWU);
    afterEvent(cpu);
  }

  /**
   * Models {@code try_to_wake_up()}: {@code select_task_rq()}, migration accounting, {@code
   * ttwu_stat()}, {@code activate_task()} and {@code wakeup_preempt()}. {@code wakeFlags} is
   * {@code WF_TTWU}, with {@code WF_SYNC} for a sync wakeup. Sync changes only the placement:
   * the engine's {@link #wakeupPreempt} ignores it (the tip rework of NEXT_BUDDY in Nov 2025 used
   * WF_SYNC in wakeup preemption; NEXT_BUDDY is off in 7.1.5, kernel-facts §9, and that code was
   * not read).
   */
  private void tryToWakeUp(Task task, int wakingCpu, Task waker, int wakeFlags) {
    int prev = task.cpu;
    boolean racing = wakeupRaceWindowNs > 0;
    if (racing) {
      hideUnseenClaims(wakingCpu);
    }
    int cpu = sim.placement.selectTaskRq(task, prev, wakingCpu, wakeFlags, waker);
    if (racing) {
      sim.state.showClaims();
      if (sim.state.isIdle(cpu)) {
        recordClaim(cpu, wakingCpu);
      }
    }
    if (cpu != prev) {
      migrateBlockedAverages(task, rqs[prev]);
      setTaskCpu(task, cpu);
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
    task.wakeStampNs = now();
    CpuRunqueue rq = rqs[cpu];
    enqueue(rq, task, false);
    wakeupPreempt(rq, task);
  }

  /**
   * Shows the wakeup about to be placed on {@code wakingCpu} as idle every CPU that a wakeup from
   * another CPU claimed (queued a task on while it was idle) less than the race window ago and
   * that is not idle now: that wakeup's {@code ttwu_pending} write came after this one's scan
   * read the CPU ({@link EngineOptions#wakeupRaceWindowNs()}).
   */
  private void hideUnseenClaims(int wakingCpu) {
    long now = now();
    // The ring holds claims in time order: walk back from the newest while inside the window.
    for (int k = 1, i = claimNext; k <= CLAIMS; k++) {
      i = i == 0 ? CLAIMS - 1 : i - 1;
      int cpu = claimCpu[i];
      if (cpu < 0 || now - claimNs[i] >= wakeupRaceWindowNs) {
        return;
      }
      if (claimWaker[i] != wakingCpu && !sim.state.isIdle(cpu)) {
        sim.state.hideClaim(cpu);
      }
    }
  }

  /** Remembers that {@code wakingCpu}'s wakeup claimed idle CPU {@code cpu} now. */
  private void recordClaim(int cpu, int wakingCpu) {
    claimCpu[claimNext] = cpu;
    claimWaker[claimNext] = wakingCpu;
    claimNs[claimNext] = now();
    claimNext = (claimNext + 1) % CLAIMS;
  }

  /**
   * Equivalent of {@code remove_entity_load_avg()} for a sleeping task that wakes elsewhere: its
   * averages, synced to the old cfs_rq's last update, are removed there at its next update.
   */
  private static void migrateBlockedAverages(Task task, CpuRunqueue from) {
    if (!task.attached) {
      return;
    }
    seUpdate(task, from.cfs.lastUpdateTime, false, false);
    from.removedLoad += task.avg.loadAvg;
    from.removedUtil += task.avg.utilAvg;
    from.removedRunnable += task.avg.runnableAvg;
    task.attached = false;
  }

  /** Equivalent of {@code set_task_cpu()}: migration distance for the performance model. */
  private void setTaskCpu(Task task, int cpu) {
    int from = task.cpu;
    if (from != cpu) {
      task.lastMigrationDistance = migrationDistance(from, cpu);
      task.runSinceMigrationNs = 0;
      task.execStartNs = Task.EXEC_START_COLD;
      sim.listener.migration(now(), task.id, from, cpu);
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
   * Models {@code wakeup_preempt()} / {@code check_preempt_wakeup_fair()}: an idle CPU always
   * reschedules; a SCHED_IDLE current is preempted by a non-idle task; only SCHED_NORMAL wakees
   * preempt; a current task whose slice is used up ({@code update_deadline()}) is preempted;
   * otherwise the wakee preempts when it is what {@code __pick_eevdf()} would choose now, with the
   * current task kept while it is eligible and below its {@code vprot} (RUN_TO_PARITY, {@link
   * #protectUntil}). Slices are all equal here, so {@code PREEMPT_SHORT} never applies.
   */
  void wakeupPreempt(CpuRunqueue rq, Task task) {
    Task curr = rq.curr;
    if (curr == null) {
      resched(rq);
      return;
    }
    if (curr == task) {
      return;
    }
    if (curr.policy.isIdlePolicy() && !task.policy.isIdlePolicy()) {
      resched(rq);
      return;
    }
    if (!sim.options.wakeupPreemption() || task.policy != SchedPolicy.NORMAL) {
      return;
    }
    updateCurr(rq);
    if (curr.vruntime >= curr.deadline) {
      curr.deadline = curr.vruntime + vslice(curr);
      resched(rq);
      return;
    }
    long avg = rq.avgVruntime();
    if (curr.vruntime < curr.vprot && curr.vruntime <= avg) {
      return;
    }
    if (rq.pickEevdf(avg) == task) {
      resched(rq);
    }
  }

  /** Equivalent of {@code resched_curr()}: at once for the local CPU, by IPI for another. */
  void resched(CpuRunqueue rq) {
    if (rq.ilbVisitNs > 0) {
      // The CPU runs an ILB pass, which stops at its next need_resched() check.
      sim.nohz.abortIlbPass(rq);
    }
    if (rq.cpu == contextCpu) {
      rq.needResched = true;
      return;
    }
    if (rq.phase != CpuPhase.NONE) {
      rq.needResched = true;
      return;
    }
    if (!rq.reschedIpiPending) {
      rq.reschedIpiPending = true;
      loop.schedule(now() + ipiDelayNs(rq.cpu), new Event.ReschedIpi(rq.cpu));
    }
  }

  /**
   * Delay from sending an IPI to {@code cpu} until it acts on it: {@code ipi_latency}, plus the
   * exit from a core-level deep idle state when {@code -E deep_idle_exit} is set and {@code cpu}'s
   * whole core is in one ({@link #coreInDeepIdle}); such exits are counted as {@code
   * engine.deep_idle_exits}. Stands for the target's {@code cpuidle} state's {@code exit_latency}.
   */
  long ipiDelayNs(int cpu) {
    if (coreInDeepIdle(cpu)) {
      if (deepIdleExits == null) {
        deepIdleExits = sim.counters.counter("engine.deep_idle_exits");
      }
      deepIdleExits.add(1);
      return ipiLatencyNs + deepIdleExitNs;
    }
    return ipiLatencyNs;
  }

  /**
   * Whether {@code cpu} and every SMT sibling have been hardware-idle (no task, no balancing
   * work) for at least {@code -E deep_idle_residency}: the governor has let the core enter its
   * core-level deep state. False when no deep state is modelled.
   */
  boolean coreInDeepIdle(int cpu) {
    if (deepIdleExitNs <= 0) {
      return false;
    }
    long since = now() - deepIdleResidencyNs;
    if (!hardwareIdleSince(rqs[cpu], since)) {
      return false;
    }
    for (int sibling : siblingsOf[cpu]) {
      if (!hardwareIdleSince(rqs[sibling], since)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hardwareIdleSince(CpuRunqueue rq, long since) {
    return !rq.perfBusy && rq.idleSince <= since;
  }

  void onReschedIpi(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    rq.reschedIpiPending = false;
    contextCpu = cpu;
    schedule(cpu);
    afterEvent(cpu);
  }

  /** Runs a local reschedule the event requested, once its handler is done. */
  void afterEvent(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    if (rq.needResched && rq.phase == CpuPhase.NONE) {
      schedule(cpu);
    }
    contextCpu = CpuMask.NO_CPU;
  }

  // ---------------------------------------------------------------------------------------
  // Balancer callbacks

  /**
   * {@code detach_task()} + {@code attach_task()} for the balancer: moves a queued, not running
   * task to {@code dstCpu} and lets it preempt there.
   */
  void migrateQueuedTask(int taskId, int dstCpu) {
    Task task = sim.tasks.get(taskId);
    if (task.state != TaskState.QUEUED) {
      throw new IllegalStateException(
          "the balancer may move only queued, not running tasks; " + task + " is " + task.state);
    }
    CpuRunqueue src = rqs[task.cpu];
    checkAllowed(task, dstCpu);
    dequeueQueued(src, task);
    setTaskCpu(task, dstCpu);
    CpuRunqueue dst = rqs[dstCpu];
    enqueue(dst, task, false);
    wakeupPreempt(dst, task);
  }

  /** Queues the stopper on {@code busiestCpu}; false if one is pending there already. */
  boolean requestActiveBalance(int busiestCpu, int targetCpu) {
    CpuRunqueue rq = rqs[busiestCpu];
    if (rq.activeBalancePending) {
      return false;
    }
    rq.activeBalancePending = true;
    long delay = busiestCpu == contextCpu ? 0 : ipiLatencyNs;
    loop.schedule(now() + delay, new Event.ActiveBalanceStop(busiestCpu, targetCpu));
    return true;
  }

  /**
   * Runs {@code active_load_balance_cpu_stop} on {@code busiestCpu}. The stopper is the highest
   * priority task, so the fair task that was running is put back on its queue first; that is what
   * lets active balancing move a lone CPU hog or a misfit task, which no periodic pass can.
   */
  void onActiveBalance(int busiestCpu, int targetCpu) {
    CpuRunqueue rq = rqs[busiestCpu];
    rq.activeBalancePending = false;
    contextCpu = busiestCpu;
    if (rq.curr != null && rq.phase == CpuPhase.NONE) {
      putPrev(rq);
      rq.needResched = true;
    }
    cost.reset();
    sim.balancer.activeLoadBalanceCpuStop(busiestCpu, targetCpu, cost);
    chargeBalancing(rq, sim.setup.costModel().toNs(cost));
    afterEvent(busiestCpu);
  }

  /** Equivalent of {@code update_misfit_status()} (asymmetric capacity only). */
  private void updateMisfitStatus(CpuRunqueue rq) {
    if (!domains.hasAsymCpuCapacity()) {
      return;
    }
    Task task = rq.curr;
    if (task == null || task.nrAllowed == 1) {
      rq.misfitTaskLoad = 0;
      return;
    }
    long util = Math.max(task.avg.utilAvg, task.utilEst);
    if (util * 1280 < (long) topology.capacity(rq.cpu) * 1024
        || topology.capacity(rq.cpu) >= topology.maxCapacity()) {
      rq.misfitTaskLoad = 0;
    } else {
      rq.misfitTaskLoad = Math.max(1, sim.host.taskHLoad(task.id));
    }
  }

  // ---------------------------------------------------------------------------------------
  // The tick

  void onJiffy(long jiffy) {
    jiffies = jiffy;
    if (skewTickStepNs > 0) {
      skewedTickFrom(0);
    } else {
      tickSnapshot.copyFrom(tickRunning);
      for (int cpu = tickSnapshot.first(); cpu != CpuMask.NO_CPU; cpu = tickSnapshot.next(cpu)) {
        if (tickRunning.test(cpu)) {
          schedTick(rqs[cpu]);
        }
      }
    }
    if (jiffy >= nextSisUpdateJiffy) {
      sim.placement.updateIdleCpuScan();
      nextSisUpdateJiffy = jiffy + sim.placement.idleScanPeriodJiffies();
    }
    if (sim.invariants != null && jiffy % sim.options.invariantSweepJiffies() == 0) {
      sim.invariants.sweep();
    }
    long next = tickTime(jiffy + 1);
    if (next < sim.setup.durationNs()) {
      loop.schedule(next, new Event.JiffyTick(jiffy + 1));
    }
  }

  /**
   * {@code skew_tick=1} ({@code tick_setup_sched_timer()}): CPU {@code cpu}'s tick fires {@code
   * cpu × skewTickStepNs} after the jiffy boundary. The ticks of one jiffy run as a chain: the
   * first CPU from {@code fromCpu} whose tick is running fires now if its offset has come, else
   * one reused event is scheduled at its offset; a CPU whose tick restarts after its offset in
   * this jiffy waits for the next one, as its hrtimer is forwarded to its next expiry.
   */
  private void skewedTickFrom(int fromCpu) {
    long boundary = tickTime(jiffies);
    int first = fromCpu == 0 ? tickRunning.first() : tickRunning.next(fromCpu - 1);
    for (int cpu = first; cpu != CpuMask.NO_CPU; cpu = tickRunning.next(cpu)) {
      long at = boundary + cpu * skewTickStepNs;
      if (at > now()) {
        if (at < sim.setup.durationNs()) {
          skewNextCpu = cpu;
          loop.schedule(at, skewedTick);
        }
        return;
      }
      schedTick(rqs[cpu]);
    }
  }

  void onSkewedTick() {
    skewedTickFrom(skewNextCpu);
  }

  /**
   * Models {@code sched_tick()} on one CPU: accounting and PELT of the running task, the slice
   * ({@code update_deadline()}), {@code sched_balance_trigger()} with {@code
   * nohz_balancer_kick()}, the SCHED_SOFTIRQ it raises, and the nohz_full tick stop.
   */
  private void schedTick(CpuRunqueue rq) {
    int cpu = rq.cpu;
    contextCpu = cpu;
    long now = now();
    Task curr = rq.curr;
    if (curr != null) {
      updateCurr(rq);
      seUpdate(curr, now, true, true);
      cfsUpdate(rq, now);
      if (curr.vruntime >= curr.deadline) {
        curr.deadline = curr.vruntime + vslice(curr);
        if (rq.nr > 1) {
          rq.needResched = true;
        }
      }
      updateMisfitStatus(rq);
    }
    boolean idle = sim.state.isIdle(cpu);
    if (hasDomains[cpu]) {
      boolean raise = jiffies >= sim.balancer.nextBalance(cpu);
      sim.nohz.balancerKick(rq, idle);
      if (raise) {
        runTickSoftirq(rq, idle);
      }
    }
    afterEvent(cpu);
    if (idle && retainShortIdleTick && cpu != timekeeperCpu) {
      // The retained tick woke an idle CPU: the governor discounts it and decides again.
      IdleGovernor.record(rq, IdleGovernor.TICK_WAKEUP_NS);
      if (rq.phase == CpuPhase.NONE && rq.curr == null && rq.nr == 0) {
        idleLoopTickStop(rq);
      }
    }
    if (rq.curr != null && rq.nr == 1 && nohzFull.test(cpu) && !rq.tickStopped) {
      // tick_nohz_full_update_tick(): one task, nothing else needs the tick.
      rq.tickStopped = true;
      tickRunning.clear(cpu);
    }
  }

  /** {@code sched_balance_softirq()} raised by the tick. */
  private void runTickSoftirq(CpuRunqueue rq, boolean idle) {
    stats.softirqsFromTick++;
    updateBlockedAverages(rq.cpu);
    cost.reset();
    sim.balancer.balanceDomains(rq.cpu, idle ? IdleType.IDLE : IdleType.NOT_IDLE, cost);
    notifyPeriodicBalance(rq.cpu);
    long ns = sim.setup.costModel().toNs(cost) + sim.options.blockedLoadUpdateNs();
    chargeBalancing(rq, ns);
  }

  void notifyPeriodicBalance(int cpu) {
    List<WakeupPolicy> policies = sim.wakeupPolicies;
    for (int i = 0; i < policies.size(); i++) {
      policies.get(i).onPeriodicBalance(cpu, sim.state);
    }
  }

  /** Tasks of the run, for views. */
  List<Task> tasks() {
    return sim.tasks;
  }
}
