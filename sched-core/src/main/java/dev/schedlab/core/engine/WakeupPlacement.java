package dev.schedlab.core.engine;

import dev.schedlab.core.balance.GroupType;
import dev.schedlab.core.balance.NumaImbalance;
import dev.schedlab.core.balance.SgLbStats;
import dev.schedlab.core.stats.PlacementPath;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.DistributeCursor;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.WakeupContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * CPU selection for waking and new tasks: {@code select_task_rq()} and {@code
 * select_task_rq_fair()} of kernel/sched/fair.c with {@code wake_wide()}, {@code wake_affine()}
 * (WA_IDLE, WA_WEIGHT, WA_BIAS), {@code select_idle_sibling()} with {@code select_idle_core()},
 * {@code select_idle_cpu()} (SIS_UTIL optional), {@code select_idle_smt()}, {@code
 * select_idle_capacity()} and {@code recent_used_cpu}, and the fork/exec slow path {@code
 * sched_balance_find_dst_cpu()}. {@code choose_idle_cpu()} asks the run's {@link WakeupPolicy}
 * chain whether a SCHED_IDLE-only runqueue counts as idle; {@link WakeupPolicy#selectFinal} has
 * the last word.
 *
 * <p>{@code WF_SYNC} (a task program's {@code TaskControl.wake(id, true)}, as pipes and sockets
 * wake) enters only {@code wake_affine()}: {@code wake_affine_idle()} returns the waker's CPU when
 * the waker is its only runnable task, {@code wake_affine_weight()} discounts the waker's load.
 * {@code select_idle_sibling()} then tests that target first, with {@code choose_idle_cpu()} and
 * so with the {@link WakeupPolicy} vote on SCHED_IDLE-only runqueues. {@code wake_wide()} does
 * not look at sync.
 *
 * <p>Not modelled: EAS, uclamp
 * ({@code select_idle_capacity()} uses {@code fits_capacity()} on {@code task_util_est()}), core
 * scheduling cookies, per-CPU kthread stacking, NUMA preferred nodes, and idle-state exit
 * latencies (all idle CPUs are equally shallow, so the most recently idled one wins ties).
 */
final class WakeupPlacement {

  /** {@code WF_EXEC}, {@code WF_FORK}, {@code WF_TTWU}: the same bits as SD_BALANCE_*. */
  static final int WF_EXEC = 0x02;

  static final int WF_FORK = 0x04;
  static final int WF_TTWU = 0x08;
  /** {@code WF_SYNC}: the waker will soon block (kernel-facts §1.1). */
  static final int WF_SYNC = 0x10;


  private final Simulation sim;
  private final SchedDomains domains;
  private final Topology topology;
  private final CpuStateView state;
  private final CpuRunqueue[] rqs;
  private final int nrCpuIds;
  private final boolean smtActive;
  private final boolean asymActive;
  private final boolean clusterActive;
  private final WakeupPolicy[] policies;

  /** {@code sd_llc_shared->has_idle_cores}, per LLC id. */
  private final boolean[] hasIdleCores;
  /** {@code sd_llc_shared->nr_idle_scan}, per LLC id. */
  private final int[] nrIdleScan;
  private final int[] llcFirstCpu;

  /** {@code select_rq_mask}. */
  private final MutableCpuMask selectMask;
  /** Scratch for the word-wise {@code select_idle_capacity()}. */
  private final MutableCpuMask preferredMask;
  private final MutableCpuMask scanMask;
  /** Distinct CPU capacities, largest first; {@code capacityAtLeast[k]}: CPUs of the first k+1. */
  private final long[] capacityClass;
  private final ImmutableCpuMask[] capacityClassCpus;
  private final ImmutableCpuMask[] capacityAtLeast;
  /** Placements per {@link PlacementPath}, by ordinal. */
  private final long[] pathCounts = new long[PlacementPath.ALL.size()];
  /** The path of the placement being made. */
  private PlacementPath path;

  /** Tests only: always take the CPU-by-CPU {@code select_idle_capacity()} walk. */
  boolean capacityWalkOnly;

  private final SgLbStats local = new SgLbStats();
  private final SgLbStats idlest = new SgLbStats();
  private final SgLbStats candidate = new SgLbStats();
  private final Context context = new Context();

  WakeupPlacement(Simulation sim) {
    this.sim = sim;
    this.domains = sim.domains;
    this.topology = sim.topology;
    this.state = sim.state;
    this.rqs = sim.rqs;
    this.nrCpuIds = topology.nrCpuIds();
    this.smtActive = topology.isSmt();
    this.asymActive = domains.hasAsymCpuCapacity();
    this.clusterActive = domains.hasClusterDomains();
    this.policies = sim.wakeupPolicies.toArray(new WakeupPolicy[0]);
    int llcs = Math.max(1, domains.llcCount());
    this.hasIdleCores = new boolean[llcs];
    this.nrIdleScan = new int[llcs];
    this.llcFirstCpu = new int[llcs];
    java.util.Arrays.fill(llcFirstCpu, -1);
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      if (!topology.isPossible(cpu)) {
        continue;
      }
      int llc = domains.llcId(cpu);
      if (llc != SchedDomains.NO_LLC && llcFirstCpu[llc] < 0) {
        llcFirstCpu[llc] = cpu;
        // Assumed start value: an idle machine scans its whole LLC.
        nrIdleScan[llc] = domains.llcSize(cpu);
      }
    }
    this.selectMask = CpuMasks.mutable(nrCpuIds);
    this.preferredMask = CpuMasks.mutable(nrCpuIds);
    this.scanMask = CpuMasks.mutable(nrCpuIds);
    TreeMap<Long, MutableCpuMask> classes = new TreeMap<>(Comparator.reverseOrder());
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      if (topology.isPossible(cpu)) {
        classes.computeIfAbsent((long) topology.capacity(cpu), c -> CpuMasks.mutable(nrCpuIds))
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

  // ---------------------------------------------------------------------------------------
  // Entry

  /**
   * Models {@code select_task_rq()}: {@code select_task_rq_fair()} for tasks allowed on more
   * than one CPU, then the policies' final say, then {@code select_fallback_rq()} if the result
   * is not allowed.
   */
  int selectTaskRq(Task p, int prevCpu, int thisCpu, int wakeFlags, Task waker) {
    int cpu;
    if (p.nrAllowed > 1) {
      cpu = selectTaskRqFair(p, prevCpu, thisCpu, wakeFlags, waker);
      int fair = cpu;
      context.set(thisCpu, (wakeFlags & WF_FORK) != 0);
      for (WakeupPolicy policy : policies) {
        cpu = policy.selectFinal(p, prevCpu, cpu, context);
      }
      if (cpu != fair) {
        path = PlacementPath.POLICY;
      }
    } else {
      cpu = p.allowed.first();
      path = PlacementPath.ONE_CPU;
    }
    if (cpu < 0 || cpu >= nrCpuIds || !p.allowed.test(cpu) || !state.isActive(cpu)) {
      // select_fallback_rq(): the first allowed active CPU.
      cpu = p.allowed.first();
      path = PlacementPath.FALLBACK_RQ;
    }
    pathCounts[path.ordinal()]++;
    return cpu;
  }

  /** Placements made so far by {@link PlacementPath} ordinal (a copy). */
  long[] placementPaths() {
    return pathCounts.clone();
  }

  /** The path of the last choice made (for tests that call the steps directly). */
  PlacementPath lastPath() {
    return path;
  }

  /**
   * Models {@code select_task_rq_fair(p, prev_cpu, wake_flags)} without EAS. {@code sync} is
   * {@code WF_SYNC} from a waker that is not exiting: programs pass sync=false for exit
   * notifications ({@code TaskControl.wake(int, boolean)}), and timer wakeups are never sync.
   */
  int selectTaskRqFair(Task p, int prevCpu, int thisCpu, int wakeFlags, Task waker) {
    boolean sync = (wakeFlags & WF_SYNC) != 0 && waker != null;
    int sdFlag = wakeFlags & 0xF;
    int cpu = thisCpu;
    int newCpu = prevCpu;
    boolean wantAffine = false;
    if ((wakeFlags & WF_TTWU) != 0) {
      if (waker != null) {
        recordWakee(waker, p);
      }
      wantAffine = !wakeWide(p, waker, thisCpu) && p.allowed.test(cpu);
    }
    SchedDomain sd = null;
    // An indexed loop: a list iterator per wakeup is garbage on the hot path.
    List<SchedDomain> cpuDomains = domains.domains(cpu);
    for (int i = 0; i < cpuDomains.size(); i++) {
      SchedDomain tmp = cpuDomains.get(i);
      if (wantAffine && tmp.hasFlag(SdFlags.SD_WAKE_AFFINE) && tmp.span().test(prevCpu)) {
        if (cpu != prevCpu) {
          newCpu = wakeAffine(tmp, p, cpu, prevCpu, sync ? waker : null);
        }
        sd = null;
        break;
      }
      if ((tmp.flags() & sdFlag) != 0) {
        sd = tmp;
      } else if (!wantAffine) {
        break;
      }
    }
    if (sd != null) {
      path = PlacementPath.SLOW;
      return findDstCpu(sd, p, cpu, prevCpu, sdFlag);
    }
    if ((wakeFlags & WF_TTWU) != 0) {
      return selectIdleSibling(p, prevCpu, newCpu);
    }
    path = PlacementPath.NO_SEARCH;
    return newCpu;
  }

  // ---------------------------------------------------------------------------------------
  // wake_wide / wake_affine

  /** Equivalent of {@code record_wakee(p)} on the waker. */
  private void recordWakee(Task waker, Task p) {
    long jiffies = sim.scheduler.jiffies();
    if (jiffies > waker.wakeeFlipDecayTs + sim.hz) {
      waker.wakeeFlips >>= 1;
      waker.wakeeFlipDecayTs = jiffies;
    }
    if (waker.lastWakee != p.id) {
      waker.lastWakee = p.id;
      waker.wakeeFlips++;
    }
  }

  /** Equivalent of {@code wake_wide(p)}. */
  private boolean wakeWide(Task p, Task waker, int thisCpu) {
    int master = waker == null ? 0 : waker.wakeeFlips;
    int slave = p.wakeeFlips;
    int factor = domains.llcSize(thisCpu);
    if (master < slave) {
      int t = master;
      master = slave;
      slave = t;
    }
    return !(slave < factor || master < (long) slave * factor);
  }

  /**
   * Equivalent of {@code wake_affine(sd, p, this_cpu, prev_cpu, sync)}: this CPU or prev,
   * counting {@code ttwu_move_affine}. {@code syncWaker} is the waker ({@code current}) of a sync
   * wakeup, null otherwise.
   */
  private int wakeAffine(SchedDomain sd, Task p, int thisCpu, int prevCpu, Task syncWaker) {
    int target = wakeAffineIdle(thisCpu, prevCpu, syncWaker != null);
    if (target == nrCpuIds) {
      target = wakeAffineWeight(sd, p, thisCpu, prevCpu, syncWaker);
    }
    if (target != thisCpu) {
      return prevCpu;
    }
    sim.stats.ttwuMoveAffine(thisCpu, sd.level());
    return target;
  }

  /**
   * Equivalent of {@code wake_affine_idle(this_cpu, prev_cpu, sync)}: an idle waking CPU that
   * shares cache with prev (an interrupt wakeup) gives prev if idle, else this CPU; a sync waker
   * alone on its runqueue ({@code nr_running - h_nr_delayed == 1}; the engine has no delayed
   * dequeue) gives this CPU, even when prev is idle; then prev if idle; else no decision.
   */
  private int wakeAffineIdle(int thisCpu, int prevCpu, boolean sync) {
    if (state.isAvailableIdle(thisCpu) && domains.cpusShareCache(thisCpu, prevCpu)) {
      return state.isAvailableIdle(prevCpu) ? prevCpu : thisCpu;
    }
    if (sync && rqs[thisCpu].nr == 1) {
      return thisCpu;
    }
    if (state.isAvailableIdle(prevCpu)) {
      return prevCpu;
    }
    return nrCpuIds;
  }

  /**
   * Equivalent of {@code wake_affine_weight(sd, p, this_cpu, prev_cpu, sync)} with WA_BIAS. For a
   * sync wakeup ({@code syncWaker} non-null) the waker's {@code task_h_load()} is taken off this
   * CPU's load (this CPU wins outright when the waker carries more than all of it), and prev's
   * side gets +1 so that a tie goes to this CPU.
   */
  private int wakeAffineWeight(SchedDomain sd, Task p, int thisCpu, int prevCpu, Task syncWaker) {
    long thisEffLoad = state.loadAvg(thisCpu);
    if (syncWaker != null) {
      long currentLoad = sim.host.taskHLoad(syncWaker.id);
      if (currentLoad > thisEffLoad) {
        return thisCpu;
      }
      thisEffLoad -= currentLoad;
    }
    long taskLoad = sim.host.taskHLoad(p.id);
    thisEffLoad += taskLoad;
    thisEffLoad *= 100;
    thisEffLoad *= state.capacityOf(prevCpu);
    long prevEffLoad = state.loadAvg(prevCpu) - taskLoad;
    prevEffLoad *= 100 + (sd.imbalancePct() - 100) / 2;
    prevEffLoad *= state.capacityOf(thisCpu);
    if (syncWaker != null) {
      prevEffLoad += 1;
    }
    return thisEffLoad < prevEffLoad ? thisCpu : nrCpuIds;
  }

  // ---------------------------------------------------------------------------------------
  // select_idle_sibling

  /**
   * Equivalent of {@code choose_idle_cpu(cpu, p)}: {@code available_idle_cpu()}, or a runqueue
   * of SCHED_IDLE tasks only when the policies (default: the 7.1.5 rule) let {@code p} count it
   * as idle.
   */
  boolean chooseIdleCpu(int cpu, Task p) {
    return state.isAvailableIdle(cpu) || chooseSchedIdleRq(cpu, p);
  }

  /** Equivalent of {@code choose_sched_idle_rq(rq, p)} with the policy vote. */
  boolean chooseSchedIdleRq(int cpu, Task p) {
    return rqs[cpu].isSchedIdleRq() && schedIdleRqCountsAsIdle(p);
  }

  private boolean schedIdleRqCountsAsIdle(Task p) {
    for (WakeupPolicy policy : policies) {
      WakeupPolicy.Vote vote = policy.schedIdleRqCountsAsIdle(p);
      if (vote == WakeupPolicy.Vote.YES) {
        return true;
      }
      if (vote == WakeupPolicy.Vote.NO) {
        return false;
      }
    }
    return !p.policy.isIdlePolicy();
  }

  /** Equivalent of {@code asym_fits_cpu()} (true on symmetric machines). */
  private boolean asymFitsCpu(long util, int cpu) {
    if (!asymActive) {
      return true;
    }
    boolean fits = util * 1280 < (long) topology.capacity(cpu) * 1024;
    if (fits && sim.setup.balancer().mainlineDeltas() && smtActive) {
      return state.isCoreIdle(cpu);
    }
    return fits;
  }

  /** Models {@code select_idle_sibling(p, prev, target)}. */
  int selectIdleSibling(Task p, int prev, int target) {
    long taskUtil = asymActive ? Math.max(p.avg.utilAvg, p.utilEst) : 0;
    if (chooseIdleCpu(target, p) && asymFitsCpu(taskUtil, target)) {
      path = state.isAvailableIdle(target)
          ? PlacementPath.TARGET_IDLE : PlacementPath.TARGET_SCHED_IDLE;
      return target;
    }
    int prevAffinity = -1;
    if (prev != target
        && domains.cpusShareCache(prev, target)
        && chooseIdleCpu(prev, p)
        && asymFitsCpu(taskUtil, prev)) {
      if (!clusterActive || domains.cpusShareResources(prev, target)) {
        path = state.isAvailableIdle(prev)
            ? PlacementPath.PREV_IDLE : PlacementPath.PREV_SCHED_IDLE;
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
        && chooseIdleCpu(recent, p)
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
        int i = selectIdleCapacity(p, asym, target, taskUtil);
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
      hasIdleCore = testIdleCores(target);
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
      if (chooseIdleCpu(cpu, p)) {
        return cpu;
      }
    }
    return -1;
  }

  /**
   * Equivalent of {@code select_idle_core(p, core, cpus, &idle_cpu)}: returns {@code core} when
   * its whole SMT core is idle; otherwise drops the core from {@code cpus} and, through {@link
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
          if (chooseSchedIdleRq(cpu, p) && cpus.test(cpu)) {
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

  /** {@code *idle_cpu} of {@code select_idle_cpu()}: the first usable CPU seen, or -1. */
  private int idleCpuCandidate;

  /**
   * Equivalent of {@code select_idle_cpu(p, sd_llc, has_idle_core, target)}: scans the LLC from
   * {@code target + 1}, whole cores first when the LLC may have an idle core, limited by {@code
   * nr_idle_scan} otherwise (SIS_UTIL); clears {@code has_idle_cores} after a fruitless core
   * scan.
   */
  private int selectIdleCpu(Task p, SchedDomain sd, boolean hasIdleCore, int target) {
    int nr = Integer.MAX_VALUE;
    int llc = domains.llcId(target);
    if (sim.options.sisUtil() && llc != SchedDomains.NO_LLC) {
      nr = nrIdleScan[llc] + 1;
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
      setIdleCores(target, false);
    }
    return idleCpuCandidate;
  }

  /** Scan budget left by the last {@link #scanWrap}. */
  private int remainingNr;

  /**
   * The wrap scan of {@code select_idle_cpu()} over {@code cpus} (restricted to {@code within}
   * when non-null) from {@code target + 1}. Returns a decided result, or {@code
   * Integer.MIN_VALUE} to continue; leaves the unspent scan budget in {@link #remainingNr}.
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
          if (chooseIdleCpu(cpu, p)) {
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

  /** {@code enum asym_fits_state} ranks (lower is better) without uclamp. */
  private static final int ASYM_IDLE_COMPLETE_MISFIT = -3;
  private static final int ASYM_IDLE_THREAD_FITS = -2;
  private static final int ASYM_IDLE_THREAD_MISFIT = 0;
  private static final int ASYM_IDLE_CORE_BIAS = -3;

  /**
   * Models {@code select_idle_capacity()} without uclamp. Linux 7.1.5: the first idle CPU (from
   * {@code target}) where the task fits, else the idle CPU of largest capacity, else -1. With
   * {@link dev.schedlab.core.balance.BalancerOptions#mainlineDeltas()} the SMT-aware form merged
   * for 7.2 ("Prefer fully-idle SMT cores in asym-capacity idle selection", "Add SIS_UTIL support
   * to select_idle_capacity()"; kernel-facts §5.4): while the domain may have an idle core, a CPU
   * counts as preferred only if its whole core is idle; a fitting preferred CPU is returned at
   * once, and every preferred CPU outranks every CPU with a busy sibling ({@code
   * ASYM_IDLE_CORE_BIAS}); without an idle core the scan is cut at {@code nr_idle_scan}, and a
   * scan that found no idle core clears {@code has_idle_cores}. The kernel keeps those two in a
   * {@code sched_domain_shared} attached to {@code sd_asym_cpucapacity}; the model uses the LLC's,
   * which is the same object where the asymmetric domain is the LLC domain (Vera's MC, hybrid
   * parts with one LLC) and an approximation elsewhere.
   */
  private int selectIdleCapacity(Task p, SchedDomain sd, int target, long taskUtil) {
    MutableCpuMask cpus = selectMask;
    if (!cpus.and(sd.span(), p.allowed)) {
      return -1;
    }
    boolean mainline = sim.setup.balancer().mainlineDeltas();
    boolean hasIdleCore = mainline && smtActive && testIdleCores(target);
    int nr = Integer.MAX_VALUE;
    int llc = domains.llcId(target);
    if (mainline && !hasIdleCore && sim.options.sisUtil() && llc != SchedDomains.NO_LLC) {
      nr = nrIdleScan[llc] + 1;
      if (nr == 1) {
        return -1;
      }
    }
    if (nr == Integer.MAX_VALUE && sim.queuedIdlePolicyTasks == 0 && !capacityWalkOnly) {
      // Without a scan budget and without SCHED_IDLE-only runqueues only idle CPUs can be chosen.
      cpus.andWith(state.idleMask());
      return selectIdleCapacityByMasks(cpus, target, taskUtil, hasIdleCore);
    }
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
      if (chooseIdleCpu(cpu, p)) {
        // An idle CPU's bit in the idle-core mask is is_core_idle(); a SCHED_IDLE-only runqueue
        // that counts as idle is not idle itself, so ask about its siblings.
        boolean preferred = !hasIdleCore
            || (state.isAvailableIdle(cpu) ? idleCores.test(cpu) : state.isCoreIdle(cpu));
        long capacity = state.capacityOf(cpu);
        boolean fits = taskUtil * 1280 < capacity * 1024;
        if (fits && preferred) {
          return cpu;
        }
        int rank = (fits ? ASYM_IDLE_THREAD_FITS : ASYM_IDLE_THREAD_MISFIT)
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
      setIdleCores(target, false);
    }
    return best;
  }

  /**
   * The walk of {@link #selectIdleCapacity} computed a word at a time, for candidates that are
   * all idle CPUs (no scan budget): the same CPU, since the walk's ranking only orders by rank,
   * then capacity, then wrap order from {@code target}. Fitting CPUs are those of the capacity
   * classes above {@code 1.25 × util}.
   */
  private int selectIdleCapacityByMasks(
      MutableCpuMask cpus, int target, long taskUtil, boolean hasIdleCore) {
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
      setIdleCores(target, false);
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

  /** Equivalent of {@code test_idle_cores(cpu)}. */
  boolean testIdleCores(int cpu) {
    int llc = domains.llcId(cpu);
    return llc != SchedDomains.NO_LLC && hasIdleCores[llc];
  }

  /** Equivalent of {@code set_idle_cores(cpu, val)}. */
  void setIdleCores(int cpu, boolean value) {
    int llc = domains.llcId(cpu);
    if (llc != SchedDomains.NO_LLC) {
      hasIdleCores[llc] = value;
    }
  }

  /** {@code sd_llc_shared->nr_idle_scan} of {@code cpu}'s LLC, for tests and reports. */
  int nrIdleScan(int cpu) {
    int llc = domains.llcId(cpu);
    return llc == SchedDomains.NO_LLC ? -1 : nrIdleScan[llc];
  }

  // ---------------------------------------------------------------------------------------
  // SIS_UTIL

  /**
   * How often the engine refreshes {@code nr_idle_scan}: every LLC domain's minimum balance
   * interval (its span weight in ms). The kernel refreshes it when the LLC domain is balanced
   * periodically ({@code update_idle_cpu_scan()}); this approximates that cadence without
   * coupling to the balancer.
   */
  long idleScanPeriodJiffies() {
    int weight = 1;
    for (int llc = 0; llc < llcFirstCpu.length; llc++) {
      if (llcFirstCpu[llc] >= 0) {
        weight = Math.max(weight, domains.llcSize(llcFirstCpu[llc]));
      }
    }
    return Math.max(1, ((long) weight * sim.hz + 999) / 1000);
  }

  /**
   * Equivalent of {@code update_idle_cpu_scan()} for every LLC: {@code y = 1024 - min(1024,
   * x^2 * pct^2 / (10000 * 1024))} with {@code x} the mean {@code cpu_util_cfs()} over the LLC,
   * then {@code nr_idle_scan = y * llc_weight / 1024}.
   */
  void updateIdleCpuScan() {
    if (!sim.options.sisUtil()) {
      return;
    }
    for (int llc = 0; llc < llcFirstCpu.length; llc++) {
      int first = llcFirstCpu[llc];
      if (first < 0) {
        continue;
      }
      SchedDomain sd = domains.sdLlc(first);
      CpuMask span = sd.span();
      long sumUtil = 0;
      for (int cpu = span.first(); cpu != CpuMask.NO_CPU; cpu = span.next(cpu)) {
        sumUtil += state.utilAvg(cpu);
      }
      int llcWeight = sd.spanWeight();
      long x = sumUtil / llcWeight;
      long pct = sd.imbalancePct();
      long tmp = x * x * pct * pct / (10000L * 1024);
      tmp = Math.min(tmp, 1024);
      long y = 1024 - tmp;
      nrIdleScan[llc] = (int) (y * llcWeight / 1024);
    }
  }

  // ---------------------------------------------------------------------------------------
  // The slow path

  /** Models {@code sched_balance_find_dst_cpu(sd, p, cpu, prev_cpu, sd_flag)}. */
  private int findDstCpu(SchedDomain sd, Task p, int cpu, int prevCpu, int sdFlag) {
    if (!sd.span().intersects(p.allowed)) {
      return prevCpu;
    }
    int newCpu = cpu;
    while (sd != null) {
      if ((sd.flags() & sdFlag) == 0) {
        sd = sd.child();
        continue;
      }
      SchedGroup group = findDstGroup(sd, p, cpu);
      if (group == null) {
        sd = sd.child();
        continue;
      }
      newCpu = findDstGroupCpu(group, p, cpu);
      if (newCpu == cpu) {
        sd = sd.child();
        continue;
      }
      cpu = newCpu;
      int weight = sd.spanWeight();
      sd = null;
      for (SchedDomain tmp : domains.domains(cpu)) {
        if (weight <= tmp.spanWeight()) {
          break;
        }
        if ((tmp.flags() & sdFlag) != 0) {
          sd = tmp;
        }
      }
    }
    return newCpu;
  }

  /** Statistics of one group without {@code p} ({@code update_sg_wakeup_stats()}). */
  /** Models {@code update_sg_wakeup_stats(sd, group, sgs, p)}. */
  private void wakeupStats(SchedDomain sd, SchedGroup group, Task p, SgLbStats s) {
    s.reset();
    CpuMask span = group.span();
    for (int i = span.firstAnd(p.allowed); i != CpuMask.NO_CPU; i = span.nextAnd(i, p.allowed)) {
      boolean here = p.isOnRq() && p.cpu == i;
      boolean attachedHere = p.attached && p.cpu == i;
      long load = state.loadAvg(i) - (attachedHere ? p.avg.loadAvg : 0);
      long util = state.utilAvg(i) - (attachedHere ? p.avg.utilAvg : 0);
      long runnable = state.runnableAvg(i) - (attachedHere ? p.avg.runnableAvg : 0);
      s.groupLoad += Math.max(0, load);
      s.groupUtil += Math.max(0, util);
      s.groupRunnable += Math.max(0, runnable);
      int nr = rqs[i].nr - (here ? 1 : 0);
      s.sumNrRunning += nr;
      if (nr == 0 && rqs[i].curr == null && rqs[i].phase != CpuPhase.NEWIDLE) {
        s.idleCpus++;
      }
      long capacity = state.capacityOf(i);
      s.groupCapacity += capacity;
      s.maxCapacity = Math.max(s.maxCapacity, capacity);
    }
    s.groupWeight = group.weight();
    // The fork path has no sgc->imbalance, SMT-balance or misfit state of its own (not modelled).
    s.groupType = SgLbStats.groupClassify(sd.imbalancePct(), false, s);
    if (s.groupType == GroupType.FULLY_BUSY || s.groupType == GroupType.OVERLOADED) {
      s.avgLoad = s.groupCapacity == 0 ? 0 : s.groupLoad * 1024 / s.groupCapacity;
    }
  }

  /** Models {@code update_pick_idlest()}. */
  private static boolean pickIdlest(SgLbStats idlest, SgLbStats s) {
    if (s.groupType.compareTo(idlest.groupType) < 0) {
      return true;
    }
    if (s.groupType.compareTo(idlest.groupType) > 0) {
      return false;
    }
    switch (s.groupType) {
      case OVERLOADED, FULLY_BUSY -> {
        if (idlest.avgLoad <= s.avgLoad) {
          return false;
        }
      }
      case MISFIT_TASK -> {
        if (idlest.maxCapacity >= s.maxCapacity) {
          return false;
        }
      }
      case HAS_SPARE -> {
        if (idlest.idleCpus > s.idleCpus) {
          return false;
        }
        if (idlest.idleCpus == s.idleCpus && idlest.groupUtil <= s.groupUtil) {
          return false;
        }
      }
      default -> {
        return false;
      }
    }
    return true;
  }

  /** Models {@code sched_balance_find_dst_group(sd, p, this_cpu)}. */
  private SchedGroup findDstGroup(SchedDomain sd, Task p, int thisCpu) {
    SchedGroup idlestGroup = null;
    SchedGroup localGroup = null;
    idlest.groupType = GroupType.OVERLOADED;
    idlest.avgLoad = Long.MAX_VALUE;
    idlest.idleCpus = -1;
    List<SchedGroup> groups = sd.groups();
    for (int g = 0; g < groups.size(); g++) {
      SchedGroup group = groups.get(g);
      if (!group.span().intersects(p.allowed)) {
        continue;
      }
      boolean isLocal = group.span().test(thisCpu);
      SgLbStats s = isLocal ? local : candidate;
      wakeupStats(sd, group, p, s);
      if (isLocal) {
        localGroup = group;
        continue;
      }
      if (idlestGroup == null || pickIdlest(idlest, s)) {
        idlestGroup = group;
        idlest.copyFrom(s);
      }
    }
    if (idlestGroup == null) {
      return null;
    }
    if (localGroup == null) {
      return idlestGroup;
    }
    if (local.groupType.compareTo(idlest.groupType) < 0) {
      return null;
    }
    if (local.groupType.compareTo(idlest.groupType) > 0) {
      return idlestGroup;
    }
    switch (local.groupType) {
      case OVERLOADED, FULLY_BUSY -> {
        long imbalance = 1024L * (sd.imbalancePct() - 100) / 100;
        if (sd.hasFlag(SdFlags.SD_NUMA) && idlest.avgLoad + imbalance >= local.avgLoad) {
          return null;
        }
        if (idlest.avgLoad >= local.avgLoad + imbalance) {
          return null;
        }
        if (100 * local.avgLoad <= sd.imbalancePct() * idlest.avgLoad) {
          return null;
        }
      }
      case MISFIT_TASK -> {
        if (idlest.maxCapacity <= local.maxCapacity) {
          return null;
        }
      }
      case HAS_SPARE -> {
        if (sd.hasFlag(SdFlags.SD_NUMA)) {
          int imbNumaNr = sd.imbNumaNr();
          if (p.nrAllowed < sd.spanWeight()) {
            imbNumaNr = Math.min(p.allowed.weightAnd(sd.span()), imbNumaNr);
          }
          int imbalance = Math.abs(local.idleCpus - idlest.idleCpus);
          if (NumaImbalance.adjust(imbalance, local.sumNrRunning + 1, imbNumaNr) == 0) {
            return null;
          }
        }
        if (local.idleCpus >= idlest.idleCpus) {
          return null;
        }
      }
      default -> {
        return null;
      }
    }
    return idlestGroup;
  }

  /** Models {@code sched_balance_find_dst_group_cpu(group, p, this_cpu)}. */
  private int findDstGroupCpu(SchedGroup group, Task p, int thisCpu) {
    if (group.weight() == 1) {
      return group.span().first();
    }
    long minLoad = Long.MAX_VALUE;
    int leastLoaded = thisCpu;
    int shallowestIdle = -1;
    boolean shallowestDeep = false;
    long latestIdleStamp = Long.MIN_VALUE;
    CpuMask span = group.span();
    for (int i = span.firstAnd(p.allowed); i != CpuMask.NO_CPU; i = span.nextAnd(i, p.allowed)) {
      if (chooseSchedIdleRq(i, p)) {
        return i;
      }
      if (state.isAvailableIdle(i)) {
        // The lowest exit latency first (a CPU of a core in the deep state exits slower), then
        // the most recent idle stamp.
        boolean deep = sim.scheduler.coreInDeepIdle(i);
        long stamp = rqs[i].idleSince;
        if (shallowestIdle < 0 || (shallowestDeep && !deep)
            || (deep == shallowestDeep && stamp > latestIdleStamp)) {
          latestIdleStamp = stamp;
          shallowestIdle = i;
          shallowestDeep = deep;
        }
      } else if (shallowestIdle == -1) {
        long load = state.loadAvg(i);
        if (load < minLoad) {
          minLoad = load;
          leastLoaded = i;
        }
      }
    }
    return shallowestIdle != -1 ? shallowestIdle : leastLoaded;
  }

  // ---------------------------------------------------------------------------------------
  // WakeupContext

  /** The {@link WakeupContext} handed to {@link WakeupPolicy#selectFinal}; reused. */
  private final class Context implements WakeupContext {
    private int wakingCpu;
    private boolean fork;

    void set(int cpu, boolean isFork) {
      this.wakingCpu = cpu;
      this.fork = isFork;
    }

    @Override
    public CpuStateView state() {
      return state;
    }

    @Override
    public BalanceActions actions() {
      return sim.balancer;
    }

    @Override
    public int wakingCpu() {
      return wakingCpu;
    }

    @Override
    public boolean isFork() {
      return fork;
    }

    @Override
    public DistributeCursor distributeCursor(int cpu) {
      return rqs[cpu].distributeCursor;
    }
  }
}
