package dev.schedlab.core.engine;

import dev.schedlab.core.stats.PlacementPath;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;

/**
 * Models {@code select_idle_sibling(p, prev, target)} of kernel/sched/fair.c and its scans: the
 * target, prev and {@code recent_used_cpu} first, then {@code select_idle_capacity()} ({@link
 * SelectIdleCapacity}) on asymmetric machines, else {@code select_idle_smt()} on prev's core and
 * {@code select_idle_cpu()} over the LLC with {@code select_idle_core()} while {@code
 * has_idle_cores} is set and the SIS_UTIL budget otherwise. Each choice records the {@link
 * PlacementPath} that made it ({@link #lastPath()}).
 *
 * <p>Not modelled: uclamp ({@code asym_fits_cpu()} uses {@code fits_capacity()} on {@code
 * task_util_est()}), core scheduling cookies, per-CPU kthread stacking.
 */
final class SelectIdleSibling {

  private final SchedDomains domains;
  private final Topology topology;
  private final CpuStateView state;
  private final SdLlcShared llcShared;
  private final WakeupPolicyChain chain;
  private final SelectIdleCapacity capacity;
  private final int nrCpuIds;
  private final boolean smtActive;
  private final boolean asymActive;
  private final boolean clusterActive;
  private final boolean mainline;
  private final boolean sisUtil;

  /** {@code select_rq_mask}. */
  private final MutableCpuMask selectMask;

  /** The path of the last choice made. */
  private PlacementPath path;

  /** {@code *idle_cpu} of {@code select_idle_cpu()}: the first usable CPU seen, or -1. */
  private int idleCpuCandidate;

  /** Scan budget left by the last {@link #scanWrap}. */
  private int remainingNr;

  SelectIdleSibling(
      EngineContext ctx,
      SdLlcShared llcShared,
      WakeupPolicyChain chain,
      SelectIdleCapacity capacity) {
    this.domains = ctx.domains;
    this.topology = ctx.topology;
    this.state = ctx.state;
    this.llcShared = llcShared;
    this.chain = chain;
    this.capacity = capacity;
    this.nrCpuIds = topology.nrCpuIds();
    this.smtActive = topology.isSmt();
    this.asymActive = domains.hasAsymCpuCapacity();
    this.clusterActive = domains.hasClusterDomains();
    this.mainline = ctx.balancerOptions.mainlineDeltas();
    this.sisUtil = ctx.options.sisUtil();
    this.selectMask = CpuMasks.mutable(nrCpuIds);
  }

  /** The path of the last choice made. */
  PlacementPath lastPath() {
    return path;
  }

  /** Equivalent of {@code asym_fits_cpu()} (true on symmetric machines). */
  private boolean asymFitsCpu(long util, int cpu) {
    if (!asymActive) {
      return true;
    }
    boolean fits = util * 1280 < (long) topology.capacity(cpu) * 1024;
    if (fits && mainline && smtActive) {
      return state.isCoreIdle(cpu);
    }
    return fits;
  }

  /** Models {@code select_idle_sibling(p, prev, target)}. */
  int select(Task p, int prev, int target) {
    long taskUtil = asymActive ? Math.max(p.avg.utilAvg, p.utilEst) : 0;
    if (chain.chooseIdleCpu(target, p) && asymFitsCpu(taskUtil, target)) {
      path =
          state.isAvailableIdle(target)
              ? PlacementPath.TARGET_IDLE
              : PlacementPath.TARGET_SCHED_IDLE;
      return target;
    }
    int prevAffinity = -1;
    if (prev != target
        && domains.cpusShareCache(prev, target)
        && chain.chooseIdleCpu(prev, p)
        && asymFitsCpu(taskUtil, prev)) {
      if (!clusterActive || domains.cpusShareResources(prev, target)) {
        path =
            state.isAvailableIdle(prev) ? PlacementPath.PREV_IDLE : PlacementPath.PREV_SCHED_IDLE;
        return prev;
      }
      prevAffinity = prev;
    }
    int recent = p.recentUsedCpu;
    p.recentUsedCpu = prev;
    if (recent >= 0
        && recent != prev
        && recent != target
        && domains.cpusShareCache(recent, target)
        && chain.chooseIdleCpu(recent, p)
        && p.allowed.test(recent)
        && asymFitsCpu(taskUtil, recent)) {
      if (!clusterActive || domains.cpusShareResources(recent, target)) {
        path = PlacementPath.RECENT;
        return recent;
      }
    } else {
      recent = -1;
    }
    if (asymActive) {
      SchedDomain asym = domains.sdAsymCpuCapacity(target);
      if (asym != null) {
        int i = capacity.select(p, asym, target, taskUtil);
        path = i >= 0 ? PlacementPath.ASYM_CAPACITY : PlacementPath.NONE_IDLE;
        return i >= 0 ? i : target;
      }
    }
    SchedDomain llc = domains.sdLlc(target);
    if (llc == null) {
      path = PlacementPath.NONE_IDLE;
      return target;
    }
    boolean hasIdleCore = false;
    if (smtActive) {
      hasIdleCore = llcShared.testIdleCores(target);
      if (!hasIdleCore && domains.cpusShareCache(prev, target)) {
        int i = selectIdleSmt(p, llc, prev);
        if (i >= 0) {
          path = PlacementPath.SMT_SIBLING;
          return i;
        }
      }
    }
    int i = selectIdleCpu(p, llc, hasIdleCore, target);
    if (i >= 0) {
      path = PlacementPath.LLC_SCAN;
      return i;
    }
    path = PlacementPath.NONE_IDLE;
    if (prevAffinity >= 0) {
      return prevAffinity;
    }
    if (recent >= 0) {
      return recent;
    }
    return target;
  }

  /** Equivalent of {@code select_idle_smt(p, sd, target)}. */
  private int selectIdleSmt(Task p, SchedDomain sd, int target) {
    CpuMask smt = topology.smtSiblings(target);
    for (int cpu = smt.first(); cpu != CpuMask.NO_CPU; cpu = smt.next(cpu)) {
      if (cpu == target || !p.allowed.test(cpu) || !sd.span().test(cpu)) {
        continue;
      }
      if (chain.chooseIdleCpu(cpu, p)) {
        return cpu;
      }
    }
    return -1;
  }

  /**
   * Equivalent of {@code select_idle_core(p, core, cpus, &idle_cpu)}: returns {@code core} when its
   * whole SMT core is idle; otherwise drops the core from {@code cpus} and, through {@link
   * #idleCpuCandidate}, remembers the first usable CPU seen.
   */
  private int selectIdleCore(Task p, int core, MutableCpuMask cpus) {
    boolean idle = true;
    CpuMask smt = topology.smtSiblings(core);
    for (int cpu = smt.first(); cpu != CpuMask.NO_CPU; cpu = smt.next(cpu)) {
      if (!state.isActive(cpu)) {
        continue; // cpu_smt_mask() has online CPUs only
      }
      if (!state.isAvailableIdle(cpu)) {
        idle = false;
        if (idleCpuCandidate == -1) {
          if (chain.chooseSchedIdleRq(cpu, p) && cpus.test(cpu)) {
            idleCpuCandidate = cpu;
            break;
          }
          continue;
        }
        break;
      }
      if (idleCpuCandidate == -1 && cpus.test(cpu)) {
        idleCpuCandidate = cpu;
      }
    }
    if (idle) {
      return core;
    }
    cpus.removeAll(smt);
    return -1;
  }

  /**
   * Equivalent of {@code select_idle_cpu(p, sd_llc, has_idle_core, target)}: scans the LLC from
   * {@code target + 1}, whole cores first when the LLC may have an idle core, limited by {@code
   * nr_idle_scan} otherwise (SIS_UTIL); clears {@code has_idle_cores} after a fruitless core scan.
   */
  private int selectIdleCpu(Task p, SchedDomain sd, boolean hasIdleCore, int target) {
    int nr = Integer.MAX_VALUE;
    int scan = llcShared.nrIdleScan(target);
    if (sisUtil && scan >= 0) {
      nr = scan + 1;
      if (nr == 1) {
        return -1;
      }
    }
    MutableCpuMask cpus = selectMask;
    if (!cpus.and(sd.span(), p.allowed)) {
      return -1;
    }
    idleCpuCandidate = -1;
    if (clusterActive) {
      SchedGroup local = sd.localGroup();
      if ((local.flags() & SdFlags.SD_CLUSTER) != 0) {
        // The target's cluster is scanned first.
        int result = scanWrap(p, local.span(), cpus, target, hasIdleCore, nr);
        if (result != Integer.MIN_VALUE) {
          return result;
        }
        nr = remainingNr;
        cpus.removeAll(local.span());
      }
    }
    int result = scanWrap(p, null, cpus, target, hasIdleCore, nr);
    if (result != Integer.MIN_VALUE) {
      return result;
    }
    if (hasIdleCore) {
      llcShared.setIdleCores(target, false);
    }
    return idleCpuCandidate;
  }

  /**
   * The wrap scan of {@code select_idle_cpu()} over {@code cpus} (restricted to {@code within} when
   * non-null) from {@code target + 1}. Returns a decided result, or {@code Integer.MIN_VALUE} to
   * continue; leaves the unspent scan budget in {@link #remainingNr}.
   */
  private int scanWrap(
      Task p, CpuMask within, MutableCpuMask cpus, int target, boolean hasIdleCore, int nr) {
    int start = target + 1 >= nrCpuIds ? 0 : target + 1;
    int cpu = cpus.next(start - 1);
    boolean wrapped = false;
    if (cpu == CpuMask.NO_CPU) {
      cpu = cpus.first();
      wrapped = true;
    }
    while (cpu != CpuMask.NO_CPU && !(wrapped && cpu >= start)) {
      if (within == null || within.test(cpu)) {
        if (hasIdleCore) {
          int i = selectIdleCore(p, cpu, cpus);
          if (i >= 0) {
            return i;
          }
        } else {
          if (--nr <= 0) {
            remainingNr = nr;
            return -1;
          }
          if (chain.chooseIdleCpu(cpu, p)) {
            idleCpuCandidate = cpu;
            remainingNr = nr;
            return cpu;
          }
        }
      }
      int next = cpus.next(cpu);
      if (next == CpuMask.NO_CPU && !wrapped) {
        wrapped = true;
        next = cpus.first();
      }
      cpu = next;
    }
    remainingNr = nr;
    return Integer.MIN_VALUE;
  }
}
