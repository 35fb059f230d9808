package dev.schedlab.core.engine;

import static dev.schedlab.core.engine.EngineStatistics.NOHZ_BALANCE_KICK;
import static dev.schedlab.core.engine.EngineStatistics.NOHZ_KICK_MASK;
import static dev.schedlab.core.engine.EngineStatistics.NOHZ_NEWILB_KICK;
import static dev.schedlab.core.engine.EngineStatistics.NOHZ_NEXT_KICK;
import static dev.schedlab.core.engine.EngineStatistics.NOHZ_STATS_KICK;

import dev.schedlab.core.balance.BalanceCost;
import dev.schedlab.core.balance.BalanceCostModel;
import dev.schedlab.core.balance.LoadBalancer;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.HousekeepingType;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import org.eclipse.collections.api.block.procedure.primitive.IntProcedure;

/**
 * NOHZ idle balancing, as in kernel/sched/fair.c: the global {@code nohz} state ({@code
 * idle_cpus_mask}, {@code has_blocked_load}, {@code needs_update}, {@code next_balance}, {@code
 * next_blocked}), per-LLC {@code nr_busy_cpus}, registration and exit, the kick decision on busy
 * ticks, the ILB choice through the run's {@code IlbSelector}, the kick IPI, and {@code
 * _nohz_idle_balance()} on the chosen CPU. The per-LLC {@code nr_busy_cpus} it maintains live in
 * {@link SdLlcShared}.
 *
 * <p>The ILB's run time is {@code costModel.baseNs} (softirq entry) + {@link
 * EngineOptions#ilbPerCpuVisitedNs()} per CPU of the mask visited + {@link
 * EngineOptions#blockedLoadUpdateNs()} per blocked-load update + the cost model's variable time of
 * every {@code sched_balance_domains()} it ran; while it lasts, the ILB's hardware thread is busy.
 * The pass's decisions are all taken at its start. A task that becomes runnable on the ILB during
 * the pass (a wakeup or a pull onto it, which reschedules it) ends the pass early, as the kernel's
 * loop does when it finds the ILB no longer idle with a reschedule pending: the ILB is busy for one
 * mean CPU visit more, sets {@code nohz.has_blocked_load} (STATS) and {@code nohz.needs_update}
 * (NEXT) again so the next ILB completes the work, and then runs the task. The CPUs after the abort
 * point have in the model been balanced already, where the kernel leaves them to the next ILB;
 * passes that move nothing are unaffected by that difference. Counter {@code engine.ilb_aborts}.
 * The STATS-only pass a CPU runs for itself from {@code nohz_run_idle_balance()} is short and not
 * aborted.
 */
final class NohzBalancing {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final SchedDomains domains;
  private final EngineStatistics stats;
  private final BalanceCostModel costModel;
  private final ImmutableCpuMask housekeeping;
  private final int nrCpuIds;
  private final int hz;
  private final LoadBalancer balancer;
  private final IlbSelector ilbSelector;
  private final SdLlcShared llcShared;
  private final BalancingTime balancingTime;
  private final PeltUpdates pelt;
  private final CpuidleExit cpuidle;
  private final WakeupPolicyChain chain;

  /** Cheap checks always; the expensive ones only with {@code check_invariants}. */
  private final InvariantChecker invariants;

  /** {@code nohz.idle_cpus_mask}. */
  final MutableCpuMask idleCpusMask;

  /** Weight of {@link #idleCpusMask}, kept so the busy tick's emptiness test is O(1). */
  private int idleCpusCount;

  /** {@code nohz.has_blocked_load}. */
  boolean hasBlockedLoad;

  /** {@code nohz.needs_update}. */
  boolean needsUpdate;

  /** {@code nohz.next_balance}, jiffies. */
  long nextBalance;

  /** {@code nohz.next_blocked}, jiffies. */
  long nextBlocked;

  private final BalanceCost passCost = new BalanceCost();
  private final BalanceCost cpuCost = new BalanceCost();

  /** {@code engine.ilb_aborts}, registered at the first abort. */
  private Counter ilbAborts;

  // The state of the _nohz_idle_balance() pass in progress, shared with visitIdleCpu().
  private final IntProcedure visitIdleCpu = this::visitIdleCpu;
  private int passFlags;
  private long passJiffies;
  private long passNext;
  private boolean passUpdateNextBalance;
  private boolean passBlocked;

  /**
   * {@link IlbSelector#dependsOnIdleStateOnly()}: {@code find_new_ilb()}'s last answer holds until
   * the idle state changes ({@link EngineState#idleEpoch()}). The busy CPUs of one jiffy's tick
   * that find a kick due (every one of them while a kick is pending, as in the kernel) then cost
   * one selection, with the same choice and examined count each.
   */
  private final boolean reusableIlbSelector;

  private long lastIlbEpoch = -1;
  private int lastIlb;
  private int lastIlbExamined;
  private int passVisited;
  private int passBlockedUpdates;

  /** CPUs of the idle mask whose balancing state {@link #touchAheadFrom} reads at once. */
  private static final int TOUCH_AHEAD = 32;

  /** Keeps {@link #touchAheadFrom}'s reads live. */
  private long touchSink;

  /** Whether the machine is wide enough for {@link #touchAheadFrom} to pay. */
  private final boolean touchAhead;

  NohzBalancing(
      EngineContext ctx,
      LoadBalancer balancer,
      IlbSelector ilbSelector,
      SdLlcShared llcShared,
      BalancingTime balancingTime,
      PeltUpdates pelt,
      CpuidleExit cpuidle,
      WakeupPolicyChain chain,
      InvariantChecker invariants) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.domains = ctx.domains;
    this.stats = ctx.stats;
    this.costModel = ctx.costModel;
    this.nrCpuIds = ctx.topology.nrCpuIds();
    this.touchAhead = nrCpuIds >= EngineContext.TOUCH_AHEAD_MIN_CPUS;
    this.hz = ctx.hz;
    this.housekeeping = ctx.topology.housekeeping().mask(HousekeepingType.KERNEL_NOISE);
    this.idleCpusMask = ctx.nohzIdleMask;
    this.balancer = balancer;
    this.ilbSelector = ilbSelector;
    this.reusableIlbSelector = ilbSelector.dependsOnIdleStateOnly();
    this.llcShared = llcShared;
    this.balancingTime = balancingTime;
    this.pelt = pelt;
    this.cpuidle = cpuidle;
    this.chain = chain;
    this.invariants = invariants;
  }

  private long jiffies() {
    return ctx.jiffies();
  }

  // ---------------------------------------------------------------------------------------
  // Registration

  /** Models {@code nohz_balance_enter_idle(cpu)}; idempotent. */
  void enterIdle(CpuRunqueue rq) {
    int cpu = rq.cpu;
    if (!ctx.state.isActive(cpu)) {
      return;
    }
    rq.hasBlockedLoad = true;
    if (!rq.nohzTickStopped) {
      if (domains.domains(cpu).isEmpty()) {
        return;
      }
      rq.nohzTickStopped = true;
      idleCpusMask.set(cpu);
      ctx.state.nohzIdleMaskChanged();
      idleCpusCount++;
      ctx.listener.nohzIdleMask(ctx.now(), idleCpusCount);
      llcShared.setCpuSdStateIdle(cpu);
      needsUpdate = true;
    }
    hasBlockedLoad = true;
  }

  /** Models {@code nohz_balance_exit_idle(rq)}. */
  void exitIdle(CpuRunqueue rq) {
    if (!rq.nohzTickStopped) {
      return;
    }
    rq.nohzTickStopped = false;
    idleCpusMask.clear(rq.cpu);
    ctx.state.nohzIdleMaskChanged();
    idleCpusCount--;
    ctx.listener.nohzIdleMask(ctx.now(), idleCpusCount);
    llcShared.setCpuSdStateBusy(rq.cpu);
  }

  // ---------------------------------------------------------------------------------------
  // The kick

  /**
   * Models {@code nohz_balancer_kick(rq)}, called from every tick of a CPU with domains: a busy CPU
   * leaves the idle mask, then decides whether idle CPUs need balancing or a blocked-load update,
   * and kicks an idle load balancer.
   */
  void balancerKick(CpuRunqueue rq, boolean idleBalance) {
    if (idleBalance) {
      return;
    }
    exitIdle(rq);
    int cpu = rq.cpu;
    long jiffies = jiffies();
    int flags = 0;
    if (hasBlockedLoad && jiffies > nextBlocked) {
      flags = NOHZ_STATS_KICK;
    }
    kick:
    {
      if (jiffies < nextBalance) {
        break kick;
      }
      if (idleCpusCount == 0) {
        return;
      }
      if (rq.nr >= 2) {
        flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
        break kick;
      }
      SchedDomain base = domains.baseDomain(cpu);
      if (base != null && rq.nr >= 1 && balancer.checkCpuCapacity(cpu, base)) {
        flags |= NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
        break kick;
      }
      // SD_ASYM_PACKING is not modelled (no arch_asym_cpu_priority()).
      if (domains.sdAsymCpuCapacity(cpu) != null) {
        if (rq.misfitTaskLoad != 0) {
          flags |= NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
        }
        break kick;
      }
      int llc = domains.llcId(cpu);
      if (llc != SchedDomains.NO_LLC && llcShared.nrBusyCpus(llc) > 1) {
        flags |= NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
      }
    }
    if (needsUpdate) {
      flags |= NOHZ_NEXT_KICK;
    }
    if (flags != 0) {
      kickIlb(rq, flags);
    }
  }

  /** Models {@code kick_ilb(flags)} run by the busy CPU {@code rq}. */
  void kickIlb(CpuRunqueue rq, int flags) {
    stats.kickIlbCalls++;
    if ((flags & NOHZ_BALANCE_KICK) != 0) {
      stats.kickBalance++;
      nextBalance = jiffies() + 1;
    } else if ((flags & NOHZ_STATS_KICK) != 0) {
      stats.kickStatsOnly++;
    } else {
      stats.kickNextOnly++;
    }
    invariants.checkIdleMasks();
    int ilb;
    int examined;
    long epoch = ctx.state.idleEpoch();
    // A kicker outside nohz.idle_cpus_mask is no candidate, so the answer does not depend on it.
    boolean reusable = reusableIlbSelector && !idleCpusMask.test(rq.cpu);
    if (reusable && lastIlbEpoch == epoch) {
      ilb = lastIlb;
      examined = lastIlbExamined;
    } else {
      ilb = ilbSelector.findNewIlb(rq.cpu, idleCpusMask, housekeeping, ctx.state);
      examined = ilbSelector.lastExamined();
      lastIlbEpoch = reusable ? epoch : -1;
      lastIlb = ilb;
      lastIlbExamined = examined;
    }
    ctx.listener.ilbKick(ctx.now(), rq.cpu, ilb);
    stats.ilbCpusExamined += examined;
    balancingTime.chargeBalancing(rq, examined * ctx.options.ilbSelectPerCpuNs());
    if (ilb < 0) {
      stats.kickNoIlb++;
      return;
    }
    invariants.checkIlbChoice(rq.cpu, ilb);
    stats.ilbChoices++;
    stats.ilbChosen[ilb]++;
    if (!ctx.state.isCoreIdle(ilb)) {
      stats.ilbChoicesWithBusySibling++;
    }
    CpuRunqueue target = rqs[ilb];
    if ((target.nohzFlags & flags) == flags) {
      stats.kickAlreadyPending++;
      return;
    }
    int old = target.nohzFlags;
    target.nohzFlags |= flags;
    if ((old & NOHZ_KICK_MASK) != 0) {
      stats.kickAlreadyPending++;
      return;
    }
    stats.kickIpis++;
    ctx.loop.schedule(ctx.now() + cpuidle.ipiDelayNs(ilb), new Event.NohzKickIpi(ilb));
  }

  /**
   * Models {@code nohz_csd_func()} on the ILB and the SCHED_SOFTIRQ it raises: the flags are taken;
   * if the CPU is still idle it runs {@code _nohz_idle_balance()} (after any balancing already
   * occupying it), otherwise the kick is dropped. Runs in {@code cpu}'s context; the caller runs
   * the reschedule it may leave pending.
   */
  void onKickIpi(int cpu) {
    CpuRunqueue rq = rqs[cpu];
    ctx.contextCpu = cpu;
    int flags = rq.nohzFlags & (NOHZ_KICK_MASK | NOHZ_NEWILB_KICK);
    rq.nohzFlags &= ~(NOHZ_KICK_MASK | NOHZ_NEWILB_KICK);
    if ((flags & NOHZ_KICK_MASK) == 0) {
      return;
    }
    if (!ctx.state.isIdle(cpu)) {
      stats.kickIpisDropped++;
    } else if (rq.phase == CpuPhase.IDLE_SOFTIRQ) {
      rq.deferredIdleBalanceFlags |= flags;
    } else {
      runKickedIdleBalance(rq, flags);
    }
  }

  /** The softirq on the ILB for a kick: {@code nohz_idle_balance()} with the kick's flags. */
  void runKickedIdleBalance(CpuRunqueue rq, int flags) {
    stats.ilbRuns++;
    long ns = nohzIdleBalance(rq, flags);
    long now = ctx.now();
    ctx.listener.ilbRun(now, rq.cpu, ns);
    // The siblings re-arm when the pass makes this CPU busy: they charge it to the ILB.
    rq.ilbPassStarting = true;
    boolean began = balancingTime.chargeBalancing(rq, ns);
    rq.ilbPassStarting = false;
    if (!began || rq.nr > 0) {
      stats.ilbDuration.recordNs(ns);
      return;
    }
    rq.ilbPassStartNs = now;
    rq.busyRanIlb = true;
    rq.ilbPassFlags = flags;
    rq.ilbPassAborted = false;
    rq.ilbVisitNs = Math.max(1, (ns - costModel.baseNs()) / Math.max(1, passVisited));
  }

  /**
   * A task became runnable on {@code rq}, the ILB, during its pass: models the loop's check of
   * {@code need_resched()} on a no longer idle ILB ({@code goto abort}).
   */
  void abortIlbPass(CpuRunqueue rq) {
    if (rq.ilbPassAborted) {
      return;
    }
    rq.ilbPassAborted = true;
    if ((rq.ilbPassFlags & NOHZ_STATS_KICK) != 0) {
      hasBlockedLoad = true;
    }
    if ((rq.ilbPassFlags & NOHZ_NEXT_KICK) != 0) {
      needsUpdate = true;
    }
    if (ilbAborts == null) {
      ilbAborts = ctx.counters.counter("engine.ilb_aborts");
    }
    ilbAborts.add(1);
    balancingTime.shortenPhase(rq, ctx.now() + rq.ilbVisitNs);
  }

  /** The ILB pass on {@code rq} ended (completed or cut short): records its duration. */
  void ilbPassEnded(CpuRunqueue rq) {
    stats.ilbDuration.recordNs(ctx.now() - rq.ilbPassStartNs);
    rq.ilbVisitNs = 0;
  }

  /**
   * Models {@code _nohz_idle_balance(this_rq, flags)}: visits every CPU of the idle mask, wrapping
   * from {@code this_cpu + 1} so the ILB itself comes last, updating blocked load (STATS) and
   * running {@code sched_balance_domains(CPU_IDLE)} on behalf of each CPU whose balance is due
   * (BALANCE); then refreshes {@code nohz.next_balance} and {@code nohz.next_blocked}. Returns the
   * pass's cost in ns.
   */
  long nohzIdleBalance(CpuRunqueue ilbRq, int flags) {
    long jiffies = jiffies();
    passFlags = flags;
    passJiffies = jiffies;
    passNext = jiffies + 60L * hz;
    passUpdateNextBalance = false;
    passBlocked = false;
    passVisited = 0;
    passBlockedUpdates = 0;
    passCost.reset();
    if ((flags & NOHZ_STATS_KICK) != 0) {
      hasBlockedLoad = false;
    }
    if ((flags & NOHZ_NEXT_KICK) != 0) {
      needsUpdate = false;
    }
    int ilb = ilbRq.cpu;
    idleCpusMask.forEachCpuWrap(ilb + 1 >= nrCpuIds ? 0 : ilb + 1, visitIdleCpu);
    if (passUpdateNextBalance) {
      nextBalance = passNext;
    }
    if ((flags & NOHZ_STATS_KICK) != 0) {
      nextBlocked = jiffies + ctx.msecsToJiffies(Pelt.LOAD_AVG_PERIOD);
    }
    if (passBlocked) {
      hasBlockedLoad = true;
    }
    stats.ilbCpusVisited += passVisited;
    return costModel.baseNs()
        + costModel.variableNs(passCost)
        + passVisited * ctx.options.ilbPerCpuVisitedNs()
        + passBlockedUpdates * ctx.options.blockedLoadUpdateNs();
  }

  /** The body of {@code _nohz_idle_balance()}'s {@code for_each_cpu_wrap()} for one CPU. */
  private void visitIdleCpu(int cpu) {
    if (touchAhead && passVisited % TOUCH_AHEAD == 0) {
      touchAheadFrom(cpu);
    }
    passVisited++;
    if (!ctx.state.isIdle(cpu)) {
      return;
    }
    CpuRunqueue rq = rqs[cpu];
    if ((passFlags & NOHZ_STATS_KICK) != 0) {
      boolean updated = rq.lastBlockedLoadUpdateTick != passJiffies && rq.hasBlockedLoad;
      passBlocked |= updateNohzStats(rq);
      if (updated) {
        passBlockedUpdates++;
      }
    }
    if (passJiffies >= balancer.nextBalance(cpu) && (passFlags & NOHZ_BALANCE_KICK) != 0) {
      // _nohz_idle_balance() takes the CPU's rq lock for update_rq_clock() before balancing on
      // its behalf: a hold of about one CPU visit's cost.
      stats.rqLockHold.recordNs(ctx.options.ilbPerCpuVisitedNs());
      cpuCost.reset();
      balancer.balanceDomains(cpu, IdleType.IDLE, cpuCost);
      chain.notifyPeriodicBalance(cpu);
      passCost.add(cpuCost);
      stats.ilbBalanceCalls++;
    }
    passNext = Math.min(passNext, balancer.nextBalance(cpu));
    passUpdateNextBalance = true;
  }

  /**
   * Reads, for up to {@link #TOUCH_AHEAD} CPUs of the idle mask from {@code from} (wrapping), the
   * runqueue and, where the CPU's balance is due, the domain state {@code visitIdleCpu()} reads
   * first. These loads do not depend on one another, so the processor overlaps their cache misses;
   * the visits that follow find them in cache. On wide machines (thousands of idle CPUs per pass)
   * each one otherwise misses in turn. Changes nothing the simulation computes.
   */
  private void touchAheadFrom(int from) {
    long sink = 0;
    int cpu = from;
    for (int n = 0; n < TOUCH_AHEAD && cpu != CpuMask.NO_CPU; n++) {
      sink += rqs[cpu].lastBlockedLoadUpdateTick;
      if (passJiffies >= balancer.nextBalance(cpu)) {
        sink += balancer.touchDomains(cpu);
      }
      int next = idleCpusMask.next(cpu);
      cpu = next != CpuMask.NO_CPU ? next : idleCpusMask.first();
      if (cpu == from) {
        break; // the mask holds fewer CPUs than TOUCH_AHEAD: each is read once
      }
    }
    touchSink += sink;
  }

  /** Models {@code update_nohz_stats(rq)}: whether the CPU still has blocked load to decay. */
  private boolean updateNohzStats(CpuRunqueue rq) {
    if (!rq.hasBlockedLoad) {
      return false;
    }
    if (!idleCpusMask.test(rq.cpu)) {
      return false;
    }
    if (rq.lastBlockedLoadUpdateTick == jiffies()) {
      return true;
    }
    pelt.updateBlockedAverages(rq.cpu);
    return rq.hasBlockedLoad;
  }

  // ---------------------------------------------------------------------------------------
  // Newidle-triggered blocked-load updates

  /**
   * Models {@code nohz_newidle_balance(rq)} at the end of a newidle pass that pulled nothing: asks
   * the idle loop for a local blocked-load update when the CPU expects a long idle.
   */
  void newidleBalanceKickCheck(CpuRunqueue rq) {
    if (rq.avgIdle < ctx.balancerOptions.migrationCostNs()) {
      return;
    }
    if (!hasBlockedLoad || jiffies() < nextBlocked) {
      return;
    }
    rq.nohzFlags |= NOHZ_NEWILB_KICK;
  }

  /**
   * Models {@code nohz_run_idle_balance(cpu)} at the top of {@code do_idle()}: when NEWILB was the
   * only flag, runs {@code _nohz_idle_balance(STATS)} locally, without an IPI.
   */
  void runIdleBalanceIfOnlyNewIlb(CpuRunqueue rq) {
    int flags = rq.nohzFlags;
    rq.nohzFlags &= ~NOHZ_NEWILB_KICK;
    if (flags != NOHZ_NEWILB_KICK || rq.nr != 0 || rq.phase != CpuPhase.NONE) {
      return;
    }
    stats.newIlbLocalRuns++;
    long ns = nohzIdleBalance(rq, NOHZ_STATS_KICK);
    balancingTime.chargeBalancing(rq, ns);
  }
}
