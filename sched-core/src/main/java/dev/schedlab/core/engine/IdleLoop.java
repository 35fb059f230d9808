package dev.schedlab.core.engine;

import dev.schedlab.core.balance.LoadBalancer;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.NohzIdleTracking;

/**
 * Idle entry and exit: switching to the idle task and the top of {@code do_idle()} ({@code
 * __update_idle_core()}, {@code tick_nohz_idle_stop_tick()} with the registration rule's answer to
 * {@code nohz_balance_enter_idle()}, {@code nohz_run_idle_balance()}), and leaving it ({@code
 * put_prev_task_idle()} with {@code update_rq_avg_idle()}, {@code tick_nohz_idle_exit()}).
 *
 * <p>Idle governor: the tick stops on every idle entry ({@code tick_nohz_idle_stop_tick()} always
 * finds the next timer more than a tick away), except on the timekeeping CPU while nohz_full is in
 * use, which keeps its tick as {@code can_stop_idle_tick()} requires, and except where {@link
 * EngineOptions#retainShortIdleTick()} lets {@link IdleGovernor} keep it.
 */
final class IdleLoop {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;
  private final TickSched tick;
  private final TaskProgress progress;
  private final SdLlcShared llcShared;
  private final NohzBalancing nohz;
  private final NohzIdleTracking nohzTracking;
  private final LoadBalancer balancer;

  /** Cheap checks always; the expensive ones only with {@code check_invariants}. */
  private final InvariantChecker invariants;

  private final int[][] siblingsOf;
  private final boolean retainShortIdleTick;

  IdleLoop(
      EngineContext ctx,
      TickSched tick,
      TaskProgress progress,
      SdLlcShared llcShared,
      NohzBalancing nohz,
      NohzIdleTracking nohzTracking,
      LoadBalancer balancer,
      InvariantChecker invariants) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.tick = tick;
    this.progress = progress;
    this.llcShared = llcShared;
    this.nohz = nohz;
    this.nohzTracking = nohzTracking;
    this.balancer = balancer;
    this.invariants = invariants;
    this.siblingsOf = ctx.state.siblingsOf();
    this.retainShortIdleTick = ctx.options.retainShortIdleTick();
  }

  /**
   * Brings every online CPU into its idle loop at time 0 with its tick running, then lets each stop
   * its tick (and register for NOHZ) as an idle entry would.
   */
  void boot() {
    long history = ctx.options.idleHistoryNs();
    CpuMask online = ctx.topology.onlineMask();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      if (history > 0) {
        rq.idleSince = -1 - ctx.random.tieBreak().nextLong(history);
      }
      rq.inIdleLoop = true;
      rq.avgIdle = 2 * ctx.balancerOptions.migrationCostNs();
      rq.avgIdle = Math.max(rq.avgIdle, 0);
      tick.boot(rq);
    }
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      updateIdleCore(rq);
      tickStop(rq);
    }
  }

  /** Switching to the idle task and the start of {@code do_idle()}. */
  void enter(CpuRunqueue rq) {
    rq.inIdleLoop = true;
    rq.schedGoidle++;
    progress.setPerfBusy(rq, false);
    progress.setTimeState(rq, 0);
    updateIdleCore(rq);
    tickStop(rq);
    nohz.runIdleBalanceIfOnlyNewIlb(rq);
  }

  /** Leaving the idle task: {@code put_prev_task_idle()} and {@code tick_nohz_idle_exit()}. */
  void exit(CpuRunqueue rq) {
    long now = ctx.now();
    rq.inIdleLoop = false;
    if (rq.idleStamp != 0) {
      // update_rq_avg_idle(): an 1/8 EWMA of idle durations, capped at twice the balance cost.
      long sample = now - rq.idleStamp;
      rq.avgIdle += (sample - rq.avgIdle) / 8;
      long max = 2 * balancer.maxIdleBalanceCostNs(rq.cpu);
      if (rq.avgIdle > max) {
        rq.avgIdle = max;
      }
      rq.idleStamp = 0;
    }
    if (rq.tickStopped) {
      tick.restart(rq);
    }
    boolean siblingRunsTask = false;
    boolean siblingBalances = false;
    for (int sibling : siblingsOf[rq.cpu]) {
      siblingRunsTask |= rqs[sibling].curr != null;
      siblingBalances |= rqs[sibling].perfBusy;
    }
    // A sibling busy with balancing (ILB, newidle, softirq) contends for the core too.
    EngineStatistics stats = ctx.stats;
    if (siblingRunsTask || siblingBalances) {
      stats.smtContention++;
      if (!siblingRunsTask) {
        stats.smtContentionSiblingBalancing++;
      }
    } else {
      stats.smtNoContention++;
    }
    progress.setPerfBusy(rq, true);
  }

  /**
   * Equivalent of {@code __update_idle_core()}: when every other SMT sibling is idle too, the LLC
   * may hold an idle core.
   */
  private void updateIdleCore(CpuRunqueue rq) {
    if (siblingsOf[rq.cpu].length == 0) {
      return;
    }
    for (int sibling : siblingsOf[rq.cpu]) {
      if (!ctx.state.isIdle(sibling)) {
        return;
      }
    }
    llcShared.setIdleCores(rq.cpu, true);
  }

  /**
   * The idle loop's {@code tick_nohz_idle_stop_tick()}: stop the tick (see the class comment for
   * the governor assumption) and ask the registration rule whether to call {@code
   * nohz_balance_enter_idle()}.
   */
  void tickStop(CpuRunqueue rq) {
    if (rq.cpu == tick.timekeeperCpu()) {
      return;
    }
    boolean wasStopped = rq.tickStopped;
    if (!wasStopped && retainShortIdleTick && IdleGovernor.retainsTick(rq, ctx.tickTime(1))) {
      // cpuidle_idle_call(): the governor keeps the tick, tick_nohz_idle_stop_tick() is not called.
      return;
    }
    if (!wasStopped) {
      tick.stop(rq);
    }
    boolean register = nohzTracking.registerOnIdleEntry(rq.cpu, wasStopped);
    if (register) {
      nohz.enterIdle(rq);
    }
    invariants.afterIdleEntry(rq, wasStopped, register);
  }
}
