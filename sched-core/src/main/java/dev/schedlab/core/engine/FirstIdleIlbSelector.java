package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.view.CpuStateView;

/**
 * The engine's built-in ILB rule, used when a run names no {@code IlbSelector}: the 7.1.5/7.2
 * {@code find_new_ilb()} in kernel/sched/fair.c, i.e. the first CPU of {@code
 * nohz.idle_cpus_mask ∩ housekeeping(HK_TYPE_KERNEL_NOISE)}, in ascending order, that is not the
 * kicking CPU and is {@code idle_cpu()}. The mainline plugins in policies-fair supersede it.
 *
 * <p>Done a word (64 CPUs) at a time over {@link CpuStateView#idleMask()}: the lowest CPU of
 * {@code candidates ∩ idle} other than the kicker; examined = the candidates up to and including
 * it (all of them when there is none), as the CPU-by-CPU walk counts them.
 */
final class FirstIdleIlbSelector implements IlbSelector {

  private int examined;

  @Override
  public int findNewIlb(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    int words = nohzIdleMask.wordCount();
    CpuMask idle = state.idleMask();
    if (housekeeping.nrCpuIds() != nohzIdleMask.nrCpuIds()
        || idle.nrCpuIds() != nohzIdleMask.nrCpuIds()) {
      throw new IllegalArgumentException(
          "mask widths differ: " + nohzIdleMask.nrCpuIds() + ", " + housekeeping.nrCpuIds()
              + ", " + idle.nrCpuIds());
    }
    int kickerWord = thisCpu >= 0 ? thisCpu >>> 6 : -1;
    long notKicker = ~(1L << thisCpu);
    int count = 0;
    for (int w = 0; w < words; w++) {
      long candidates = nohzIdleMask.word(w) & housekeeping.word(w);
      long hits = candidates & idle.word(w);
      if (w == kickerWord) {
        hits &= notKicker;
      }
      if (hits != 0) {
        int bit = Long.numberOfTrailingZeros(hits);
        // The walk visits every candidate up to and including the chosen one.
        count += Long.bitCount(candidates & (-1L >>> (63 - bit)));
        examined = count;
        return (w << 6) | bit;
      }
      count += Long.bitCount(candidates);
    }
    examined = count;
    return CpuMask.NO_CPU;
  }

  @Override
  public int lastExamined() {
    return examined;
  }
}
