package dev.schedlab.spi;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;

/**
 * {@code find_new_ilb()} of Linux 7.1 and 7.2 (kernel/sched/fair.c, kernel-facts §3.5): walk {@code
 * nohz.idle_cpus_mask ∩ housekeeping_cpumask(HK_TYPE_KERNEL_NOISE)} in ascending order, skip the
 * kicking CPU, and return the first CPU that is {@code idle_cpu()}; none means no ILB kick. SMT
 * siblings are not considered, so on an SMT machine the ILB may land next to a busy thread.
 *
 * <p>The walk is done a word (64 CPUs) at a time over the state view's {@link
 * CpuStateView#idleMask()}: the choice is the lowest CPU of {@code candidates ∩ idle} other than
 * the kicker, and the walk's examined count is the number of candidates up to and including it (all
 * of them when there is none), the kicker counted when it is a candidate, exactly as a CPU by CPU
 * walk counts them. Allocates nothing per call. One instance per simulation; not thread-safe
 * ({@link #lastExamined()} is per instance).
 *
 * <p>Here, beside the SPI, because two modules use the rule and neither may see the other: the
 * {@code fair.ilb.first-idle} plugin of policies-fair provides it, and the engine (sched-core)
 * falls back to it when a run binds no ILB selector.
 */
public final class FirstIdleIlbSelector implements IlbSelector {

  private int lastExamined;

  /** A selector with no call recorded yet. */
  public FirstIdleIlbSelector() {}

  @Override
  public int findNewIlb(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    int words = nohzIdleMask.wordCount();
    CpuMask idle = state.idleMask();
    IlbSelector.requireSameWidth(nohzIdleMask, housekeeping, idle);
    int kickerWord = thisCpu >= 0 ? thisCpu >>> 6 : -1;
    long notKicker = ~(1L << thisCpu);
    int examined = 0;
    for (int w = 0; w < words; w++) {
      long candidates = nohzIdleMask.word(w) & housekeeping.word(w);
      long hits = candidates & idle.word(w);
      if (w == kickerWord) {
        hits &= notKicker;
      }
      if (hits != 0) {
        int bit = Long.numberOfTrailingZeros(hits);
        // The walk visits every candidate up to and including the chosen one.
        examined += Long.bitCount(candidates & (-1L >>> (63 - bit)));
        lastExamined = examined;
        return (w << 6) | bit;
      }
      examined += Long.bitCount(candidates);
    }
    lastExamined = examined;
    return CpuMask.NO_CPU;
  }

  /** CPUs of the candidate set the last call looked at, the kicker included if it was one. */
  @Override
  public int lastExamined() {
    return lastExamined;
  }
}
