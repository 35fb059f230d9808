package dev.schedlab.hw.perf;

import dev.schedlab.spi.PerfStateView;

/**
 * The NVIDIA Olympus idle-qualification rule (seeds-digest §1): once an SMT sibling goes idle, the
 * busy thread regains full single-thread speed only after the sibling has stayed idle for a
 * qualification interval, 10,240 cycles at the core clock; a sibling that wakes again inside the
 * window restarts it (its idle-since time moves). Until then the sibling still counts as busy for
 * the co-run rule, so repeated short sibling wakeups (an ILB run, a softirq) keep the busy thread
 * slowed with little real overlap.
 *
 * <p>The interval is converted once to whole nanoseconds, rounding up, so "idle for at least N
 * cycles" is exact on the engine's nanosecond clock: at 1 GHz, 10,239 ns idle is 10,239 cycles
 * (still slowed) and 10,240 ns is 10,240 cycles (qualified).
 */
public final class SiblingQualification {

  /** The interval the Vera thread names: 10 Ki cycles. */
  public static final long OLYMPUS_QUALIFICATION_CYCLES = 10_240;

  private final long cycles;
  private final double clockHz;
  private final long intervalNs;

  /**
   * @param cycles the qualification interval in core cycles (0 disables the rule)
   * @param clockHz the core clock in Hz
   */
  public SiblingQualification(long cycles, double clockHz) {
    if (cycles < 0) {
      throw new IllegalArgumentException("qualification interval " + cycles + " cycles < 0");
    }
    if (!(clockHz > 0)) {
      throw new IllegalArgumentException("clock " + clockHz + " Hz must be positive");
    }
    this.cycles = cycles;
    this.clockHz = clockHz;
    // A tiny epsilon keeps an exact integer quotient (10,240 cycles at 2.5 GHz = 4,096 ns) from
    // rounding up through floating-point noise.
    this.intervalNs = (long) Math.ceil(cycles * 1e9 / clockHz - 1e-6);
  }

  /** The interval in whole nanoseconds (rounded up): the first idle duration that qualifies. */
  public long intervalNs() {
    return intervalNs;
  }

  /** The interval in cycles. */
  public long cycles() {
    return cycles;
  }

  /** The clock the interval is counted at, in Hz. */
  public double clockHz() {
    return clockHz;
  }

  /**
   * Whether {@code sibling} still slows its core: busy, or idle for less than the interval. A CPU
   * that was never busy ({@code idleSinceNs == Long.MIN_VALUE}) does not.
   */
  public boolean interferes(int sibling, PerfStateView state) {
    if (state.isBusy(sibling)) {
      return true;
    }
    long idleSince = state.idleSinceNs(sibling);
    return idleSince != Long.MIN_VALUE && state.nowNs() - idleSince < intervalNs;
  }

  /** When an idle sibling's window closes, or {@link Long#MAX_VALUE} if it is not in one. */
  public long windowEndNs(int sibling, PerfStateView state) {
    if (state.isBusy(sibling)) {
      return Long.MAX_VALUE;
    }
    long idleSince = state.idleSinceNs(sibling);
    if (idleSince == Long.MIN_VALUE || state.nowNs() - idleSince >= intervalNs) {
      return Long.MAX_VALUE;
    }
    return idleSince + intervalNs;
  }
}
