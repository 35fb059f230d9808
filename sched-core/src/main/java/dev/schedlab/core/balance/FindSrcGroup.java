package dev.schedlab.core.balance;

import static dev.schedlab.core.balance.CapacityChecks.capacityGreater;
import static dev.schedlab.cpumask.CpuMask.NO_CPU;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;

/**
 * The busiest group and the imbalance of one balancing attempt: {@code
 * sched_balance_find_src_group()} in {@code kernel/sched/fair.c} with what it calls, {@code
 * update_sd_lb_stats()}, {@code update_sg_lb_stats()}, {@code update_sd_pick_busiest()}, {@code
 * sibling_imbalance()} and {@code calculate_imbalance()}.
 *
 * <p>The domain's statistics go into the {@link SdLbStats} given at construction, which holds them
 * until the next search; the decision goes into the {@link LbEnv} ({@code env->migration_type},
 * {@code env->imbalance}). At the root domain the search also sets {@code rd->overloaded}; a
 * group's {@code sgc->imbalance} is read from {@link BalancerState}. Allocation-free: the scratch
 * {@code sg_lb_stats} is preallocated.
 */
final class FindSrcGroup {

  private static final long SCHED_CAPACITY_SCALE = Topology.SCHED_CAPACITY_SCALE;

  private final BalanceHost host;
  private final CpuStateView cpuState;
  private final BalancerOptions options;
  private final BalancerState balancerState;
  private final SdLbStats sds;

  /** The {@code tmp_sgs} of {@code update_sd_lb_stats()} for groups other than the local one. */
  private final SgLbStats groupStat = new SgLbStats();

  /** {@link #updateSgLbStats} result bit: a CPU of the group runs more than one task. */
  private static final int NR_OVERLOADED = 1;

  /** {@link #updateSgLbStats} result bit: a misfit task was accounted. */
  private static final int MISFIT_OVERLOADED = 2;

  /**
   * The raw sums of the last search of the current walk over a whole domain ({@code env->cpus} its
   * span's active CPUs, groups partitioning the span), for the walk's next level: see {@link
   * #beginWalk}. Null {@link SpanTotals#domain} when there are none.
   */
  private SpanTotals held = new SpanTotals();

  /** The sums the running search builds; becomes {@link #held} when it ends. */
  private SpanTotals building = new SpanTotals();

  private boolean inWalk;

  /** Group sums kept across searches, or null (see {@link LoadBalancer#useGroupStatsCache}). */
  GroupStatsCache groupStatsCache;

  /** The search's groups all lie in {@code env->cpus} (set per search). */
  private boolean wholeGroups;

  /** Every cache hit is checked against a fresh scan (the engine's full invariant checks). */
  boolean verifyGroupStatsCache;

  /** The fresh scan's statistics and cost while a hit is checked. */
  private final SgLbStats verifyStat = new SgLbStats();

  private final BalanceCost verifyCost = new BalanceCost();

  /**
   * Whether a walk's searches reuse the child level's sums for the local group (true); false makes
   * every search scan every CPU, for the differential test that compares both.
   */
  boolean reuseChildTotals = true;

  /** Searches whose local group came from the child level's sums (tests check it happens). */
  long childTotalsReused;

  /**
   * @param sds where each search leaves the domain's statistics
   */
  FindSrcGroup(
      BalanceHost host, BalancerOptions options, BalancerState balancerState, SdLbStats sds) {
    this.host = host;
    this.cpuState = host.state();
    this.options = options;
    this.balancerState = balancerState;
    this.sds = sds;
  }

  /**
   * A domain walk of one CPU begins: {@code sched_balance_domains()} or {@code
   * sched_balance_newidle()}, bottom-up over its domains, with no other event in between. Within
   * it, the local group of a level is the child level's whole span, and nothing that {@code
   * update_sg_lb_stats()} reads (PELT averages, {@code nr_running}, {@code h_nr_runnable}, {@code
   * idle_cpu()}, capacities, {@code env->cpus}) changes between two levels unless a task moved; so
   * the parent's local-group statistics are the sums the child's search just made, and the search
   * takes them instead of scanning those CPUs again. The kernel scans them again; the numbers, the
   * order-free integer sums and every counter ({@code cpusScanned} included) come out the same.
   * {@link #forgetChildTotals} ends a reuse chain where something did change.
   */
  void beginWalk() {
    inWalk = true;
    held.domain = null;
  }

  /** The walk ended: no later search may use its sums. */
  void endWalk() {
    inWalk = false;
    held.domain = null;
  }

  /** Longs of {@link #heldTotals}. */
  static final int HELD_TOTALS = 11;

  /** Whether a search over a whole span now would keep its sums for the next level. */
  boolean keepsTotals() {
    return inWalk && reuseChildTotals;
  }

  /**
   * Copies the sums the last search kept, if it was {@code sd}'s for {@code dstCpu}, into {@code
   * into[at .. at + HELD_TOTALS)}; returns whether it was.
   */
  boolean heldTotals(SchedDomain sd, int dstCpu, long[] into, int at) {
    if (held.domain != sd || held.dstCpu != dstCpu) {
      return false;
    }
    held.copyTo(into, at);
    return true;
  }

  /** Keeps sums copied by {@link #heldTotals} as {@code sd}'s search for {@code dstCpu} would. */
  void restoreHeldTotals(SchedDomain sd, int dstCpu, long[] from, int at) {
    held.copyFrom(from, at);
    held.domain = sd;
    held.dstCpu = dstCpu;
  }

  /** A task moved or was asked to move, or {@code env->cpus} shrank: the held sums are stale. */
  void forgetChildTotals() {
    held.domain = null;
  }

  /**
   * Models {@code sched_balance_find_src_group(env)} in {@code kernel/sched/fair.c}: gathers the
   * domain's group statistics, decides whether the domain is balanced, and if not computes the
   * imbalance. Returns the busiest group, or null when balanced or the imbalance is 0.
   */
  SchedGroup findSrcGroup(LbEnv e, BalanceCost cost) {
    updateSdLbStats(e, cost);
    if (sds.busiest == null) {
      e.imbalance = 0;
      return null;
    }
    if (!forceBalance(e, sds.busiestStat, sds.localStat)) {
      e.imbalance = 0;
      return null;
    }
    calculateImbalance(e);
    return e.imbalance != 0 ? sds.busiest : null;
  }

  /**
   * The checks of {@code sched_balance_find_src_group()} between gathering the statistics and
   * {@code force_balance}: whether the domain needs balancing.
   */
  private boolean forceBalance(LbEnv e, SgLbStats busiest, SgLbStats local) {
    if (busiest.groupType == GroupType.MISFIT_TASK) {
      return true;
    }
    if (busiest.groupType == GroupType.ASYM_PACKING || busiest.groupType == GroupType.IMBALANCED) {
      return true;
    }
    if (local.groupType.compareTo(busiest.groupType) > 0) {
      return false;
    }
    if (local.groupType == GroupType.OVERLOADED) {
      if (local.avgLoad >= busiest.avgLoad) {
        return false;
      }
      sds.avgLoad = sds.totalLoad * SCHED_CAPACITY_SCALE / sds.totalCapacity;
      if (local.avgLoad >= sds.avgLoad) {
        return false;
      }
      if (100 * busiest.avgLoad <= (long) e.sd.imbalancePct() * local.avgLoad) {
        return false;
      }
    }
    if (sds.preferSibling && local.groupType == GroupType.HAS_SPARE && siblingImbalance(e) > 1) {
      return true;
    }
    if (busiest.groupType != GroupType.OVERLOADED) {
      if (e.idle == IdleType.NOT_IDLE) {
        // Nobody is overloaded and this CPU is busy: let an idle CPU pull.
        return false;
      }
      if (busiest.groupType == GroupType.SMT_BALANCE && smtVsNonSmtGroups(sds.local, sds.busiest)) {
        return true;
      }
      if (busiest.groupWeight > 1 && local.idleCpus <= busiest.idleCpus + 1) {
        return false;
      }
      if (busiest.sumHNrRunning == 1) {
        return false;
      }
    }
    return true;
  }

  /**
   * Models {@code update_sd_lb_stats(env, sds)} in {@code kernel/sched/fair.c}: statistics of every
   * group of the domain, the busiest one, the totals, {@code prefer_sibling}, and at the root
   * {@code rd->overloaded}.
   */
  private void updateSdLbStats(LbEnv e, BalanceCost cost) {
    SchedDomain sd = e.sd;
    sds.init();
    boolean sgOverloaded = false;
    CpuMask idleMask = cpuState.idleMask();
    boolean whole = inWalk && reuseChildTotals && e.cpusWhole;
    SchedDomainState sdState = balancerState.domain(sd);
    wholeGroups = e.cpusWhole && sdState.groupsInActiveSpan;
    SchedDomain child = sd.child();
    boolean reuse = whole && child != null && held.domain == child && held.dstCpu == e.dstCpu;
    if (whole) {
      building.reset();
    }
    int groupWeights = 0;
    for (int g = 0, n = sd.nrGroups(); g < n; g++) {
      SchedGroup sg = sd.group(g);
      boolean localGroup = sg.span().test(e.dstCpu);
      SgLbStats sgs = localGroup ? sds.localStat : groupStat;
      if (localGroup) {
        sds.local = sg;
      }
      long scannedBefore = cost.cpusScanned;
      int overloaded;
      if (localGroup && reuse && spanIsChildSpan(sd, sdState, g, child)) {
        sgs.reset();
        held.copyTo(sgs);
        cost.cpusScanned += held.scanned;
        overloaded = held.nrOverloaded ? NR_OVERLOADED : 0;
        classifyGroup(e, sg, sgs, true);
        childTotalsReused++;
      } else {
        overloaded = updateSgLbStats(e, sg, sgs, localGroup, idleMask, cost);
      }
      sgOverloaded |= overloaded != 0;
      if (whole) {
        building.add(sgs, (overloaded & NR_OVERLOADED) != 0, cost.cpusScanned - scannedBefore);
        groupWeights += sgs.groupWeight;
      }
      if (!localGroup && updateSdPickBusiest(e, sg, sgs)) {
        sds.busiest = sg;
        sds.busiestStat.copyFrom(sgs);
      }
      sds.totalLoad += sgs.groupLoad;
      sds.totalCapacity += sgs.groupCapacity;
    }
    if (sds.busiest != null) {
      sds.preferSibling = (sds.busiest.flags() & SdFlags.SD_PREFER_SIBLING) != 0;
    }
    if (sd.parent() == null) {
      balancerState.rdOverloaded = sgOverloaded;
    }
    // Kept only where the groups partition the span (their weights add up to it; overlapping
    // NUMA groups do not), so that the sums are the span's.
    if (whole && groupWeights == sd.spanWeight()) {
      SpanTotals done = building;
      building = held;
      held = done;
      held.domain = sd;
      held.dstCpu = e.dstCpu;
    } else {
      held.domain = null;
    }
  }

  /**
   * Models {@code update_sg_lb_stats(env, sds, group, sgs, &sg_overloaded, ...)} in {@code
   * kernel/sched/fair.c} for the CPUs of {@code sg} in {@code env->cpus}, then classifies the
   * group. Returns {@link #NR_OVERLOADED} if a CPU of the group has more than one task and {@link
   * #MISFIT_OVERLOADED} if it has a misfit task (either is {@code sg_overloaded}, which only the
   * root domain records).
   */
  private int updateSgLbStats(
      LbEnv e,
      SchedGroup sg,
      SgLbStats sgs,
      boolean localGroup,
      CpuMask idleMask,
      BalanceCost cost) {
    GroupStatsCache cache = groupStatsCache;
    if (cache == null || !(wholeGroups || sg.span().isSubsetOf(e.cpus))) {
      int overloaded = scanGroup(e, sg, sgs, localGroup, idleMask, cost);
      classifyGroup(e, sg, sgs, localGroup);
      return overloaded;
    }
    SchedDomain sd = e.sd;
    int mode =
        GroupStatsCache.mode(
            localGroup, sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY), e.idle != IdleType.NOT_IDLE);
    int pct = sd.imbalancePct();
    int entry = cache.find(sg, mode, pct);
    int overloaded;
    if (entry >= 0) {
      sgs.reset();
      overloaded = cache.copyTo(entry, sgs);
      cost.cpusScanned += cache.scanned(entry);
      if (verifyGroupStatsCache) {
        verifyEntry(e, sg, sgs, overloaded, localGroup, idleMask, cache.scanned(entry));
      }
    } else {
      long scannedBefore = cost.cpusScanned;
      overloaded = scanGroup(e, sg, sgs, localGroup, idleMask, cost);
      cache.fill(sg, mode, pct, sgs, overloaded, cost.cpusScanned - scannedBefore);
    }
    classifyGroup(e, sg, sgs, localGroup);
    return overloaded;
  }

  /** A fresh scan must give what the cache gave: any difference is a missed change stamp. */
  private void verifyEntry(
      LbEnv e,
      SchedGroup sg,
      SgLbStats cached,
      int cachedOverloaded,
      boolean localGroup,
      CpuMask idleMask,
      long cachedScanned) {
    BalanceCost scratch = verifyCost;
    scratch.reset();
    SgLbStats fresh = verifyStat;
    int overloaded = scanGroup(e, sg, fresh, localGroup, idleMask, scratch);
    if (overloaded != cachedOverloaded
        || scratch.cpusScanned != cachedScanned
        || fresh.groupLoad != cached.groupLoad
        || fresh.groupUtil != cached.groupUtil
        || fresh.groupRunnable != cached.groupRunnable
        || fresh.sumNrRunning != cached.sumNrRunning
        || fresh.sumHNrRunning != cached.sumHNrRunning
        || fresh.idleCpus != cached.idleCpus
        || fresh.groupMisfitTaskLoad != cached.groupMisfitTaskLoad
        || fresh.groupCapacity != cached.groupCapacity
        || fresh.minCapacity != cached.minCapacity
        || fresh.maxCapacity != cached.maxCapacity) {
      throw new IllegalStateException(
          "group statistics cache is stale for group "
              + sg.span().toCpuList()
              + " of CPU "
              + e.dstCpu
              + "'s level "
              + e.sd.level()
              + ": a change of a CPU's balancing inputs did not reach GroupStamps");
    }
  }

  /**
   * The CPU loop of {@code update_sg_lb_stats()}: the group's sums over its CPUs in {@code
   * env->cpus}, without the classification. Returns the overloaded bits.
   */
  private int scanGroup(
      LbEnv e,
      SchedGroup sg,
      SgLbStats sgs,
      boolean localGroup,
      CpuMask idleMask,
      BalanceCost cost) {
    SchedDomain sd = e.sd;
    boolean asym = sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY);
    int overloaded = 0;
    sgs.reset();
    long capacity = 0;
    long minCapacity = Long.MAX_VALUE;
    long maxCapacity = 0;
    CpuMask span = sg.span();
    CpuMask cpus = e.cpus;
    int first = span.first();
    if (first != NO_CPU) {
      // for_each_cpu_and(i, sched_group_span(group), env->cpus), a word at a time: the span's
      // capacities count whole, the rest only for the CPUs in env->cpus. Cheaper than a cursor
      // per CPU; the order (ascending) and so every sum are the same.
      for (int w = first >>> 6, lastWord = span.last() >>> 6; w <= lastWord; w++) {
        long spanBits = span.word(w);
        long inCpus = spanBits & cpus.word(w);
        while (spanBits != 0) {
          long bit = spanBits & -spanBits;
          spanBits ^= bit;
          int cpu = (w << 6) | Long.numberOfTrailingZeros(bit);
          long cpuCapacity = cpuState.capacityOf(cpu);
          capacity += cpuCapacity;
          minCapacity = Math.min(minCapacity, cpuCapacity);
          maxCapacity = Math.max(maxCapacity, cpuCapacity);
          if ((inCpus & bit) == 0) {
            continue;
          }
          cost.cpusScanned++;
          long load = cpuState.loadAvg(cpu);
          sgs.groupLoad += load;
          sgs.groupUtil += cpuState.utilAvg(cpu);
          sgs.groupRunnable += cpuState.runnableAvg(cpu);
          sgs.sumHNrRunning += cpuState.cfsNrRunnable(cpu);
          int nrRunning = cpuState.nrRunning(cpu);
          sgs.sumNrRunning += nrRunning;
          // idleMask() is idle_cpu() of every CPU, kept in step by the engine: one word read.
          if (nrRunning == 0 && idleMask.test(cpu)) {
            sgs.idleCpus++;
            continue;
          }
          if (nrRunning > 1) {
            overloaded |= NR_OVERLOADED;
          }
          if (localGroup) {
            continue;
          }
          if (asym) {
            long misfit = host.misfitTaskLoad(cpu);
            if (sgs.groupMisfitTaskLoad < misfit) {
              sgs.groupMisfitTaskLoad = misfit;
              // Only the root domain reads this, so the [ML] root-only gate changes nothing here.
              overloaded |= MISFIT_OVERLOADED;
            }
          } else if (e.idle != IdleType.NOT_IDLE && schedReducedCapacity(cpu, sd)) {
            sgs.groupMisfitTaskLoad = Math.max(sgs.groupMisfitTaskLoad, load);
          }
        }
      }
    }
    sgs.groupCapacity = capacity;
    sgs.minCapacity = minCapacity == Long.MAX_VALUE ? 0 : minCapacity;
    sgs.maxCapacity = maxCapacity;
    return overloaded;
  }

  /**
   * The end of {@code update_sg_lb_stats()}, after the CPU loop: the [ML] misfit rule, {@code
   * smt_balance()}, {@code group_classify()} and the overloaded group's {@code avg_load}.
   */
  private void classifyGroup(LbEnv e, SchedGroup sg, SgLbStats sgs, boolean localGroup) {
    SchedDomain sd = e.sd;
    boolean mainline = options.mainlineDeltas();
    boolean asym = sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY);
    sgs.groupWeight = sg.weight();
    if (mainline
        && asym
        && !localGroup
        && !capacityGreater(cpuState.capacityOf(e.dstCpu), sgs.maxCapacity)) {
      // [ML] a misfit that dst cannot help with is not accounted.
      sgs.groupMisfitTaskLoad = 0;
    }
    if (!localGroup && smtBalance(e, sgs, sg)) {
      sgs.groupSmtBalance = true;
    }
    sgs.groupType =
        SgLbStats.groupClassify(
            sd.imbalancePct(), balancerState.sgcImbalance[sg.capacitySlot()], sgs);
    if (sgs.groupType == GroupType.OVERLOADED) {
      sgs.avgLoad = sgs.groupLoad * SCHED_CAPACITY_SCALE / sgs.groupCapacity;
    }
  }

  /**
   * Whether group {@code g} of {@code sd} has {@code child}'s span (fixed per domain and group).
   */
  private static boolean spanIsChildSpan(
      SchedDomain sd, SchedDomainState sdState, int g, SchedDomain child) {
    return g == 0 ? sdState.localGroupIsChildSpan : sd.group(g).span().contentEquals(child.span());
  }

  /**
   * Models {@code update_sd_pick_busiest(env, sds, sg, sgs)} in {@code kernel/sched/fair.c}:
   * whether {@code sg} is busier than the busiest group found so far.
   */
  private boolean updateSdPickBusiest(LbEnv e, SchedGroup sg, SgLbStats sgs) {
    SgLbStats busiest = sds.busiestStat;
    boolean mainline = options.mainlineDeltas();
    boolean asym = e.sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY);
    long dstCapacity = cpuState.capacityOf(e.dstCpu);
    if (sgs.sumHNrRunning == 0) {
      return false;
    }
    if (asym
        && sgs.groupType == GroupType.MISFIT_TASK
        && (!capacityGreater(dstCapacity, sgs.maxCapacity)
            || sds.localStat.groupType != GroupType.HAS_SPARE
            || (mainline && !dstCoreIdle(e)))) {
      return false;
    }
    if (mainline && asym && biggerCpusNotFullyUsed(sgs, dstCapacity)) {
      return false;
    }
    int order = sgs.groupType.compareTo(busiest.groupType);
    if (order != 0) {
      return order > 0;
    }
    switch (sgs.groupType) {
      case OVERLOADED:
        if (sgs.avgLoad <= busiest.avgLoad) {
          return false;
        }
        break;
      case IMBALANCED:
      case ASYM_PACKING:
        // Keep the first: nothing ranks one such group above another (asym packing unmodelled).
        return false;
      case MISFIT_TASK:
        if (sgs.groupMisfitTaskLoad <= busiest.groupMisfitTaskLoad) {
          return false;
        }
        break;
      case SMT_BALANCE:
        if (sgs.idleCpus != 0 || busiest.idleCpus != 0) {
          if (!hasSpareIsBusier(sgs, busiest)) {
            return false;
          }
          break;
        }
        if (!fullyBusyIsBusier(sgs, busiest)) {
          return false;
        }
        break;
      case FULLY_BUSY:
        if (!fullyBusyIsBusier(sgs, busiest)) {
          return false;
        }
        break;
      case HAS_SPARE:
        if (smtVsNonSmtGroups(sds.busiest, sg)) {
          // Do not empty an SMT core that runs a single task in favour of a non-SMT group.
          return !(SgLbStats.isSmtGroup(sg) && sgs.sumHNrRunning <= 1);
        }
        if (!hasSpareIsBusier(sgs, busiest)) {
          return false;
        }
        break;
      default:
        throw new AssertionError(sgs.groupType);
    }
    return mainline || !asym || !biggerCpusNotFullyUsed(sgs, dstCapacity);
  }

  /**
   * [ML] {@code env->dst_core_idle}: dst's core has no busy CPU (always with SMT off). The kernel
   * sets it at the start of {@code update_sd_lb_stats()}; nothing changes during a search, so it is
   * computed only where it is read.
   */
  private boolean dstCoreIdle(LbEnv e) {
    return !cpuState.smtActive() || cpuState.isCoreIdle(e.dstCpu);
  }

  /** The {@code group_fully_busy} tie-break: higher avg_load; on a tie keep an SMT busiest. */
  private boolean fullyBusyIsBusier(SgLbStats sgs, SgLbStats busiest) {
    if (sgs.avgLoad < busiest.avgLoad) {
      return false;
    }
    return sgs.avgLoad != busiest.avgLoad || !SgLbStats.isSmtGroup(sds.busiest);
  }

  /** The {@code group_has_spare} tie-break: fewer idle CPUs, then more running tasks. */
  private static boolean hasSpareIsBusier(SgLbStats sgs, SgLbStats busiest) {
    if (sgs.idleCpus > busiest.idleCpus) {
      return false;
    }
    return sgs.idleCpus != busiest.idleCpus || sgs.sumNrRunning > busiest.sumNrRunning;
  }

  /**
   * The asymmetric-capacity rule of {@code update_sd_pick_busiest()}: a group with no more than one
   * task per CPU whose CPUs are all noticeably bigger than dst is not worth pulling from.
   */
  private static boolean biggerCpusNotFullyUsed(SgLbStats sgs, long dstCapacity) {
    return sgs.groupType.compareTo(GroupType.FULLY_BUSY) <= 0
        && capacityGreater(sgs.minCapacity, dstCapacity);
  }

  /** Models {@code smt_vs_nonsmt_groups(sg1, sg2)}: exactly one of the two is an SMT group. */
  private static boolean smtVsNonSmtGroups(SchedGroup a, SchedGroup b) {
    if (a == null || b == null) {
      return false;
    }
    return SgLbStats.isSmtGroup(a) != SgLbStats.isSmtGroup(b);
  }

  /** Models {@code smt_balance(env, sgs, group)}: dst idle and an SMT group runs 2+ tasks. */
  private static boolean smtBalance(LbEnv e, SgLbStats sgs, SchedGroup sg) {
    return e.idle != IdleType.NOT_IDLE && SgLbStats.isSmtGroup(sg) && sgs.sumHNrRunning > 1;
  }

  /** Models {@code sched_reduced_capacity(rq, sd)}: one CFS task on a reduced-capacity CPU. */
  private boolean schedReducedCapacity(int cpu, SchedDomain sd) {
    return cpuState.cfsNrRunnable(cpu) == 1
        && CapacityChecks.checkCpuCapacity(cpuState, host.topology(), cpu, sd);
  }

  /**
   * Models {@code sibling_imbalance(env, sds, busiest, local)} in {@code kernel/sched/fair.c}: how
   * many tasks to move so both groups run the same number of tasks per core.
   */
  private long siblingImbalance(LbEnv e) {
    SgLbStats busiest = sds.busiestStat;
    SgLbStats local = sds.localStat;
    if (e.idle == IdleType.NOT_IDLE || busiest.sumNrRunning == 0) {
      return 0;
    }
    long coresBusiest = sds.busiest.cores();
    long coresLocal = sds.local.cores();
    if (coresBusiest == coresLocal) {
      return Math.max(0, busiest.sumNrRunning - local.sumNrRunning);
    }
    long imbalance =
        Math.max(0, coresLocal * busiest.sumNrRunning - coresBusiest * local.sumNrRunning);
    // Normalise with rounding.
    imbalance = (2 * imbalance + coresLocal + coresBusiest) / (coresLocal + coresBusiest);
    if (imbalance <= 1 && local.sumNrRunning == 0 && busiest.sumNrRunning > 1) {
      // Use an empty group's resources.
      imbalance = 2;
    }
    return imbalance;
  }

  /**
   * Models {@code calculate_imbalance(env, sds)} in {@code kernel/sched/fair.c}: sets {@code
   * env->migration_type} and {@code env->imbalance}.
   */
  private void calculateImbalance(LbEnv e) {
    SgLbStats local = sds.localStat;
    SgLbStats busiest = sds.busiestStat;
    SchedDomain sd = e.sd;
    switch (busiest.groupType) {
      case MISFIT_TASK:
        if (sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY)) {
          setImbalance(e, MigrationType.MISFIT, 1);
        } else {
          // A CPU of reduced capacity: move its load.
          setImbalance(e, MigrationType.LOAD, busiest.groupMisfitTaskLoad);
        }
        return;
      case ASYM_PACKING:
        setImbalance(e, MigrationType.TASK, busiest.sumHNrRunning);
        return;
      case SMT_BALANCE:
      case IMBALANCED:
        setImbalance(e, MigrationType.TASK, 1);
        return;
      default:
        break;
    }
    if (local.groupType == GroupType.HAS_SPARE) {
      if (busiest.groupType.compareTo(GroupType.FULLY_BUSY) > 0
          && !sd.hasFlag(SdFlags.SD_SHARE_LLC)) {
        // Fill local's spare capacity without overloading it.
        long spare = Math.max(local.groupCapacity, local.groupUtil) - local.groupUtil;
        setImbalance(e, MigrationType.UTIL, spare);
        if (e.idle != IdleType.NOT_IDLE && e.imbalance == 0) {
          setImbalance(e, MigrationType.TASK, 1);
        }
        return;
      }
      long imbalance;
      if (busiest.groupWeight == 1 || sds.preferSibling) {
        imbalance = siblingImbalance(e);
      } else {
        imbalance = Math.max(0, (long) local.idleCpus - busiest.idleCpus);
      }
      if (sd.hasFlag(SdFlags.SD_NUMA)) {
        imbalance = NumaImbalance.adjust(imbalance, local.sumNrRunning + 1, sd.imbNumaNr());
      }
      setImbalance(e, MigrationType.TASK, imbalance >> 1);
      return;
    }
    if (local.groupType.compareTo(GroupType.OVERLOADED) < 0) {
      // Local will become overloaded, so the load averages are needed after all.
      local.avgLoad = local.groupLoad * SCHED_CAPACITY_SCALE / local.groupCapacity;
      if (local.avgLoad >= busiest.avgLoad) {
        e.imbalance = 0;
        return;
      }
      sds.avgLoad = sds.totalLoad * SCHED_CAPACITY_SCALE / sds.totalCapacity;
      if (local.avgLoad >= sds.avgLoad) {
        e.imbalance = 0;
        return;
      }
    }
    // Bring both towards the domain average, neither past it. The kernel's unsigned arithmetic
    // cannot go below 0 meaningfully; clamp instead of wrapping.
    long fromBusiest = (busiest.avgLoad - sds.avgLoad) * busiest.groupCapacity;
    long toLocal = (sds.avgLoad - local.avgLoad) * local.groupCapacity;
    setImbalance(
        e, MigrationType.LOAD, Math.max(0, Math.min(fromBusiest, toLocal) / SCHED_CAPACITY_SCALE));
  }

  private static void setImbalance(LbEnv e, MigrationType type, long imbalance) {
    e.migrationType = type;
    e.imbalance = imbalance;
  }

  /**
   * What {@code update_sg_lb_stats()} sums over a set of CPUs before classifying, added up over the
   * groups of one search: the local group of the next level up, if it spans the same CPUs, has
   * exactly these sums (see {@link #beginWalk}).
   */
  private static final class SpanTotals {
    /** The domain searched, or null when the sums are not usable. */
    SchedDomain domain;

    int dstCpu;
    long load;
    long util;
    long runnable;
    int nrRunning;
    int hNrRunning;
    int idleCpus;
    long capacity;
    long minCapacity;
    long maxCapacity;
    long scanned;

    /** Some CPU ran more than one task. */
    boolean nrOverloaded;

    void reset() {
      domain = null;
      load = 0;
      util = 0;
      runnable = 0;
      nrRunning = 0;
      hNrRunning = 0;
      idleCpus = 0;
      capacity = 0;
      minCapacity = Long.MAX_VALUE;
      maxCapacity = 0;
      scanned = 0;
      nrOverloaded = false;
    }

    void add(SgLbStats sgs, boolean overloaded, long cpusScanned) {
      load += sgs.groupLoad;
      util += sgs.groupUtil;
      runnable += sgs.groupRunnable;
      nrRunning += sgs.sumNrRunning;
      hNrRunning += sgs.sumHNrRunning;
      idleCpus += sgs.idleCpus;
      capacity += sgs.groupCapacity;
      minCapacity = Math.min(minCapacity, sgs.minCapacity);
      maxCapacity = Math.max(maxCapacity, sgs.maxCapacity);
      scanned += cpusScanned;
      nrOverloaded |= overloaded;
    }

    void copyTo(long[] into, int at) {
      into[at] = load;
      into[at + 1] = util;
      into[at + 2] = runnable;
      into[at + 3] = nrRunning;
      into[at + 4] = hNrRunning;
      into[at + 5] = idleCpus;
      into[at + 6] = capacity;
      into[at + 7] = minCapacity;
      into[at + 8] = maxCapacity;
      into[at + 9] = scanned;
      into[at + 10] = nrOverloaded ? 1 : 0;
    }

    void copyFrom(long[] from, int at) {
      load = from[at];
      util = from[at + 1];
      runnable = from[at + 2];
      nrRunning = (int) from[at + 3];
      hNrRunning = (int) from[at + 4];
      idleCpus = (int) from[at + 5];
      capacity = from[at + 6];
      minCapacity = from[at + 7];
      maxCapacity = from[at + 8];
      scanned = from[at + 9];
      nrOverloaded = from[at + 10] != 0;
    }

    /** The raw fields of a reset {@code sgs}, as the CPU loop would have left them. */
    void copyTo(SgLbStats sgs) {
      sgs.groupLoad = load;
      sgs.groupUtil = util;
      sgs.groupRunnable = runnable;
      sgs.sumNrRunning = nrRunning;
      sgs.sumHNrRunning = hNrRunning;
      sgs.idleCpus = idleCpus;
      sgs.groupCapacity = capacity;
      sgs.minCapacity = minCapacity;
      sgs.maxCapacity = maxCapacity;
    }
  }
}
