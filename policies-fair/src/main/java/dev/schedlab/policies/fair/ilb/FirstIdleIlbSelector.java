package dev.schedlab.policies.fair.ilb;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.view.CpuStateView;

/**
 * {@code find_new_ilb()} of Linux 7.1 and 7.2 (kernel/sched/fair.c, kernel-facts §3.5): walk
 * {@code nohz.idle_cpus_mask ∩ housekeeping_cpumask(HK_TYPE_KERNEL_NOISE)} in ascending order,
 * skip the kicking CPU, and return the first CPU that is {@code idle_cpu()}; none means no ILB
 * kick. SMT siblings are not considered, so on an SMT machine the ILB may land next to a busy
 * thread.
 *
 * <p>Allocates nothing per call: the walk uses {@link CpuMask#firstAnd}/{@link CpuMask#nextAnd}
 * over the two masks without building their intersection. One instance per simulation; not
 * thread-safe ({@link #lastExamined()} is per instance).
 */
public final class FirstIdleIlbSelector implements IlbSelector {

  private int lastExamined;

  /** A selector with no call recorded yet. */
  public FirstIdleIlbSelector() {}

  @Override
  public int findNewIlb(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    int examined = 0;
    for (int cpu = nohzIdleMask.firstAnd(housekeeping);
        cpu != CpuMask.NO_CPU;
        cpu = nohzIdleMask.nextAnd(cpu, housekeeping)) {
      examined++;
      if (cpu == thisCpu) {
        continue;
      }
      if (state.isIdle(cpu)) {
        lastExamined = examined;
        return cpu;
      }
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
