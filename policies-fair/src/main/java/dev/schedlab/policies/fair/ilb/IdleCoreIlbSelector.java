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
 * draft of seeds-digest §2 makes it slot 0 of a per-CPU pool). Each prune is the kernel's {@code
 * cpumask_andnot(cpus, cpus, cpu_smt_mask(cpu))}, done as one {@code cpumask_clear_cpu()} per
 * sibling from lists built at creation: the walk never needs the "still non-empty" answer, and on a
 * wide machine each core's {@code cpu_smt_mask()} is a separate 1 KiB bitmap, so reading it at
 * every step costs either a full-width pass (quadratic when no core is fully idle) or a cache miss
 * per prune, where the lists are a few sequential ints. Nothing is allocated per call. If the
 * pool yields no mask (misuse under {@link ScratchMaskPool.MisusePolicy#WARN_ONCE}), the walk
 * runs over the two input masks without pruning: the same choice at a higher examined count.
 *
 * <p>One instance per simulation; not thread-safe.
 */
public final class IdleCoreIlbSelector implements IlbSelector {

  /** The scratch slot borrowed on the kicking CPU; nothing else holds a slot during the kick. */
  public static final int SCRATCH_SLOT = 0;

  private final Topology topology;
  private final ScratchMaskPool scratchMasks;
  private final IlbPruning pruning;
  /** CPU {@code c}'s SMT siblings (itself included) are {@code siblingCpus[siblingStart[c]..]}. */
  private final int[] siblingStart;
  private final int[] siblingCpus;
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
    int nrCpuIds = topology.nrCpuIds();
    this.siblingStart = new int[nrCpuIds + 1];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      int siblings = topology.isPossible(cpu) ? topology.smtSiblings(cpu).weight() : 0;
      siblingStart[cpu + 1] = siblingStart[cpu] + siblings;
    }
    this.siblingCpus = new int[siblingStart[nrCpuIds]];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      if (topology.isPossible(cpu)) {
        CpuMask core = topology.smtSiblings(cpu);
        int next = siblingStart[cpu];
        for (int sibling = core.first(); sibling != CpuMask.NO_CPU; sibling = core.next(sibling)) {
          siblingCpus[next++] = sibling;
        }
      }
    }
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
          removeSmtSiblings(candidates, cpu);
        }
        continue;
      }
      if (smtActive && !state.isCoreIdle(cpu)) {
        if (fallback == CpuMask.NO_CPU) {
          fallback = cpu;
        }
        removeSmtSiblings(candidates, cpu);
        continue;
      }
      lastExamined = examined;
      return cpu;
    }
    lastExamined = examined;
    return fallback;
  }

  /** Equivalent of {@code cpumask_andnot(candidates, candidates, cpu_smt_mask(cpu))}. */
  private void removeSmtSiblings(ScratchMask candidates, int cpu) {
    int from = siblingStart[cpu];
    int to = siblingStart[cpu + 1];
    if (from == to) {
      // Not a possible CPU, so it has no core: the topology rejects it as it always did.
      candidates.removeAll(topology.smtSiblings(cpu));
      return;
    }
    for (int i = from; i < to; i++) {
      candidates.clear(siblingCpus[i]);
    }
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
