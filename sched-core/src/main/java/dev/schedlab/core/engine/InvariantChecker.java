package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.HousekeepingType;
import java.util.Locale;

/**
 * Engine invariants; a violation throws {@link InvariantViolation} naming the invariant, the
 * simulated time and the CPU or task. The cheap ones run in every run, at a cost measured in
 * benchmarks/README.md; the rest only when {@link EngineOptions#checkInvariants()} is on ({@code -E
 * check_invariants=true}). Local checks run at the event that could break them; {@link #sweep()}
 * checks global consistency every {@link EngineOptions#invariantSweepJiffies()} jiffies and at the
 * end.
 *
 * <p>Always:
 *
 * <ul>
 *   <li>the ILB chosen was online, idle and a housekeeping CPU;
 *   <li>each runnable task is on exactly one runqueue, its own CPU's, on an allowed CPU (checked at
 *       every enqueue and migration by {@link FairClass} as well), and the running task is its
 *       CPU's current;
 *   <li>runqueue counters ({@code nr_running}, SCHED_IDLE count, load weight) match the tasks.
 * </ul>
 *
 * <p>With {@code check_invariants}:
 *
 * <ul>
 *   <li>{@code nohz.idle_cpus_mask} equals the set of CPUs with {@code nohz_tick_stopped}, holds
 *       only CPUs with domains, and the LLC {@code nr_busy_cpus} agree with it;
 *   <li>under a registration rule that registers idle entries with an already stopped tick (the
 *       fixed rule), every idle CPU with a stopped tick and domains is in the mask;
 *   <li>before every ILB selection and at every sweep, the state view's {@link
 *       EngineState#idleMask()} holds exactly the CPUs that are {@code idle_cpu()} and {@link
 *       EngineState#idleCoreMask()} exactly those that are also {@code is_core_idle()} (the masks
 *       are maintained incrementally; a mutation path that forgot to refresh them shows here): a
 *       walk over every CPU at every kick, the costly part;
 *   <li>at every sweep, a CPU's running task is counted among its node's running memory-bound tasks
 *       exactly when it does memory-bound work now (not spinning), and the per-node counts equal
 *       those tasks.
 * </ul>
 */
final class InvariantChecker {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final ImmutableCpuMask online;
  private final ImmutableCpuMask housekeeping;
  private final TaskProgress progress;
  private final SdLlcShared llcShared;

  /** Whether the expensive checks run too ({@code check_invariants}). */
  private final boolean full;

  /** Whether the registration rule has registered this CPU on an idle entry with a stopped tick. */
  private final boolean[] registersStoppedTick;

  /**
   * @param full whether to run the expensive checks too
   */
  InvariantChecker(EngineContext ctx, TaskProgress progress, SdLlcShared llcShared, boolean full) {
    this.ctx = ctx;
    this.full = full;
    this.rqs = ctx.rqs;
    this.online = ctx.topology.onlineMask();
    this.housekeeping = ctx.topology.housekeeping().mask(HousekeepingType.KERNEL_NOISE);
    this.progress = progress;
    this.llcShared = llcShared;
    int n = ctx.topology.nrCpuIds();
    this.registersStoppedTick = new boolean[n];
  }

  /**
   * Records what the registration rule answered at an idle entry. Once it has registered a CPU
   * whose tick was already stopped, it is the fixed rule for that CPU, and from then on "every idle
   * CPU with a stopped tick is in the mask" is an invariant there.
   */
  private void observeRegistration(int cpu, boolean tickWasAlreadyStopped, boolean registered) {
    if (tickWasAlreadyStopped && registered) {
      registersStoppedTick[cpu] = true;
    }
  }

  void checkIlbChoice(int kicker, int ilb) {
    if (ilb < 0 || ilb >= rqs.length || !online.test(ilb)) {
      throw violation(
          ctx,
          "ILB CPU online",
          "the ILB selector chose CPU "
              + ilb
              + ", which is not an online CPU (kicker CPU "
              + kicker
              + ")");
    }
    if (!ctx.state.isIdle(ilb)) {
      throw violation(
          ctx,
          "ILB CPU idle",
          "the ILB selector chose CPU " + ilb + ", which is not idle (kicker CPU " + kicker + ")");
    }
    if (!housekeeping.test(ilb)) {
      throw violation(
          ctx,
          "ILB CPU housekeeping",
          "the ILB selector chose CPU "
              + ilb
              + ", which is not a housekeeping CPU (nohz_full; kicker CPU "
              + kicker
              + ")");
    }
  }

  /**
   * The exception for a broken invariant: {@code invariant 'NAME' violated at T s: WHAT}.
   *
   * @param name the invariant, in a few words
   * @param what the CPU or task and what was found
   */
  static InvariantViolation violation(EngineContext ctx, String name, String what) {
    return new InvariantViolation(
        String.format(
            Locale.ROOT,
            "invariant '%s' violated at %.6f s simulated: %s",
            name,
            ctx.now() / 1e9,
            what));
  }

  /** Both idle masks of the state view equal the per-CPU predicates they index. */
  void checkIdleMasks() {
    if (!full) {
      return;
    }
    EngineState state = ctx.state;
    CpuMask idle = state.idleMask();
    CpuMask idleCore = state.idleCoreMask();
    for (int cpu = 0; cpu < rqs.length; cpu++) {
      boolean isIdle = state.idleCpuNow(cpu);
      if (idle.test(cpu) != isIdle) {
        throw violation(
            ctx,
            "idle mask",
            "CPU "
                + cpu
                + ": idle mask says "
                + idle.test(cpu)
                + " but idle_cpu() is "
                + isIdle
                + " ("
                + rqs[cpu]
                + ")");
      }
      boolean fullyIdle = isIdle && state.coreIdleNow(cpu);
      if (idleCore.test(cpu) != fullyIdle) {
        throw violation(
            ctx,
            "idle-core mask",
            "CPU "
                + cpu
                + ": idle-core mask says "
                + idleCore.test(cpu)
                + " but idle_cpu() && is_core_idle() is "
                + fullyIdle);
      }
    }
  }

  void afterIdleEntry(CpuRunqueue rq, boolean tickWasAlreadyStopped, boolean registered) {
    if (!full) {
      return;
    }
    observeRegistration(rq.cpu, tickWasAlreadyStopped, registered);
    checkNohzCpu(rq.cpu);
  }

  private void checkNohzCpu(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    boolean inMask = ctx.nohzIdleMask.test(cpu);
    if (inMask != rq.nohzTickStopped) {
      throw violation(
          ctx,
          "NOHZ mask is the stopped ticks",
          "CPU "
              + cpu
              + ": nohz.idle_cpus_mask says "
              + inMask
              + " but rq->nohz_tick_stopped is "
              + rq.nohzTickStopped);
    }
    if (inMask && ctx.domains.domains(cpu).isEmpty()) {
      throw violation(
          ctx,
          "NOHZ mask holds CPUs with domains",
          "CPU " + cpu + " without domains is in nohz.idle_cpus_mask");
    }
    if (registersStoppedTick[cpu]
        && ctx.state.isIdle(cpu)
        && rq.inIdleLoop
        && rq.tickStopped
        && !ctx.domains.domains(cpu).isEmpty()
        && !inMask) {
      throw violation(
          ctx,
          "stopped idle CPUs registered",
          "CPU "
              + cpu
              + " is idle with its tick stopped but missing from nohz.idle_cpus_mask"
              + " under a registration rule that registers such CPUs");
    }
  }

  /** The global consistency sweep: the cheap part always, the rest with the full checks. */
  void sweep() {
    int tasks = ctx.tasks.size();
    int queued = 0;
    for (int id = 0; id < tasks; id++) {
      Task task = ctx.tasks.get(id);
      boolean runnable = task.state == TaskState.QUEUED || task.state == TaskState.RUNNING;
      if (!runnable) {
        continue;
      }
      queued++;
      CpuRunqueue rq = rqs[task.cpu];
      int copies = 0;
      for (int i = 0; i < rq.nr; i++) {
        if (rq.tasks[i] == task) {
          copies++;
        }
      }
      if (copies != 1) {
        throw violation(
            ctx,
            "task on exactly one runqueue",
            task + " appears " + copies + " times on CPU " + task.cpu + "'s runqueue");
      }
      if (!task.allowed.test(task.cpu)) {
        throw violation(
            ctx,
            "affinity respected",
            "affinity violated: " + task + " allowed " + task.allowed.toCpuList());
      }
      if (task.state == TaskState.RUNNING && rq.curr != task) {
        throw violation(
            ctx,
            "running task is current",
            task
                + " is RUNNING but CPU "
                + task.cpu
                + " runs "
                + (rq.curr == null ? "idle" : rq.curr.toString()));
      }
    }
    long total = 0;
    long idlePolicyTotal = 0;
    for (int cpu = 0; cpu < rqs.length; cpu++) {
      CpuRunqueue rq = rqs[cpu];
      int idlePolicy = 0;
      long weight = 0;
      for (int i = 0; i < rq.nr; i++) {
        Task t = rq.tasks[i];
        if (t.cpu != cpu || !(t.state == TaskState.QUEUED || t.state == TaskState.RUNNING)) {
          throw violation(
              ctx, "task on exactly one runqueue", t + " is on CPU " + cpu + "'s runqueue");
        }
        weight += t.weight;
        if (t.policy.isIdlePolicy()) {
          idlePolicy++;
        }
      }
      if (weight != rq.loadWeight || idlePolicy != rq.nrIdlePolicy) {
        throw violation(
            ctx,
            "runqueue counters",
            "CPU "
                + cpu
                + " runqueue counters drifted: weight "
                + rq.loadWeight
                + " vs "
                + weight
                + ", SCHED_IDLE "
                + rq.nrIdlePolicy
                + " vs "
                + idlePolicy);
      }
      if (rq.curr != null && rq.curr.cpu != cpu) {
        throw violation(ctx, "running task is current", "CPU " + cpu + " runs " + rq.curr);
      }
      total += rq.nr;
      idlePolicyTotal += rq.nrIdlePolicy;
      if (full && !rq.lbRowInSync()) {
        throw violation(
            ctx,
            "balancing row",
            "CPU "
                + cpu
                + "'s balancing row is stale: nr_running "
                + rq.nr
                + ", load_avg "
                + rq.cfs.loadAvg
                + ", runnable_avg "
                + rq.cfs.runnableAvg
                + ", util_avg "
                + rq.cfs.utilAvg
                + ", util_est "
                + rq.utilEstSum);
      }
      if (full && online.test(cpu)) {
        checkNohzCpu(cpu);
      }
    }
    if (total != queued || total != ctx.totalNrRunning) {
      throw violation(
          ctx,
          "nr_running total",
          "runqueues hold "
              + total
              + " tasks, "
              + queued
              + " tasks are runnable, total counter "
              + ctx.totalNrRunning);
    }
    if (idlePolicyTotal != ctx.queuedIdlePolicyTasks) {
      throw violation(
          ctx,
          "SCHED_IDLE total",
          "queued SCHED_IDLE tasks counter "
              + ctx.queuedIdlePolicyTasks
              + " but runqueues hold "
              + idlePolicyTotal);
    }
    if (full) {
      checkNrBusy();
      checkIdleMasks();
      checkMemoryBound();
    }
  }

  private void checkMemoryBound() {
    for (int node : ctx.topology.nodes()) {
      int expected = 0;
      CpuMask cpus = ctx.topology.nodeMask(node);
      for (int cpu = cpus.firstAnd(online);
          cpu != CpuMask.NO_CPU;
          cpu = cpus.nextAnd(cpu, online)) {
        Task curr = rqs[cpu].curr;
        boolean memoryWork = curr != null && curr.currentWorkClass() == WorkClass.MEMORY;
        if (curr != null && memoryWork != curr.memoryCounted) {
          throw violation(
              ctx,
              "memory-bound count",
              curr
                  + (memoryWork ? " does" : " does not")
                  + " memory-bound work but is"
                  + (curr.memoryCounted ? "" : " not")
                  + " counted as a running memory-bound task");
        }
        if (memoryWork) {
          expected++;
        }
      }
      if (progress.memoryBoundRunning(node) != expected) {
        throw violation(
            ctx,
            "memory-bound count",
            "node "
                + node
                + " counts "
                + progress.memoryBoundRunning(node)
                + " running memory-bound tasks, expected "
                + expected);
      }
    }
  }

  private void checkNrBusy() {
    int[] expected = new int[llcShared.llcSlots()];
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      int llc = ctx.domains.llcId(cpu);
      if (llc >= 0 && !ctx.nohzIdleMask.test(cpu)) {
        expected[llc]++;
      }
    }
    for (int llc = 0; llc < expected.length; llc++) {
      if (ctx.domains.llcCount() > llc && expected[llc] != llcShared.nrBusyCpus(llc)) {
        throw violation(
            ctx,
            "nr_busy_cpus",
            "LLC "
                + llc
                + " nr_busy_cpus is "
                + llcShared.nrBusyCpus(llc)
                + ", expected "
                + expected[llc]
                + " from nohz.idle_cpus_mask");
      }
    }
  }
}
