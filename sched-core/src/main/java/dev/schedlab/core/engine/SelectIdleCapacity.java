package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import java.util.Comparator;
import java.util.TreeMap;

/**
 * Models {@code select_idle_capacity()} without uclamp, {@code select_idle_sibling()}'s search on
 * machines with asymmetric CPU capacity. Linux 7.1.5: the first idle CPU (from {@code target})
 * where the task fits, else the idle CPU of largest capacity, else -1. With {@link
 * dev.schedlab.core.balance.BalancerOptions#mainlineDeltas()} the SMT-aware form merged for 7.2
 * ("Prefer fully-idle SMT cores in asym-capacity idle selection", "Add SIS_UTIL support to
 * select_idle_capacity()"; kernel-facts §5.4): while the domain may have an idle core, a CPU counts
 * as preferred only if its whole core is idle; a fitting preferred CPU is returned at once, and
 * every preferred CPU outranks every CPU with a busy sibling ({@code ASYM_IDLE_CORE_BIAS}); without
 * an idle core the scan is cut at {@code nr_idle_scan}, and a scan that found no idle core clears
 * {@code has_idle_cores}. The kernel keeps those two in a {@code sched_domain_shared} attached to
 * {@code sd_asym_cpucapacity}; the model uses the LLC's, which is the same object where the
 * asymmetric domain is the LLC domain (Vera's MC, hybrid parts with one LLC) and an approximation
 * elsewhere.
 *
 * <p>When no scan budget applies and no runqueue holds only SCHED_IDLE tasks, only idle CPUs can be
 * chosen, and {@link #byMasks} finds the walk's CPU a word at a time.
 */
final class SelectIdleCapacity {

  /** {@code enum asym_fits_state} ranks (lower is better) without uclamp. */
  private static final int ASYM_IDLE_COMPLETE_MISFIT = -3;

  private static final int ASYM_IDLE_THREAD_FITS = -2;
  private static final int ASYM_IDLE_THREAD_MISFIT = 0;
  private static final int ASYM_IDLE_CORE_BIAS = -3;

  private final EngineContext ctx;
  private final CpuStateView state;
  private final SdLlcShared llcShared;
  private final WakeupPolicyChain chain;
  private final int nrCpuIds;
  private final boolean smtActive;
  private final boolean mainline;
  private final boolean sisUtil;

  /** {@code select_rq_mask}. */
  private final MutableCpuMask selectMask;

  /** Scratch for {@link #byMasks}. */
  private final MutableCpuMask preferredMask;

  private final MutableCpuMask scanMask;

  /** Distinct CPU capacities, largest first; {@code capacityAtLeast[k]}: CPUs of the first k+1. */
  private final long[] capacityClass;

  private final ImmutableCpuMask[] capacityClassCpus;
  private final ImmutableCpuMask[] capacityAtLeast;

  SelectIdleCapacity(EngineContext ctx, SdLlcShared llcShared, WakeupPolicyChain chain) {
    this.ctx = ctx;
    this.state = ctx.state;
    this.llcShared = llcShared;
    this.chain = chain;
    Topology topology = ctx.topology;
    this.nrCpuIds = topology.nrCpuIds();
    this.smtActive = topology.isSmt();
    this.mainline = ctx.balancerOptions.mainlineDeltas();
    this.sisUtil = ctx.options.sisUtil();
    this.selectMask = CpuMasks.mutable(nrCpuIds);
    this.preferredMask = CpuMasks.mutable(nrCpuIds);
    this.scanMask = CpuMasks.mutable(nrCpuIds);
    TreeMap<Long, MutableCpuMask> classes = new TreeMap<>(Comparator.reverseOrder());
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      if (topology.isPossible(cpu)) {
        classes
            .computeIfAbsent((long) topology.capacity(cpu), c -> CpuMasks.mutable(nrCpuIds))
            .set(cpu);
      }
    }
    this.capacityClass = new long[classes.size()];
    this.capacityClassCpus = new ImmutableCpuMask[classes.size()];
    this.capacityAtLeast = new ImmutableCpuMask[classes.size()];
    MutableCpuMask union = CpuMasks.mutable(nrCpuIds);
    int k = 0;
    for (var entry : classes.entrySet()) {
      capacityClass[k] = entry.getKey();
      capacityClassCpus[k] = entry.getValue().toImmutable();
      union.orWith(entry.getValue());
      capacityAtLeast[k] = union.toImmutable();
      k++;
    }
  }

  /** Models {@code select_idle_capacity(p, sd, target)} for a task of utilisation {@code util}. */
  int select(Task p, SchedDomain sd, int target, long taskUtil) {
    MutableCpuMask cpus = selectMask;
    if (!cpus.and(sd.span(), p.allowed)) {
      return -1;
    }
    boolean hasIdleCore = mainline && smtActive && llcShared.testIdleCores(target);
    int nr = Integer.MAX_VALUE;
    int scan = llcShared.nrIdleScan(target);
    if (mainline && !hasIdleCore && sisUtil && scan >= 0) {
      nr = scan + 1;
      if (nr == 1) {
        return -1;
      }
    }
    if (nr == Integer.MAX_VALUE && ctx.queuedIdlePolicyTasks == 0) {
      // Without a scan budget and without SCHED_IDLE-only runqueues only idle CPUs can be chosen.
      cpus.andWith(state.idleMask());
      return byMasks(cpus, target, taskUtil, hasIdleCore);
    }
    return walk(p, cpus, target, taskUtil, hasIdleCore, nr);
  }

  /**
   * The kernel's CPU-by-CPU walk over {@code cpus} (the domain's span and the task's affinity) from
   * {@code target}, at most {@code nr - 1} CPUs while no idle core is hinted.
   */
  int walk(Task p, CpuMask cpus, int target, long taskUtil, boolean hasIdleCore, int nr) {
    int best = -1;
    long bestCapacity = 0;
    int bestFits = ASYM_IDLE_THREAD_MISFIT;
    int cpu = cpus.next(target - 1);
    boolean wrapped = false;
    if (cpu == CpuMask.NO_CPU) {
      cpu = cpus.first();
      wrapped = true;
    }
    CpuMask idleCores = state.idleCoreMask();
    while (cpu != CpuMask.NO_CPU && !(wrapped && cpu >= target)) {
      if (!hasIdleCore && --nr <= 0) {
        return best;
      }
      if (chain.chooseIdleCpu(cpu, p)) {
        // An idle CPU's bit in the idle-core mask is is_core_idle(); a SCHED_IDLE-only runqueue
        // that counts as idle is not idle itself, so ask about its siblings.
        boolean preferred =
            !hasIdleCore
                || (state.isAvailableIdle(cpu) ? idleCores.test(cpu) : state.isCoreIdle(cpu));
        long capacity = state.capacityOf(cpu);
        boolean fits = taskUtil * 1280 < capacity * 1024;
        if (fits && preferred) {
          return cpu;
        }
        int rank =
            (fits ? ASYM_IDLE_THREAD_FITS : ASYM_IDLE_THREAD_MISFIT)
                + (preferred ? ASYM_IDLE_CORE_BIAS : 0);
        if (rank < bestFits || (rank == bestFits && capacity > bestCapacity)) {
          bestCapacity = capacity;
          best = cpu;
          bestFits = rank;
        }
      }
      int next = cpus.next(cpu);
      if (next == CpuMask.NO_CPU && !wrapped) {
        wrapped = true;
        next = cpus.first();
      }
      cpu = next;
    }
    if (hasIdleCore && bestFits > ASYM_IDLE_COMPLETE_MISFIT) {
      llcShared.setIdleCores(target, false);
    }
    return best;
  }

  /**
   * {@link #walk} computed a word at a time, for candidates {@code cpus} that are all idle CPUs (no
   * scan budget): the same CPU, since the walk's ranking only orders by rank, then capacity, then
   * wrap order from {@code target}. Fitting CPUs are those of the capacity classes above {@code
   * 1.25 × util}.
   */
  int byMasks(CpuMask cpus, int target, long taskUtil, boolean hasIdleCore) {
    int fitting = 0; // capacityAtLeast[fitting - 1] is the set of CPUs the task fits
    while (fitting < capacityClass.length && taskUtil * 1280 < capacityClass[fitting] * 1024) {
      fitting++;
    }
    MutableCpuMask preferred = preferredMask;
    if (hasIdleCore) {
      preferred.and(cpus, state.idleCoreMask());
    } else {
      preferred.copyFrom(cpus);
    }
    if (fitting > 0 && scanMask.and(preferred, capacityAtLeast[fitting - 1])) {
      return scanMask.nextWrap(target - 1 < 0 ? nrCpuIds - 1 : target - 1); // fits, idle core
    }
    if (!preferred.isEmpty()) {
      return largestFirstWrap(preferred, 0, target); // ASYM_IDLE_COMPLETE_MISFIT
    }
    if (hasIdleCore) {
      llcShared.setIdleCores(target, false);
    }
    // Only CPUs with a busy sibling are left: fitting ones first, then the rest.
    if (fitting > 0 && scanMask.and(cpus, capacityAtLeast[fitting - 1])) {
      return largestFirstWrap(scanMask, 0, target);
    }
    return cpus.isEmpty() ? -1 : largestFirstWrap(cpus, fitting, target);
  }

  /** The first CPU of {@code within} in the largest capacity class from {@code fromClass} on. */
  private int largestFirstWrap(CpuMask within, int fromClass, int target) {
    for (int k = fromClass; k < capacityClass.length; k++) {
      int first = firstWrapAnd(within, capacityClassCpus[k], target);
      if (first >= 0) {
        return first;
      }
    }
    return -1;
  }

  private static int firstWrapAnd(CpuMask mask, CpuMask other, int target) {
    int cpu = target == 0 ? mask.firstAnd(other) : mask.nextAnd(target - 1, other);
    if (cpu == CpuMask.NO_CPU) {
      cpu = mask.firstAnd(other);
    }
    return cpu == CpuMask.NO_CPU ? -1 : cpu;
  }
}
