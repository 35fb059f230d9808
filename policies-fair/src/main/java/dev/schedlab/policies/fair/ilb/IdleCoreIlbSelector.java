package dev.schedlab.policies.fair.ilb;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ScratchMask;
import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import java.util.Objects;

/**
 * {@code find_new_ilb()} as changed by "sched/fair: Prefer fully idle cores for NOHZ balancing"
 * (fair.c@293f9611ae73, merged for Linux 7.3; kernel-facts §3.5, seeds-digest §1): prefer an idle
 * CPU whose whole SMT core is idle, so the ILB does not run next to a busy sibling.
 *
 * <p>The rule, for the candidates {@code nohz.idle_cpus_mask ∩
 * housekeeping_cpumask(HK_TYPE_KERNEL_NOISE)} walked in ascending order while the walk may shrink
 * them:
 *
 * <ul>
 *   <li>a CPU that is not {@code idle_cpu()}: with SMT active and a fallback already found,
 *       remove its SMT siblings from the candidates ({@link IlbPruning#V3} onwards); go on;
 *   <li>an idle CPU whose core is not fully idle ({@code !is_core_idle()}), with SMT active:
 *       remember it as the fallback if there is none yet, remove its siblings, go on;
 *   <li>any other idle CPU (a fully idle core, or SMT off): choose it;
 *   <li>end of the walk: the fallback, possibly none.
 * </ul>
 *
 * <p>A pruned CPU shares a core that is not fully idle with a CPU already examined, and a fallback
 * already exists when it is pruned, so pruning never changes the choice. With a busy kicker (the
 * kick comes from a busy CPU's tick) the choice is "the lowest candidate CPU that is idle on a
 * fully idle core, else the lowest idle candidate CPU" for every {@link IlbPruning} revision;
 * pruning only shortens the walk, which {@link #lastExamined()} reports.
 *
 * <p>As in the kernel, the candidates are written into a per-CPU scratch mask, here slot {@value
 * #SCRATCH_SLOT} of the kicking CPU borrowed from the simulation's {@link ScratchMaskPool} for the
 * length of the call (the kernel uses {@code select_rq_mask} with interrupts off; the scratch-mask
 * draft of seeds-digest §2 makes it slot 0 of a per-CPU pool). Each prune is one {@code
 * cpumask_andnot()} of the immutable {@code cpu_smt_mask()} from the topology. Nothing is
 * allocated per call. If the pool yields no mask (misuse under {@link
 * ScratchMaskPool.MisusePolicy#WARN_ONCE}), the walk runs over the two input masks without
 * pruning: the same choice at a higher examined count.
 *
 * <p>One instance per simulation; not thread-safe.
 */
public final class IdleCoreIlbSelector implements IlbSelector {

  /** The scratch slot borrowed on the kicking CPU; nothing else holds a slot during the kick. */
  public static final int SCRATCH_SLOT = 0;

  private final Topology topology;
  private final ScratchMaskPool scratchMasks;
  private final IlbPruning pruning;
  private int lastExamined;

  /**
   * A selector for one simulation.
   *
   * @param topology the machine, for {@code cpu_smt_mask()}
   * @param scratchMasks the simulation's per-CPU scratch masks
   * @param pruning which revision's pruning to apply
   */
  public IdleCoreIlbSelector(
      Topology topology, ScratchMaskPool scratchMasks, IlbPruning pruning) {
    this.topology = Objects.requireNonNull(topology, "topology");
    this.scratchMasks = Objects.requireNonNull(scratchMasks, "scratchMasks");
    this.pruning = Objects.requireNonNull(pruning, "pruning");
  }

  /** The pruning revision this selector applies. */
  public IlbPruning pruning() {
    return pruning;
  }

  @Override
  public int findNewIlb(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    try (ScratchMask candidates = scratchMasks.acquire(thisCpu, SCRATCH_SLOT)) {
      if (candidates == null) {
        return walkWithoutScratch(thisCpu, nohzIdleMask, housekeeping, state);
      }
      candidates.and(nohzIdleMask, housekeeping);
      return walk(thisCpu, candidates, state);
    }
  }

  private int walk(int thisCpu, ScratchMask candidates, CpuStateView state) {
    boolean smtActive = state.smtActive();
    int fallback = CpuMask.NO_CPU;
    int examined = 0;
    // A cursor loop rereads the live mask, so CPUs pruned ahead of the cursor are never visited.
    for (int cpu = candidates.first(); cpu != CpuMask.NO_CPU; cpu = candidates.next(cpu)) {
      examined++;
      if (pruning.skipsKicker() && cpu == thisCpu) {
        continue;
      }
      if (!state.isIdle(cpu)) {
        if (smtActive && fallback != CpuMask.NO_CPU && pruning.prunesBusyCpuSiblings()) {
          candidates.andNotWith(topology.smtSiblings(cpu));
        }
        continue;
      }
      if (smtActive && !state.isCoreIdle(cpu)) {
        if (fallback == CpuMask.NO_CPU) {
          fallback = cpu;
        }
        candidates.andNotWith(topology.smtSiblings(cpu));
        continue;
      }
      lastExamined = examined;
      return cpu;
    }
    lastExamined = examined;
    return fallback;
  }

  private int walkWithoutScratch(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    boolean smtActive = state.smtActive();
    int fallback = CpuMask.NO_CPU;
    int examined = 0;
    for (int cpu = nohzIdleMask.firstAnd(housekeeping);
        cpu != CpuMask.NO_CPU;
        cpu = nohzIdleMask.nextAnd(cpu, housekeeping)) {
      examined++;
      if ((pruning.skipsKicker() && cpu == thisCpu) || !state.isIdle(cpu)) {
        continue;
      }
      if (smtActive && !state.isCoreIdle(cpu)) {
        if (fallback == CpuMask.NO_CPU) {
          fallback = cpu;
        }
        continue;
      }
      lastExamined = examined;
      return cpu;
    }
    lastExamined = examined;
    return fallback;
  }

  /**
   * CPUs the last call's walk visited (pruned CPUs are not counted): the selection cost the patch
   * warns may grow ("may scan more CPUs").
   */
  @Override
  public int lastExamined() {
    return lastExamined;
  }
}
