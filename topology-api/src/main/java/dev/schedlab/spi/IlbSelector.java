package dev.schedlab.spi;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;

/**
 * Chooses the CPU that runs NOHZ idle load balancing on behalf of all tickless idle CPUs. Stands
 * for {@code find_new_ilb()} in kernel/sched/fair.c, called from {@code kick_ilb()}.
 * Implementations allocate nothing per call.
 */
public interface IlbSelector {

  /**
   * Picks the idle load balancer.
   *
   * @param thisCpu the busy CPU whose tick decided to kick
   * @param nohzIdleMask {@code nohz.idle_cpus_mask}
   * @param housekeeping {@code housekeeping_cpumask(HK_TYPE_KERNEL_NOISE)}
   * @param state live CPU state ({@code idle_cpu()}, SMT)
   * @return the chosen CPU, or {@link CpuMask#NO_CPU} when there is none (no kick)
   */
  int findNewIlb(int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state);

  /** How many CPUs the last {@link #findNewIlb} call examined (the selection's own cost). */
  int lastExamined();

  /**
   * Checks that the three masks a selector reads word by word have one width; returns it.
   *
   * @throws IllegalArgumentException naming the three widths when they differ
   */
  static int requireSameWidth(CpuMask nohzIdleMask, CpuMask housekeeping, CpuMask idle) {
    int nr = nohzIdleMask.nrCpuIds();
    if (housekeeping.nrCpuIds() != nr || idle.nrCpuIds() != nr) {
      throw new IllegalArgumentException(
          "mask widths differ: " + nr + ", " + housekeeping.nrCpuIds() + ", " + idle.nrCpuIds());
    }
    return nr;
  }
}
