package dev.schedlab.policies.ext.ilb;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.view.CpuStateView;

/**
 * {@code find_new_ilb()} as Imran Khan's RFC "sched/fair: distribute nohz ILB work across idle
 * CPUs" (LKML, 2026-04-21, patch 2/2 of "Reduce nohz_idle_balance CPU overhead on large systems";
 * not merged) changes it: walk {@code nohz.idle_cpus_mask} with wrap-around starting one past the
 * CPU chosen by the previous call ({@code nohz.ilb_cpu_last}, 0 at boot), skip CPUs outside {@code
 * housekeeping_cpumask(HK_TYPE_KERNEL_NOISE)} and the kicking CPU, and return the first CPU that is
 * {@code idle_cpu()}, remembering it. Like the 7.1 walk it ignores SMT siblings; unlike it the ILB
 * work rotates over all idle housekeeping CPUs instead of loading the lowest-numbered one.
 *
 * <p>The remembered CPU moves on every call that finds a CPU, also when {@code kick_ilb()} then
 * sends no IPI because that CPU already has the kick pending: {@code find_new_ilb()} runs before
 * that test, as in the RFC.
 *
 * <p>The examined count is the number of {@code nohz.idle_cpus_mask} CPUs the walk visits up to and
 * including the chosen one (all of them when none is chosen): the RFC walks the whole NOHZ mask and
 * tests housekeeping inside the loop. The walk runs a word (64 CPUs) at a time over the state
 * view's {@link CpuStateView#idleMask()}; it allocates nothing per call. One instance per
 * simulation; not thread-safe.
 */
public final class RoundRobinIlbSelector implements IlbSelector {

  private int ilbCpuLast;
  private int lastExamined;

  /** A selector as at boot: {@code nohz.ilb_cpu_last} is 0, so the first walk starts at CPU 1. */
  public RoundRobinIlbSelector() {}

  @Override
  public int findNewIlb(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    CpuMask idle = state.idleMask();
    int nr = IlbSelector.requireSameWidth(nohzIdleMask, housekeeping, idle);
    // for_each_cpu_wrap() from ilb_cpu_last + 1; a start at nr_cpu_ids wraps to 0.
    int start = ilbCpuLast + 1 >= nr ? 0 : ilbCpuLast + 1;
    lastExamined = 0;
    int chosen = firstIn(start, nr, thisCpu, nohzIdleMask, housekeeping, idle);
    if (chosen == CpuMask.NO_CPU && start > 0) {
      chosen = firstIn(0, start, thisCpu, nohzIdleMask, housekeeping, idle);
    }
    if (chosen != CpuMask.NO_CPU) {
      ilbCpuLast = chosen;
    }
    return chosen;
  }

  /**
   * The first CPU of {@code [from, to)} in the NOHZ mask that is a housekeeping CPU, not the kicker
   * and idle; adds the NOHZ-mask CPUs visited to {@link #lastExamined}.
   */
  private int firstIn(
      int from, int to, int thisCpu, CpuMask nohz, CpuMask housekeeping, CpuMask idle) {
    for (int w = from >>> 6, lastWord = (to - 1) >>> 6; w <= lastWord; w++) {
      long range = -1L;
      if (w == from >>> 6) {
        range &= -1L << (from & 63);
      }
      if (w == lastWord && (to & 63) != 0) {
        range &= -1L >>> (64 - (to & 63));
      }
      long visited = nohz.word(w) & range;
      long hits = visited & housekeeping.word(w) & idle.word(w);
      if (thisCpu >= 0 && thisCpu >>> 6 == w) {
        hits &= ~(1L << thisCpu);
      }
      if (hits != 0) {
        int bit = Long.numberOfTrailingZeros(hits);
        lastExamined += Long.bitCount(visited & (-1L >>> (63 - bit)));
        return (w << 6) | bit;
      }
      lastExamined += Long.bitCount(visited);
    }
    return CpuMask.NO_CPU;
  }

  /** CPUs of {@code nohz.idle_cpus_mask} the last call visited, the kicker included. */
  @Override
  public int lastExamined() {
    return lastExamined;
  }

  /** {@code nohz.ilb_cpu_last}: the CPU the last successful call returned (0 before any). */
  public int ilbCpuLast() {
    return ilbCpuLast;
  }
}
