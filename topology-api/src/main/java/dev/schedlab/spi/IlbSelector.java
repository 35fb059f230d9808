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
   * Whether {@link #findNewIlb}'s answer and {@link #lastExamined()} follow from {@code thisCpu},
   * the contents of the two masks and the view's idle state ({@code idle_cpu()} of every CPU, its
   * idle-core mask, SMT) alone: no random draws, no memory of earlier calls. A caller may then
   * reuse the last answer of a call whose inputs have not changed, as the engine does for the busy
   * ticks of one jiffy that all find a kick due. False (the default) unless the implementation
   * promises it.
   */
  default boolean dependsOnIdleStateOnly() {
    return false;
  }

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
