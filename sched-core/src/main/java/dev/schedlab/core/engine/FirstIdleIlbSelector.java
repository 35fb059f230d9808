package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.view.CpuStateView;

/**
 * The engine's built-in ILB rule, used when a run names no {@code IlbSelector}: the 7.1.5/7.2
 * {@code find_new_ilb()} in kernel/sched/fair.c, i.e. the first CPU of {@code
 * nohz.idle_cpus_mask ∩ housekeeping(HK_TYPE_KERNEL_NOISE)}, in ascending order, that is not the
 * kicking CPU and is {@code idle_cpu()}. The mainline plugins in policies-fair supersede it.
 */
final class FirstIdleIlbSelector implements IlbSelector {

  private int examined;

  @Override
  public int findNewIlb(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    examined = 0;
    for (int cpu = nohzIdleMask.firstAnd(housekeeping);
        cpu != CpuMask.NO_CPU;
        cpu = nohzIdleMask.nextAnd(cpu, housekeeping)) {
      examined++;
      if (cpu != thisCpu && state.isIdle(cpu)) {
        return cpu;
      }
    }
    return CpuMask.NO_CPU;
  }

  @Override
  public int lastExamined() {
    return examined;
  }
}
