package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.topology.HousekeepingType;

/**
 * Which CPUs' ticks run: the {@code TS_FLAG_STOPPED} state of each CPU's {@code struct tick_sched}
 * (kernel/time/tick-sched.c), kept as {@link CpuRunqueue#tickStopped} and, for the jiffy walk, as
 * the mask of CPUs whose tick runs. {@link #restart} is {@code tick_nohz_restart_sched_tick()},
 * {@link #stop} the stop half of {@code tick_nohz_stop_tick()}. Also the facts the stop decisions
 * read: the nohz_full CPUs and the timekeeping CPU, which keeps its tick while nohz_full is in use
 * ({@code can_stop_idle_tick()}).
 */
final class TickSched {

  /** CPUs whose tick is running; a snapshot is walked at each jiffy. */
  private final MutableCpuMask tickRunning;

  private final ImmutableCpuMask nohzFull;
  private final int timekeeperCpu;

  TickSched(EngineContext ctx) {
    this.tickRunning = CpuMasks.mutable(ctx.topology.nrCpuIds());
    this.nohzFull = ctx.topology.housekeeping().nohzFullMask();
    this.timekeeperCpu =
        nohzFull.isEmpty()
            ? CpuMask.NO_CPU
            : ctx.topology
                .housekeeping()
                .mask(HousekeepingType.KERNEL_NOISE)
                .firstAnd(ctx.topology.onlineMask());
  }

  /** The CPUs whose tick runs (live; the tick walks a snapshot). */
  CpuMask running() {
    return tickRunning;
  }

  /** The timekeeping CPU while nohz_full is in use, else {@link CpuMask#NO_CPU}. */
  int timekeeperCpu() {
    return timekeeperCpu;
  }

  boolean isNohzFull(int cpu) {
    return nohzFull.test(cpu);
  }

  /** A CPU that has never stopped its tick: at boot every online CPU's tick runs. */
  void boot(CpuRunqueue rq) {
    tickRunning.set(rq.cpu);
  }

  /** {@code tick_nohz_restart_sched_tick()}: the CPU's tick runs again. */
  void restart(CpuRunqueue rq) {
    rq.tickStopped = false;
    tickRunning.set(rq.cpu);
  }

  /** The tick of {@code rq}'s CPU stops. */
  void stop(CpuRunqueue rq) {
    rq.tickStopped = true;
    tickRunning.clear(rq.cpu);
  }
}
