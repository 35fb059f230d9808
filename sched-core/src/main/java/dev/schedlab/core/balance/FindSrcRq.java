package dev.schedlab.core.balance;

import static dev.schedlab.core.balance.CapacityChecks.capacityGreater;
import static dev.schedlab.cpumask.CpuMask.NO_CPU;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;

/**
 * The busiest runqueue of the busiest group: {@code sched_balance_find_src_rq()} in {@code
 * kernel/sched/fair.c}, over {@code env->cpus} as the plugins' {@link
 * BalancePass#narrowSourceCandidates} narrow it. Allocation-free: the narrowed copy of {@code
 * env->cpus} is preallocated.
 */
final class FindSrcRq {

  private final BalanceHost host;
  private final CpuStateView cpuState;
  private final Topology topology;
  private final BalancerOptions options;
  private final BalancePasses passes;
  private final boolean clusterActive;

  /** The copy of {@code env->cpus} that {@link BalancePass#narrowSourceCandidates} may narrow. */
  private final MutableCpuMask sourceCandidates;

  FindSrcRq(BalanceHost host, BalancerOptions options, BalancePasses passes) {
    this.host = host;
    this.cpuState = host.state();
    this.topology = host.topology();
    this.options = options;
    this.passes = passes;
    this.clusterActive = host.domains().hasClusterDomains();
    this.sourceCandidates = CpuMasks.mutable(topology.nrCpuIds());
  }

  /**
   * Models {@code sched_balance_find_src_rq(env, group)} in {@code kernel/sched/fair.c}: the CPU of
   * {@code group} to pull from, by migration type, among {@code env->cpus} as narrowed by the
   * plugins' {@link BalancePass#narrowSourceCandidates}; {@link CpuMask#NO_CPU} if none.
   */
  int findSrcRq(LbEnv e, SchedGroup group) {
    SchedDomain sd = e.sd;
    sourceCandidates.copyFrom(e.cpus);
    passes.narrowSourceCandidates(sd, sourceCandidates);
    boolean asym = sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY);
    long dstCapacity = cpuState.capacityOf(e.dstCpu);
    int busiest = NO_CPU;
    long busiestLoad = 0;
    long busiestCapacity = 1;
    long busiestUtil = 0;
    int busiestNr = 0;
    CpuMask span = group.span();
    for (int cpu = span.firstAnd(sourceCandidates);
        cpu != NO_CPU;
        cpu = span.nextAnd(cpu, sourceCandidates)) {
      int nr = cpuState.cfsNrRunnable(cpu);
      if (nr == 0) {
        continue;
      }
      long capacity = cpuState.capacityOf(cpu);
      if (asym
          && nr == 1
          && !capacityGreater(dstCapacity, capacity)
          && !worthPullingSingleTask(cpu, e.dstCpu)) {
        // Pulling would lead to an active balance from a big CPU to a smaller one.
        continue;
      }
      switch (e.migrationType) {
        case LOAD:
          {
            long load = cpuState.loadAvg(cpu);
            if (nr == 1
                && load > e.imbalance
                && !CapacityChecks.checkCpuCapacity(cpuState, topology, cpu, sd)) {
              break;
            }
            // Highest load per capacity, cross-multiplied.
            if (load * busiestCapacity > busiestLoad * capacity) {
              busiestLoad = load;
              busiestCapacity = capacity;
              busiest = cpu;
            }
            break;
          }
        case UTIL:
          {
            long util = cpuUtilCfsBoost(cpu);
            if (nr <= 1) {
              // Its one task cannot be detached anyway.
              continue;
            }
            if (busiestUtil < util) {
              busiestUtil = util;
              busiest = cpu;
            }
            break;
          }
        case TASK:
          if (busiestNr < nr) {
            busiestNr = nr;
            busiest = cpu;
          }
          break;
        case MISFIT:
          {
            long misfit = host.misfitTaskLoad(cpu);
            if (misfit > busiestLoad) {
              busiestLoad = misfit;
              busiest = cpu;
            }
            break;
          }
        default:
          throw new AssertionError(e.migrationType);
      }
    }
    return busiest;
  }

  /**
   * [ML] exceptions to skipping a single-task source CPU on asymmetric capacity (commits 180ff97c
   * and 7fd540b1): its core has busy SMT siblings, or clusters are active and both CPUs have the
   * same capacity.
   */
  private boolean worthPullingSingleTask(int src, int dst) {
    if (!options.mainlineDeltas()) {
      return false;
    }
    if (cpuState.smtActive() && !cpuState.isCoreIdle(src)) {
      return true;
    }
    return clusterActive && topology.capacity(src) == topology.capacity(dst);
  }

  /** Models {@code cpu_util_cfs_boost(cpu)}: max of util and runnable, capped at capacity. */
  private long cpuUtilCfsBoost(int cpu) {
    return Math.min(
        Math.max(cpuState.utilAvg(cpu), cpuState.runnableAvg(cpu)), topology.capacity(cpu));
  }
}
