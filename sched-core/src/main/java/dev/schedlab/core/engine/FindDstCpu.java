package dev.schedlab.core.engine;

import dev.schedlab.core.balance.GroupType;
import dev.schedlab.core.balance.NumaImbalance;
import dev.schedlab.core.balance.SgLbStats;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;

/**
 * The fork and exec slow path of {@code select_task_rq_fair()}: {@code
 * sched_balance_find_dst_cpu()} descends from the widest domain with the fork or exec flag, at each
 * level choosing the idlest group ({@code sched_balance_find_dst_group()}, with {@code
 * update_sg_wakeup_stats()} and {@code update_pick_idlest()}) and in it a CPU ({@code
 * sched_balance_find_dst_group_cpu()}). The group statistics and their classification are the
 * balancer's ({@link SgLbStats}, {@link SgLbStats#groupClassify}, {@link NumaImbalance#adjust}).
 *
 * <p>Idle-state exit latency is modelled by {@link CpuidleExit} only: all idle CPUs outside a
 * core-level deep state are equally shallow, so the most recently idled one wins ties.
 */
final class FindDstCpu {

  private final SchedDomains domains;
  private final CpuStateView state;
  private final CpuRunqueue[] rqs;
  private final WakeupPolicyChain chain;
  private final CpuidleExit cpuidle;
  private final SgLbStats local = new SgLbStats();
  private final SgLbStats idlest = new SgLbStats();
  private final SgLbStats candidate = new SgLbStats();

  FindDstCpu(EngineContext ctx, WakeupPolicyChain chain, CpuidleExit cpuidle) {
    this.domains = ctx.domains;
    this.state = ctx.state;
    this.rqs = ctx.rqs;
    this.chain = chain;
    this.cpuidle = cpuidle;
  }

  /** Models {@code sched_balance_find_dst_cpu(sd, p, cpu, prev_cpu, sd_flag)}. */
  int find(SchedDomain sd, Task p, int cpu, int prevCpu, int sdFlag) {
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

  /** Models {@code update_sg_wakeup_stats(sd, group, sgs, p)}. */
  private void wakeupStats(SchedDomain sd, SchedGroup group, Task p, SgLbStats s) {
    s.reset();
    CpuMask span = group.span();
    CpuMask allowed = p.allowed;
    int first = span.first();
    int lastWord = first == CpuMask.NO_CPU ? -1 : span.last() >>> 6;
    // for_each_cpu_and(i, sched_group_span(group), p->cpus_ptr), a word at a time: the same
    // ascending order, so the same sums, without a cursor search per CPU (a fork on an 8192-CPU
    // machine visits every CPU of the top domain's groups).
    for (int w = first >>> 6; w <= lastWord; w++) {
      for (long bits = span.word(w) & allowed.word(w); bits != 0; bits &= bits - 1) {
        wakeupStatsOf((w << 6) | Long.numberOfTrailingZeros(bits), p, s);
      }
    }
    s.groupWeight = group.weight();
    // The fork path has no sgc->imbalance, SMT-balance or misfit state of its own (not modelled).
    s.groupType = SgLbStats.groupClassify(sd.imbalancePct(), false, s);
    if (s.groupType == GroupType.FULLY_BUSY || s.groupType == GroupType.OVERLOADED) {
      s.avgLoad = s.groupCapacity == 0 ? 0 : s.groupLoad * 1024 / s.groupCapacity;
    }
  }

  /** CPU {@code i} of {@code update_sg_wakeup_stats()}'s loop, added into {@code s}. */
  private void wakeupStatsOf(int i, Task p, SgLbStats s) {
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
    for (int g = 0, n = sd.nrGroups(); g < n; g++) {
      SchedGroup group = sd.group(g);
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
      if (chain.chooseSchedIdleRq(i, p)) {
        return i;
      }
      if (state.isAvailableIdle(i)) {
        // The lowest exit latency first (a CPU of a core in the deep state exits slower), then
        // the most recent idle stamp.
        boolean deep = cpuidle.coreInDeepIdle(i);
        long stamp = rqs[i].idleSince;
        if (shallowestIdle < 0
            || (shallowestDeep && !deep)
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
}
