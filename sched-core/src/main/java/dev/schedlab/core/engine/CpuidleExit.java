package dev.schedlab.core.engine;

import dev.schedlab.spi.Counter;

/**
 * How long an IPI takes to act: {@link EngineOptions#ipiLatencyNs()}, plus, with {@code -E
 * deep_idle_exit=T}, the exit from one core-level deep idle state that a core enters once all its
 * SMT siblings have been hardware-idle (no task, no balancing) for {@code deep_idle_residency}.
 * Stands for the {@code exit_latency} of the target's {@code cpuidle} state, which {@code
 * sched_balance_find_dst_group_cpu()} also compares.
 */
final class CpuidleExit {

  private final CpuRunqueue[] rqs;
  private final EngineContext ctx;
  private final int[][] siblingsOf;
  private final long ipiLatencyNs;

  /** {@code -E deep_idle_exit} and {@code deep_idle_residency}; exit 0: no deep idle state. */
  private final long deepIdleExitNs;

  private final long deepIdleResidencyNs;

  /** {@code engine.deep_idle_exits}, registered at the first one. */
  private Counter deepIdleExits;

  CpuidleExit(EngineContext ctx) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.siblingsOf = ctx.state.siblingsOf();
    this.ipiLatencyNs = ctx.options.ipiLatencyNs();
    this.deepIdleExitNs = ctx.options.deepIdleExitNs();
    this.deepIdleResidencyNs = ctx.options.deepIdleResidencyNs();
  }

  /** {@code ipi_latency}: the delay of an IPI to a CPU that is not in the deep state. */
  long ipiLatencyNs() {
    return ipiLatencyNs;
  }

  /**
   * Delay from sending an IPI to {@code cpu} until it acts on it: {@code ipi_latency}, plus the
   * exit from a core-level deep idle state when {@code -E deep_idle_exit} is set and {@code cpu}'s
   * whole core is in one ({@link #coreInDeepIdle}); such exits are counted as {@code
   * engine.deep_idle_exits}.
   */
  long ipiDelayNs(int cpu) {
    if (coreInDeepIdle(cpu)) {
      if (deepIdleExits == null) {
        deepIdleExits = ctx.counters.counter("engine.deep_idle_exits");
      }
      deepIdleExits.add(1);
      return ipiLatencyNs + deepIdleExitNs;
    }
    return ipiLatencyNs;
  }

  /**
   * Whether {@code cpu} and every SMT sibling have been hardware-idle (no task, no balancing work)
   * for at least {@code -E deep_idle_residency}: the governor has let the core enter its core-level
   * deep state. False when no deep state is modelled.
   */
  boolean coreInDeepIdle(int cpu) {
    if (deepIdleExitNs <= 0) {
      return false;
    }
    long since = ctx.now() - deepIdleResidencyNs;
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
}
