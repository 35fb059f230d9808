package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceCost;
import dev.schedlab.core.balance.LoadBalancer;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.IdleType;

/**
 * The scheduler tick, {@code sched_tick()} (formerly {@code scheduler_tick()}) on every CPU whose
 * tick runs: one event per jiffy walks them (the kernel's default {@code skew_tick=0}: all CPUs
 * tick together), or with {@link EngineOptions#skewTick()} one reused event walks that jiffy's CPUs
 * at their {@code tick_setup_sched_timer()} offsets. Each tick charges the running task and its
 * PELT, ends its slice, runs {@code sched_balance_trigger()} with {@code nohz_balancer_kick()} and
 * the SCHED_SOFTIRQ it raises, and stops the tick of a busy nohz_full CPU running one task. Also
 * refreshes SIS_UTIL's scan depth and runs the invariant sweep.
 */
final class SchedTick {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final TickSched tick;
  private final FairClass fair;
  private final PeltUpdates pelt;
  private final NohzBalancing nohz;
  private final LoadBalancer balancer;
  private final BalancingTime balancingTime;
  private final SdLlcShared llcShared;
  private final IdleLoop idleLoop;
  private final CoreSchedule core;
  private final WakeupPolicyChain chain;

  /** Cheap checks always; the expensive ones only with {@code check_invariants}. */
  private final InvariantChecker invariants;

  private final boolean retainShortIdleTick;

  /** Whether each CPU has sched domains ({@code !on_null_domain()}). */
  private final boolean[] hasDomains;

  private final MutableCpuMask tickSnapshot;

  /** {@code (TICK_NSEC / 2) / num_possible_cpus()} with {@code skew_tick=1}, else 0. */
  private final long skewTickStepNs;

  private final Event.SkewedTick skewedTick = new Event.SkewedTick();
  private final BalanceCost cost = new BalanceCost();
  private int skewNextCpu;
  private long nextSisUpdateJiffy;

  /** CPUs of the tick snapshot whose tick data {@link #touchAheadFrom} reads at once. */
  private static final int TOUCH_AHEAD = 64;

  /** Keeps {@link #touchAheadFrom}'s reads live. */
  private long touchSink;

  /** Whether the machine is wide enough for {@link #touchAheadFrom} to pay. */
  private final boolean touchAhead;

  SchedTick(
      EngineContext ctx,
      TickSched tick,
      FairClass fair,
      PeltUpdates pelt,
      NohzBalancing nohz,
      LoadBalancer balancer,
      BalancingTime balancingTime,
      SdLlcShared llcShared,
      IdleLoop idleLoop,
      CoreSchedule core,
      WakeupPolicyChain chain,
      InvariantChecker invariants) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.tick = tick;
    this.fair = fair;
    this.pelt = pelt;
    this.nohz = nohz;
    this.balancer = balancer;
    this.balancingTime = balancingTime;
    this.llcShared = llcShared;
    this.idleLoop = idleLoop;
    this.core = core;
    this.chain = chain;
    this.invariants = invariants;
    this.retainShortIdleTick = ctx.options.retainShortIdleTick();
    int nrCpuIds = ctx.topology.nrCpuIds();
    CpuMask online = ctx.topology.onlineMask();
    this.hasDomains = new boolean[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      hasDomains[cpu] =
          ctx.topology.isPossible(cpu) && !ctx.domains.domains(cpu).isEmpty() && online.test(cpu);
    }
    this.tickSnapshot = CpuMasks.mutable(nrCpuIds);
    this.touchAhead = nrCpuIds >= EngineContext.TOUCH_AHEAD_MIN_CPUS;
    this.skewTickStepNs = ctx.options.skewTick() ? ctx.tickTime(1) / 2 / nrCpuIds : 0;
  }

  /** Schedules the first jiffy. */
  void start() {
    nextSisUpdateJiffy = 0;
    ctx.loop.schedule(ctx.tickTime(1), new Event.JiffyTick(1));
  }

  /** The tick at jiffy {@code jiffy}'s boundary: every CPU whose tick runs, then the next one. */
  void onJiffy(long jiffy) {
    ctx.setJiffies(jiffy);
    CpuMask tickRunning = tick.running();
    if (skewTickStepNs > 0) {
      skewedTickFrom(0);
    } else {
      tickSnapshot.copyFrom(tickRunning);
      int touchedTo = touchAhead ? tickSnapshot.first() : CpuMask.NO_CPU;
      for (int cpu = tickSnapshot.first(); cpu != CpuMask.NO_CPU; cpu = tickSnapshot.next(cpu)) {
        if (cpu == touchedTo) {
          touchedTo = touchAheadFrom(cpu);
        }
        if (tickRunning.test(cpu)) {
          schedTick(rqs[cpu]);
        }
      }
    }
    if (jiffy >= nextSisUpdateJiffy) {
      llcShared.updateIdleCpuScan();
      nextSisUpdateJiffy = jiffy + llcShared.idleScanPeriodJiffies();
    }
    if (jiffy % ctx.options.invariantSweepJiffies() == 0) {
      invariants.sweep();
    }
    long next = ctx.tickTime(jiffy + 1);
    if (next < ctx.durationNs) {
      ctx.loop.schedule(next, new Event.JiffyTick(jiffy + 1));
    }
  }

  /**
   * Reads, for up to {@link #TOUCH_AHEAD} CPUs of the tick snapshot from {@code from}, the
   * runqueue, running task and PELT averages the tick reads first. These loads do not depend on one
   * another, so the processor overlaps their cache misses; the tick that follows finds them in
   * cache. On wide machines (thousands of busy CPUs per jiffy) each one otherwise misses in turn.
   * Changes nothing the simulation computes. Returns the first CPU not read, or {@code NO_CPU}.
   */
  private int touchAheadFrom(int from) {
    long sink = 0;
    int cpu = from;
    for (int n = 0; n < TOUCH_AHEAD && cpu != CpuMask.NO_CPU; n++, cpu = tickSnapshot.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      // Both ends of each PELT average (80 bytes: two cache lines) and of the runqueue's
      // accounting fields.
      sink += rq.cfs.lastUpdateTime + rq.cfs.utilAvg + rq.execClock + (long) rq.soloSpeed;
      Task curr = rq.curr;
      if (curr != null) {
        sink += curr.avg.lastUpdateTime + curr.avg.utilAvg;
        sink += curr.vruntime + curr.weight + curr.execStartNs;
      }
    }
    touchSink += sink;
    return cpu;
  }

  /**
   * {@code skew_tick=1} ({@code tick_setup_sched_timer()}): CPU {@code cpu}'s tick fires {@code cpu
   * × skewTickStepNs} after the jiffy boundary. The ticks of one jiffy run as a chain: the first
   * CPU from {@code fromCpu} whose tick is running fires now if its offset has come, else one
   * reused event is scheduled at its offset; a CPU whose tick restarts after its offset in this
   * jiffy waits for the next one, as its hrtimer is forwarded to its next expiry.
   */
  private void skewedTickFrom(int fromCpu) {
    long boundary = ctx.tickTime(ctx.jiffies());
    CpuMask tickRunning = tick.running();
    int first = fromCpu == 0 ? tickRunning.first() : tickRunning.next(fromCpu - 1);
    for (int cpu = first; cpu != CpuMask.NO_CPU; cpu = tickRunning.next(cpu)) {
      long at = boundary + cpu * skewTickStepNs;
      if (at > ctx.now()) {
        if (at < ctx.durationNs) {
          skewNextCpu = cpu;
          ctx.loop.schedule(at, skewedTick);
        }
        return;
      }
      schedTick(rqs[cpu]);
    }
  }

  /** The next tick of the jiffy's {@code skew_tick} chain is due. */
  void onSkewedTick() {
    skewedTickFrom(skewNextCpu);
  }

  /**
   * Models {@code sched_tick()} on one CPU: accounting and PELT of the running task, the slice
   * ({@code update_deadline()}), {@code sched_balance_trigger()} with {@code nohz_balancer_kick()},
   * the SCHED_SOFTIRQ it raises, and the nohz_full tick stop.
   */
  private void schedTick(CpuRunqueue rq) {
    int cpu = rq.cpu;
    ctx.contextCpu = cpu;
    long now = ctx.now();
    Task curr = rq.curr;
    if (curr != null) {
      rq.updateCurr(now);
      PeltUpdates.seUpdate(curr, now, true, true);
      PeltUpdates.cfsUpdate(rq, now);
      if (curr.vruntime >= curr.deadline) {
        curr.deadline = curr.vruntime + fair.vslice(curr);
        if (rq.nr > 1) {
          rq.needResched = true;
        }
      }
      pelt.updateMisfitStatus(rq);
    }
    boolean idle = ctx.state.isIdle(cpu);
    if (hasDomains[cpu]) {
      boolean raise = ctx.jiffies() >= balancer.nextBalance(cpu);
      nohz.balancerKick(rq, idle);
      if (raise) {
        runTickSoftirq(rq, idle);
      }
    }
    core.afterEvent(cpu);
    if (idle && retainShortIdleTick && cpu != tick.timekeeperCpu()) {
      // The retained tick woke an idle CPU: the governor discounts it and decides again.
      IdleGovernor.record(rq, IdleGovernor.TICK_WAKEUP_NS);
      if (rq.phase == CpuPhase.NONE && rq.curr == null && rq.nr == 0) {
        idleLoop.tickStop(rq);
      }
    }
    if (rq.curr != null && rq.nr == 1 && tick.isNohzFull(cpu) && !rq.tickStopped) {
      // tick_nohz_full_update_tick(): one task, nothing else needs the tick.
      tick.stop(rq);
    }
  }

  /**
   * A timer expiry on a tickless idle CPU ({@link BackgroundIrqs}): {@code tick_nohz_handler()}
   * runs {@code sched_tick()} there, whose {@code sched_balance_trigger()} raises SCHED_SOFTIRQ
   * when {@code rq->next_balance} is due; {@code nohz_balancer_kick()} returns at once for an idle
   * CPU and the tick stays stopped.
   */
  void timerExpiryOnIdle(CpuRunqueue rq) {
    int cpu = rq.cpu;
    ctx.contextCpu = cpu;
    if (hasDomains[cpu] && ctx.jiffies() >= balancer.nextBalance(cpu)) {
      runTickSoftirq(rq, true);
    }
    core.afterEvent(cpu);
  }

  /** {@code sched_balance_softirq()} raised by the tick. */
  private void runTickSoftirq(CpuRunqueue rq, boolean idle) {
    ctx.stats.softirqsFromTick++;
    pelt.updateBlockedAverages(rq.cpu);
    cost.reset();
    balancer.balanceDomains(rq.cpu, idle ? IdleType.IDLE : IdleType.NOT_IDLE, cost);
    chain.notifyPeriodicBalance(rq.cpu);
    long ns = ctx.costModel.toNs(cost) + ctx.options.blockedLoadUpdateNs();
    balancingTime.chargeBalancing(rq, ns);
  }
}
