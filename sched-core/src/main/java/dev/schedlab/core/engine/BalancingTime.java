package dev.schedlab.core.engine;

import dev.schedlab.spi.LostWork;

/**
 * The CPU time balancing takes. Balancing runs instantaneously at its start and then occupies its
 * CPU for the cost model's time: on a CPU running a task the task is paused for that long (the
 * softirq or the stopper stealing the CPU, {@link TaskProgress#steal}); on a CPU without a task the
 * CPU is in a {@link CpuPhase} (newidle balancing, or SCHED_SOFTIRQ from the idle loop) that ends
 * with an {@link Event.PhaseEnd}, its hardware thread busy for the performance model while {@code
 * idle_cpu()} stays true, as in the kernel.
 */
final class BalancingTime {

  private final EngineContext ctx;
  private final TaskProgress progress;

  BalancingTime(EngineContext ctx, TaskProgress progress) {
    this.ctx = ctx;
    this.progress = progress;
  }

  /** Occupies a CPU that runs no task for {@code ns} of balancing work. */
  void beginPhase(CpuRunqueue rq, CpuPhase phase, long ns) {
    rq.setPhase(phase);
    rq.phaseToken++;
    progress.setPerfBusy(rq, true);
    progress.setTimeState(rq, 2);
    rq.phaseEndNs = ctx.now() + ns;
    ctx.loop.schedule(rq.phaseEndNs, new Event.PhaseEnd(rq.cpu, rq.phaseToken));
  }

  /** Makes the phase in progress on {@code rq} last {@code ns} longer (interrupt work after it). */
  void extendPhase(CpuRunqueue rq, long ns) {
    if (rq.phase == CpuPhase.NONE || ns <= 0) {
      return;
    }
    rq.phaseToken++;
    rq.phaseEndNs += ns;
    ctx.loop.schedule(rq.phaseEndNs, new Event.PhaseEnd(rq.cpu, rq.phaseToken));
  }

  /** Ends the phase in progress at {@code endNs} instead, if that is sooner. */
  void shortenPhase(CpuRunqueue rq, long endNs) {
    if (rq.phase == CpuPhase.NONE || endNs >= rq.phaseEndNs) {
      return;
    }
    rq.phaseToken++;
    rq.phaseEndNs = Math.max(endNs, ctx.now());
    ctx.loop.schedule(rq.phaseEndNs, new Event.PhaseEnd(rq.cpu, rq.phaseToken));
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
      progress.steal(rq, ns, LostWork.OWN_BALANCING);
    } else if (rq.phase == CpuPhase.NONE) {
      beginPhase(rq, CpuPhase.IDLE_SOFTIRQ, ns);
      return true;
    }
    return false;
  }
}
