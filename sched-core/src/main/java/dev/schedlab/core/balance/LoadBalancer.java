package dev.schedlab.core.balance;

import static dev.schedlab.core.balance.LbEnv.LBF_ACTIVE_LB;
import static dev.schedlab.core.balance.LbEnv.LBF_ALL_PINNED;
import static dev.schedlab.core.balance.LbEnv.LBF_DST_PINNED;
import static dev.schedlab.core.balance.LbEnv.LBF_NEED_BREAK;
import static dev.schedlab.core.balance.LbEnv.LBF_SOME_PINNED;
import static dev.schedlab.cpumask.CpuMask.NO_CPU;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The fair-class load balancer of one simulation: periodic balancing ({@code
 * sched_balance_domains()}), newidle balancing ({@code sched_balance_newidle()}) and active
 * balancing ({@code active_load_balance_cpu_stop()}), as in {@code kernel/sched/fair.c} of Linux
 * 7.1.5, with the 2026-08 mainline changes when {@link BalancerOptions#mainlineDeltas()} is set.
 *
 * <p>It owns the balancer's run-time state: per CPU × domain level {@code balance_interval},
 * {@code nr_balance_failed}, {@code last_balance}, {@code max_newidle_lb_cost} and the newidle
 * statistics; per CPU {@code rq->next_balance} and {@code rq->max_idle_balance_cost}; the root
 * domain's {@code overloaded} flag; {@code sgc->imbalance} per group-capacity slot; and {@code
 * sched_balance_running} for {@code SD_SERIALIZE}. Everything else it reads and changes through
 * the {@link BalanceHost}.
 *
 * <p>Not modelled, because the simulator does not have the state they need: energy-aware
 * scheduling (no perf domains, so {@code rd->overutilized} never gates), {@code SD_ASYM_PACKING}
 * (no {@code arch_asym_cpu_priority()}), NUMA balancing ({@code fbq_type} is always {@code all},
 * {@code migrate_degrades_locality()} is 0), cgroup throttling, EEVDF delayed dequeue and lag
 * eligibility in {@code can_migrate_task()}, per-CPU kthreads, core scheduling, the {@code
 * CACHE_HOT_BUDDY} buddy test, and 7.2's cache-aware scheduling ({@code group_llc_balance}, {@code
 * migrate_llc_task}, {@code LBF_LLC_PINNED}). {@code update_group_capacity()} is simplified to
 * fresh sums of {@code capacity_of()} (see {@link SgLbStats}). Because a simulated pass is
 * instantaneous, {@code SD_SERIALIZE} is never contended and nothing can arrive on the runqueue
 * while newidle balancing runs.
 *
 * <p>Allocation-free after construction: group statistics, the {@code lb_env}, {@code env->cpus},
 * the {@code should_we_balance()} mask and the pass state are preallocated once and reused (one
 * set suffices because {@code sched_balance_rq()} never nests). Not thread-safe: one balancer per
 * simulation.
 */
public final class LoadBalancer implements BalanceActions {

  /** Equivalent of {@code SCHED_NR_MIGRATE_BREAK} (non-RT): tasks examined per lock hold. */
  static final int SCHED_NR_MIGRATE_BREAK = 32;

  /** Equivalent of {@code MAX_PINNED_INTERVAL}, ms. */
  static final int MAX_PINNED_INTERVAL_MS = 512;

  private static final long SCHED_CAPACITY_SCALE = Topology.SCHED_CAPACITY_SCALE;

  /** {@code sd->newidle_call}, {@code newidle_success}, {@code newidle_ratio} at build. */
  private static final int NEWIDLE_CALL_INIT = 512;

  private static final int NEWIDLE_SUCCESS_INIT = 256;
  private static final int NEWIDLE_RATIO_INIT = 512;
  private static final int NEWIDLE_RATIO_MAX = 1024;

  private static final int OUT = 0;
  private static final int OUT_BALANCED = 1;
  private static final int OUT_ALL_PINNED = 2;
  private static final int OUT_ONE_PINNED = 3;

  private final BalanceHost host;
  private final BalancePass[] passes;
  private final BalancerOptions options;
  private final BalanceCostModel costModel;
  private final LbStats stats;
  private final Topology topology;
  private final CpuStateView state;
  private final int levels;
  private final SchedDomain[][] chains;
  private final boolean clusterActive;
  private final int hz;
  /** {@code max_load_balance_interval}: {@code HZ * num_online_cpus() / 10} jiffies. */
  private final long maxLoadBalanceInterval;

  // Per CPU x level, index cpu * levels + level.
  private final int[] balanceIntervalMs;
  private final int[] nrBalanceFailed;
  private final long[] lastBalance;
  private final long[] maxNewidleLbCostNs;
  private final long[] lastDecayMaxLbCost;
  private final int[] newidleCall;
  private final int[] newidleSuccess;
  private final int[] newidleRatio;
  private final long[] newidleStampNs;

  // Per CPU.
  private final long[] nextBalance;
  private final long[] maxIdleBalanceCostNs;

  /** {@code sgc->imbalance}, per {@link SchedGroup#capacitySlot()}. */
  private final boolean[] sgcImbalance;

  /** {@code rd->overloaded} of the one root domain. */
  private boolean rdOverloaded;

  /** {@code sched_balance_running}: an {@code SD_SERIALIZE} domain is being balanced. */
  private boolean balanceRunning;

  private final LbEnv env = new LbEnv();
  private final LbEnv oneTaskEnv = new LbEnv();
  /** {@code load_balance_mask}: {@code env->cpus}. */
  private final MutableCpuMask envCpus;
  /** {@code should_we_balance_tmpmask}. */
  private final MutableCpuMask swbCpus;
  /** The copy of {@code env->cpus} that {@link BalancePass#narrowSourceCandidates} may narrow. */
  private final MutableCpuMask sourceCandidates;
  private final PassState passState;
  private final BalanceCost domainCost = new BalanceCost();
  private final BalanceCost scratchCost = new BalanceCost();

  // sd_lb_stats, preallocated.
  private final SgLbStats localStat = new SgLbStats();
  private final SgLbStats busiestStat = new SgLbStats();
  private final SgLbStats groupStat = new SgLbStats();
  private SchedGroup sdsBusiest;
  private SchedGroup sdsLocal;
  private long sdsTotalLoad;
  private long sdsTotalCapacity;
  private long sdsAvgLoad;
  private boolean sdsPreferSibling;

  /** {@code *continue_balancing} of the current walk. */
  private boolean continueBalancing;
  /** Where plugin moves ({@link #migrateOneTask}) are charged during a pass; null outside one. */
  private BalanceCost passCost;

  // The last sched_balance_rq() decision, for tests and reports.
  private GroupType lastBusiestGroupType;
  private GroupType lastLocalGroupType;
  private MigrationType lastMigrationType;
  private long lastImbalance;

  /**
   * A balancer over {@code host}'s machine and domains, which must not change for the balancer's
   * lifetime. Reads the host's clock to initialise {@code last_balance}, {@code next_balance} and
   * the newidle stamps, as {@code sd_init()} and {@code sched_init()} do.
   *
   * @param passes plugin hooks, called in list order
   * @param stats counters at least as wide as the machine and its deepest domain chain (see
   *     {@link #newStats(SchedDomains)})
   * @throws IllegalArgumentException if {@code stats} is too small or {@code host.hz() <= 0}
   */
  public LoadBalancer(
      BalanceHost host,
      List<BalancePass> passes,
      BalancerOptions options,
      BalanceCostModel costModel,
      LbStats stats) {
    this.host = Objects.requireNonNull(host, "host");
    this.passes = passes.toArray(new BalancePass[0]);
    this.options = Objects.requireNonNull(options, "options");
    this.costModel = Objects.requireNonNull(costModel, "costModel");
    this.stats = Objects.requireNonNull(stats, "stats");
    this.topology = host.topology();
    this.state = host.state();
    SchedDomains domains = host.domains();
    int nrCpuIds = topology.nrCpuIds();
    this.levels = Math.max(1, domains.maxLevels());
    if (stats.nrCpuIds() < nrCpuIds || stats.nrLevels() < domains.maxLevels()) {
      throw new IllegalArgumentException(
          "LbStats of " + stats.nrCpuIds() + " CPUs x " + stats.nrLevels() + " levels is too small"
              + " for " + nrCpuIds + " CPUs x " + domains.maxLevels() + " levels");
    }
    this.hz = host.hz();
    if (hz <= 0) {
      throw new IllegalArgumentException("hz " + hz + " must be positive");
    }
    this.maxLoadBalanceInterval = Math.max(1, (long) hz * topology.cpuCount() / 10);
    this.clusterActive = domains.hasClusterDomains();
    this.chains = new SchedDomain[nrCpuIds][];
    int slots = nrCpuIds * levels;
    this.balanceIntervalMs = new int[slots];
    this.nrBalanceFailed = new int[slots];
    this.lastBalance = new long[slots];
    this.maxNewidleLbCostNs = new long[slots];
    this.lastDecayMaxLbCost = new long[slots];
    this.newidleCall = new int[slots];
    this.newidleSuccess = new int[slots];
    this.newidleRatio = new int[slots];
    this.newidleStampNs = new long[slots];
    this.nextBalance = new long[nrCpuIds];
    this.maxIdleBalanceCostNs = new long[nrCpuIds];
    long jiffies = host.jiffies();
    long now = host.nowNs();
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      chains[cpu] = domains.domains(cpu).toArray(new SchedDomain[0]);
      for (SchedDomain sd : chains[cpu]) {
        int i = index(sd);
        balanceIntervalMs[i] = sd.initialBalanceIntervalMs();
        lastBalance[i] = jiffies;
        lastDecayMaxLbCost[i] = jiffies;
        newidleCall[i] = NEWIDLE_CALL_INIT;
        newidleSuccess[i] = NEWIDLE_SUCCESS_INIT;
        newidleRatio[i] = NEWIDLE_RATIO_INIT;
        newidleStampNs[i] = now;
      }
      nextBalance[cpu] = jiffies;
      maxIdleBalanceCostNs[cpu] = migrationCostFloorNs();
    }
    this.sgcImbalance = new boolean[Math.max(1, domains.capacitySlotCount())];
    this.envCpus = CpuMasks.mutable(nrCpuIds);
    this.swbCpus = CpuMasks.mutable(nrCpuIds);
    this.sourceCandidates = CpuMasks.mutable(nrCpuIds);
    this.passState = new PassState(nrCpuIds);
  }

  /** Counters sized for {@code domains}: every CPU id × the deepest domain chain. */
  public static LbStats newStats(SchedDomains domains) {
    return new LbStats(domains.topology().nrCpuIds(), Math.max(1, domains.maxLevels()));
  }

  // ---------------------------------------------------------------------------------------
  // Periodic balancing

  /**
   * Models {@code sched_balance_domains(rq, idle)} in {@code kernel/sched/fair.c}: walks {@code
   * cpu}'s domains bottom-up, decays {@code max_newidle_lb_cost}, balances each domain whose
   * interval ({@code balance_interval}, × {@code busy_factor} when busy) has expired, stops when
   * {@code should_we_balance()} says another CPU of the group balances, and sets {@code
   * rq->next_balance}. Plugin hooks: {@link BalancePass#beforeDomainWalk} first, {@link
   * BalancePass#balanceDomain} per domain (false skips it as if its interval had not expired).
   *
   * @param idle {@link IdleType#NOT_IDLE} or {@link IdleType#IDLE} ({@code rq->idle_balance}, or
   *     idle for a NOHZ pass on behalf of an idle CPU)
   * @param cost accumulates the work done, for the engine to charge to the CPU that runs it
   * @throws IllegalArgumentException for {@link IdleType#NEWLY_IDLE} (use {@link #newidleBalance})
   */
  public void balanceDomains(int cpu, IdleType idle, BalanceCost cost) {
    if (idle == IdleType.NEWLY_IDLE) {
      throw new IllegalArgumentException("balanceDomains is periodic; use newidleBalance");
    }
    SchedDomain[] chain = chains[cpu];
    passState.reset(cpu, idle);
    passCost = cost;
    try {
      for (BalancePass pass : passes) {
        pass.beforeDomainWalk(passState, this);
      }
      continueBalancing = true;
      boolean busy = idle != IdleType.IDLE && !state.isSchedIdleRq(cpu);
      long jiffies = host.jiffies();
      long next = jiffies + 60L * hz;
      boolean updateNextBalance = false;
      boolean needDecay = false;
      long maxCost = 0;
      for (SchedDomain sd : chain) {
        int i = index(sd);
        needDecay = updateNewidleCost(sd, 0, 0);
        maxCost += maxNewidleLbCostNs[i];
        if (!continueBalancing) {
          if (needDecay) {
            continue;
          }
          break;
        }
        long interval = sdBalanceInterval(sd, busy);
        boolean allowed = passesAllow(sd);
        if (allowed && jiffies >= lastBalance[i] + interval) {
          if (schedBalanceRq(cpu, sd, idle, cost) > 0) {
            // The DST_PINNED path may have moved tasks elsewhere, so look again.
            idle = state.isIdle(cpu) ? IdleType.IDLE : IdleType.NOT_IDLE;
            busy = idle != IdleType.IDLE && !state.isSchedIdleRq(cpu);
          }
          lastBalance[i] = jiffies;
          interval = sdBalanceInterval(sd, busy);
        }
        if (next > lastBalance[i] + interval) {
          next = lastBalance[i] + interval;
          updateNextBalance = true;
        }
      }
      if (needDecay) {
        maxIdleBalanceCostNs[cpu] = Math.max(migrationCostFloorNs(), maxCost);
      }
      if (updateNextBalance) {
        nextBalance[cpu] = next;
      }
    } finally {
      passCost = null;
    }
  }

  /**
   * Replaces the boot-time balance stamps by the phases of a machine that has been up for a
   * while, before anything runs. The kernel's domain builder ({@code sd_init()}) stamps every
   * domain's {@code last_balance} with the current jiffy and {@code sched_init()} sets every
   * {@code rq->next_balance} to it, so just after boot (and after every domain rebuild) all CPUs
   * are due at every level in the same jiffy. That phase does not last: {@code
   * sched_balance_domains()} stamps a domain with the jiffy its balance actually ran, which
   * depends on when the CPU went idle or busy, on when an idle load balancer happened to be
   * kicked for it, and on the busy interval ({@code balance_interval × busy_factor} less one
   * jiffy, which {@code get_sd_balance_interval()} keeps from being a multiple of the idle one).
   * The model therefore draws, for every CPU and domain bottom-up, {@code last_balance := jiffies
   * - k} with {@code k} uniform in {@code [0, interval)} where {@code interval} is the domain's
   * idle interval ({@code get_sd_balance_interval(sd, 0)}; the CPUs are idle at the start), so
   * each domain of each CPU is next due at a jiffy uniform over its next interval; {@code
   * rq->next_balance} becomes the earliest of those deadlines, as {@code sched_balance_domains()}
   * would leave it. Uniform phases are an assumption (the maximum-entropy steady state; no
   * source measured the distribution); {@code balance_interval} keeps its initial value.
   *
   * @param random the stream to draw the phases from, CPUs ascending, domains bottom-up
   */
  public void spreadBalanceStamps(RandomGenerator random) {
    long jiffies = host.jiffies();
    for (int cpu = 0; cpu < chains.length; cpu++) {
      if (chains[cpu].length == 0) {
        continue;
      }
      long next = Long.MAX_VALUE;
      for (SchedDomain sd : chains[cpu]) {
        int i = index(sd);
        long interval = sdBalanceInterval(sd, false);
        lastBalance[i] = jiffies - random.nextLong(interval);
        next = Math.min(next, lastBalance[i] + interval);
      }
      nextBalance[cpu] = next;
    }
  }

  /** {@code rq->next_balance} of {@code cpu}, jiffies: when its periodic balance is next due. */
  public long nextBalance(int cpu) {
    return nextBalance[cpu];
  }

  /** {@code rd->overloaded}: some CPU had more than one runnable task at the last root balance. */
  public boolean rootDomainOverloaded() {
    return rdOverloaded;
  }

  /**
   * Models the root-domain part of {@code add_nr_running()} in {@code kernel/sched/sched.h}: when
   * a runqueue goes from fewer than two tasks to two or more, {@code rd->overloaded} is set, which
   * opens the newidle gate. The engine calls this on every enqueue that raises {@code nr_running}.
   */
  public void addNrRunning(int cpu, int previousNrRunning, int nrRunning) {
    if (previousNrRunning < 2 && nrRunning >= 2) {
      rdOverloaded = true;
    }
  }

  /** Models {@code get_sd_balance_interval(sd, cpu_busy)} in {@code kernel/sched/fair.c}. */
  long sdBalanceInterval(SchedDomain sd, boolean busy) {
    long ms = balanceIntervalMs[index(sd)];
    if (busy) {
      ms *= sd.busyFactor();
    }
    long interval = msecsToJiffies(ms);
    if (busy) {
      // Keeps the busy periods of different levels from being multiples of each other.
      interval -= 1;
    }
    return Math.max(1, Math.min(interval, maxLoadBalanceInterval));
  }

  /** Equivalent of {@code msecs_to_jiffies()}: rounds up. */
  long msecsToJiffies(long ms) {
    return (ms * hz + 999) / 1000;
  }

  // ---------------------------------------------------------------------------------------
  // sched_balance_rq

  /**
   * Models {@code sched_balance_rq(this_cpu, this_rq, sd, idle, &continue_balancing)} in {@code
   * kernel/sched/fair.c}: one balancing attempt of one domain, with every {@code lb_*} counter
   * moving where kernel-facts §7.2 says. Returns the number of tasks moved.
   */
  int schedBalanceRq(int thisCpu, SchedDomain sd, IdleType idle, BalanceCost cost) {
    int i = index(sd);
    int level = sd.level();
    SchedDomain parent = sd.parent();
    LbEnv e = prepareEnv(thisCpu, sd, idle);
    lastBusiestGroupType = null;
    lastLocalGroupType = null;
    lastMigrationType = null;
    lastImbalance = 0;
    cost.domainsBalanced++;
    stats.incrementLb(thisCpu, level, idle, LbField.COUNT);

    boolean needUnlock = false;
    boolean activeBalance = false;
    int moved = 0;
    int exit;
    redo:
    while (true) {
      if (!shouldWeBalance(e)) {
        continueBalancing = false;
        exit = OUT_BALANCED;
        break;
      }
      if (!needUnlock && sd.hasFlag(SdFlags.SD_SERIALIZE)) {
        if (balanceRunning) {
          exit = OUT_BALANCED;
          break;
        }
        balanceRunning = true;
        needUnlock = true;
      }
      SchedGroup group = findSrcGroup(e, cost);
      if (group == null) {
        stats.incrementLb(thisCpu, level, idle, LbField.NOBUSYG);
        exit = OUT_BALANCED;
        break;
      }
      int busiest = findSrcRq(e, group);
      if (busiest == NO_CPU) {
        stats.incrementLb(thisCpu, level, idle, LbField.NOBUSYQ);
        exit = OUT_BALANCED;
        break;
      }
      lastMigrationType = e.migrationType;
      lastImbalance = e.imbalance;
      stats.addLb(thisCpu, level, idle, e.migrationType.imbalanceField, e.imbalance);
      e.srcCpu = busiest;
      moved = 0;
      e.flags |= LBF_ALL_PINNED;
      int busiestNrRunning = state.nrRunning(busiest);
      if (busiestNrRunning > 1) {
        e.loopMax = Math.min(options.nrMigrate(), busiestNrRunning);
        while (true) {
          moved += detachTasks(e, cost);
          if ((e.flags & LBF_NEED_BREAK) != 0) {
            e.flags &= ~LBF_NEED_BREAK;
            continue;
          }
          if ((e.flags & LBF_DST_PINNED) != 0 && e.imbalance > 0) {
            // Same source, another destination in our group that the pinned tasks accept.
            envCpus.clear(e.dstCpu);
            e.dstCpu = e.newDstCpu;
            e.flags &= ~LBF_DST_PINNED;
            e.loop = 0;
            e.loopBreak = SCHED_NR_MIGRATE_BREAK;
            continue;
          }
          break;
        }
        if (parent != null && (e.flags & LBF_SOME_PINNED) != 0 && e.imbalance > 0) {
          sgcImbalance[parent.localGroup().capacitySlot()] = true;
        }
        if ((e.flags & LBF_ALL_PINNED) != 0) {
          envCpus.clear(busiest);
          if (!envCpus.isSubsetOf(e.dstGrpmask)) {
            e.loop = 0;
            e.loopBreak = SCHED_NR_MIGRATE_BREAK;
            continue redo;
          }
          exit = OUT_ALL_PINNED;
          break;
        }
      }
      if (moved == 0) {
        stats.incrementLb(thisCpu, level, idle, LbField.FAILED);
        if (idle != IdleType.NEWLY_IDLE && e.migrationType != MigrationType.MISFIT) {
          nrBalanceFailed[i]++;
        }
        if (needActiveBalance(e)) {
          int current = runningTask(busiest);
          if (current < 0 || !host.task(current).allowedCpus().test(thisCpu)) {
            exit = OUT_ONE_PINNED;
            break;
          }
          e.flags &= ~LBF_ALL_PINNED;
          activeBalance = host.requestActiveBalance(busiest, thisCpu);
        }
      } else {
        nrBalanceFailed[i] = 0;
      }
      if (!activeBalance || needActiveBalance(e)) {
        balanceIntervalMs[i] = sd.minIntervalMs();
      }
      exit = OUT;
      break;
    }

    if (exit == OUT_BALANCED) {
      // Clear the parent's affinity flag only if other tasks had a chance to move.
      if (parent != null && (e.flags & LBF_ALL_PINNED) == 0) {
        sgcImbalance[parent.localGroup().capacitySlot()] = false;
      }
      exit = OUT_ALL_PINNED;
    }
    if (exit == OUT_ALL_PINNED) {
      stats.incrementLb(thisCpu, level, idle, LbField.BALANCED);
      nrBalanceFailed[i] = 0;
      exit = OUT_ONE_PINNED;
    }
    if (exit == OUT_ONE_PINNED) {
      moved = 0;
      // Newidle ignores intervals and misfit needs to act soon: neither backs off.
      if (e.idle != IdleType.NEWLY_IDLE && e.migrationType != MigrationType.MISFIT) {
        int interval = balanceIntervalMs[i];
        if (((e.flags & LBF_ALL_PINNED) != 0 && interval < MAX_PINNED_INTERVAL_MS)
            || interval < sd.maxIntervalMs()) {
          balanceIntervalMs[i] = interval * 2;
        }
      }
    }
    if (needUnlock) {
      balanceRunning = false;
    }
    return moved;
  }

  /** The initializer of {@code sched_balance_rq()}: env, and env->cpus = span ∩ active. */
  private LbEnv prepareEnv(int thisCpu, SchedDomain sd, IdleType idle) {
    LbEnv e = env;
    e.reset(sd, thisCpu, sd.localGroup().balanceMask(), idle, 0);
    envCpus.clearAll();
    CpuMask span = sd.span();
    for (int cpu = span.first(); cpu != NO_CPU; cpu = span.next(cpu)) {
      if (state.isActive(cpu)) {
        envCpus.set(cpu);
      }
    }
    return e;
  }

  /** {@link #shouldWeBalance(LbEnv)} for {@code dstCpu} in {@code sd}, as a pass would ask it. */
  boolean shouldWeBalance(int dstCpu, SchedDomain sd, IdleType idle) {
    return shouldWeBalance(prepareEnv(dstCpu, sd, idle));
  }

  /**
   * Models {@code should_we_balance(env)} in {@code kernel/sched/fair.c}: in newidle every CPU
   * with nothing queued may balance; otherwise the domain is balanced by the first idle CPU of the
   * local group's balance mask on a fully idle core, else the first idle CPU whose siblings are
   * busy, else the group's balance CPU.
   */
  boolean shouldWeBalance(LbEnv e) {
    if (!envCpus.test(e.dstCpu)) {
      return false;
    }
    if (e.idle == IdleType.NEWLY_IDLE) {
      return state.nrRunning(e.dstCpu) == 0 && !host.ttwuPending(e.dstCpu);
    }
    SchedDomain sd = e.sd;
    SchedGroup local = sd.localGroup();
    swbCpus.copyFrom(local.balanceMask());
    boolean coreRule =
        !sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY)
            && (!options.mainlineDeltas() || state.smtActive());
    int idleSmt = NO_CPU;
    // The cursor reads the live mask, so siblings dropped below are not visited.
    for (int cpu = swbCpus.firstAnd(envCpus); cpu != NO_CPU; cpu = swbCpus.nextAnd(cpu, envCpus)) {
      if (!state.isIdle(cpu)) {
        continue;
      }
      if (coreRule && !state.isCoreIdle(cpu)) {
        if (idleSmt == NO_CPU) {
          idleSmt = cpu;
        }
        swbCpus.removeAll(topology.smtSiblings(cpu));
        continue;
      }
      return cpu == e.dstCpu;
    }
    if (idleSmt != NO_CPU) {
      return idleSmt == e.dstCpu;
    }
    return local.groupBalanceCpu() == e.dstCpu;
  }

  // ---------------------------------------------------------------------------------------
  // Busiest group

  /**
   * Models {@code sched_balance_find_src_group(env)} in {@code kernel/sched/fair.c}: gathers the
   * domain's group statistics, decides whether the domain is balanced, and if not computes the
   * imbalance. Returns the busiest group, or null when balanced or the imbalance is 0.
   */
  SchedGroup findSrcGroup(LbEnv e, BalanceCost cost) {
    updateSdLbStats(e, cost);
    SgLbStats busiest = busiestStat;
    SgLbStats local = localStat;
    lastLocalGroupType = local.groupType;
    if (sdsBusiest == null) {
      e.imbalance = 0;
      return null;
    }
    lastBusiestGroupType = busiest.groupType;
    if (!forceBalance(e, busiest, local)) {
      e.imbalance = 0;
      return null;
    }
    calculateImbalance(e);
    return e.imbalance != 0 ? sdsBusiest : null;
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
      sdsAvgLoad = sdsTotalLoad * SCHED_CAPACITY_SCALE / sdsTotalCapacity;
      if (local.avgLoad >= sdsAvgLoad) {
        return false;
      }
      if (100 * busiest.avgLoad <= (long) e.sd.imbalancePct() * local.avgLoad) {
        return false;
      }
    }
    if (sdsPreferSibling && local.groupType == GroupType.HAS_SPARE && siblingImbalance(e) > 1) {
      return true;
    }
    if (busiest.groupType != GroupType.OVERLOADED) {
      if (e.idle == IdleType.NOT_IDLE) {
        // Nobody is overloaded and this CPU is busy: let an idle CPU pull.
        return false;
      }
      if (busiest.groupType == GroupType.SMT_BALANCE && smtVsNonSmtGroups(sdsLocal, sdsBusiest)) {
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
   * Models {@code update_sd_lb_stats(env, sds)} in {@code kernel/sched/fair.c}: statistics of
   * every group of the domain, the busiest one, the totals, {@code prefer_sibling}, and at the
   * root {@code rd->overloaded}.
   */
  private void updateSdLbStats(LbEnv e, BalanceCost cost) {
    SchedDomain sd = e.sd;
    sdsBusiest = null;
    sdsLocal = null;
    sdsTotalLoad = 0;
    sdsTotalCapacity = 0;
    sdsAvgLoad = 0;
    sdsPreferSibling = false;
    busiestStat.resetAsInitialBusiest();
    localStat.reset();
    e.dstCoreIdle = !state.smtActive() || state.isCoreIdle(e.dstCpu);
    boolean sgOverloaded = false;
    List<SchedGroup> groups = sd.groups();
    for (int g = 0, n = groups.size(); g < n; g++) {
      SchedGroup sg = groups.get(g);
      boolean localGroup = sg.span().test(e.dstCpu);
      SgLbStats sgs = localGroup ? localStat : groupStat;
      if (localGroup) {
        sdsLocal = sg;
      }
      sgOverloaded |= updateSgLbStats(e, sg, sgs, localGroup, cost);
      if (!localGroup && updateSdPickBusiest(e, sg, sgs)) {
        sdsBusiest = sg;
        busiestStat.copyFrom(sgs);
      }
      sdsTotalLoad += sgs.groupLoad;
      sdsTotalCapacity += sgs.groupCapacity;
    }
    if (sdsBusiest != null) {
      sdsPreferSibling = (sdsBusiest.flags() & SdFlags.SD_PREFER_SIBLING) != 0;
    }
    if (sd.parent() == null) {
      rdOverloaded = sgOverloaded;
    }
  }

  /**
   * Models {@code update_sg_lb_stats(env, sds, group, sgs, &sg_overloaded, ...)} in {@code
   * kernel/sched/fair.c} for the CPUs of {@code sg} in {@code env->cpus}, then classifies the
   * group. Returns whether a CPU of the group has more than one task or a misfit task ({@code
   * sg_overloaded}), which only the root domain records.
   */
  private boolean updateSgLbStats(
      LbEnv e, SchedGroup sg, SgLbStats sgs, boolean localGroup, BalanceCost cost) {
    SchedDomain sd = e.sd;
    boolean mainline = options.mainlineDeltas();
    boolean asym = sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY);
    boolean overloaded = false;
    sgs.reset();
    long capacity = 0;
    long minCapacity = Long.MAX_VALUE;
    long maxCapacity = 0;
    CpuMask span = sg.span();
    for (int cpu = span.first(); cpu != NO_CPU; cpu = span.next(cpu)) {
      long cpuCapacity = state.capacityOf(cpu);
      capacity += cpuCapacity;
      minCapacity = Math.min(minCapacity, cpuCapacity);
      maxCapacity = Math.max(maxCapacity, cpuCapacity);
      if (!envCpus.test(cpu)) {
        continue;
      }
      cost.cpusScanned++;
      long load = state.loadAvg(cpu);
      sgs.groupLoad += load;
      sgs.groupUtil += state.utilAvg(cpu);
      sgs.groupRunnable += state.runnableAvg(cpu);
      sgs.sumHNrRunning += state.cfsNrRunnable(cpu);
      int nrRunning = state.nrRunning(cpu);
      sgs.sumNrRunning += nrRunning;
      if (nrRunning == 0 && state.isIdle(cpu)) {
        sgs.idleCpus++;
        continue;
      }
      if (nrRunning > 1) {
        overloaded = true;
      }
      if (localGroup) {
        continue;
      }
      if (asym) {
        long misfit = host.misfitTaskLoad(cpu);
        if (sgs.groupMisfitTaskLoad < misfit) {
          sgs.groupMisfitTaskLoad = misfit;
          // Only the root domain reads this, so the [ML] root-only gate changes nothing here.
          overloaded = true;
        }
      } else if (e.idle != IdleType.NOT_IDLE && schedReducedCapacity(cpu, sd)) {
        sgs.groupMisfitTaskLoad = Math.max(sgs.groupMisfitTaskLoad, load);
      }
    }
    sgs.groupCapacity = capacity;
    sgs.minCapacity = minCapacity == Long.MAX_VALUE ? 0 : minCapacity;
    sgs.maxCapacity = maxCapacity;
    sgs.groupWeight = sg.weight();
    if (mainline && asym && !localGroup
        && !capacityGreater(state.capacityOf(e.dstCpu), sgs.maxCapacity)) {
      // [ML] a misfit that dst cannot help with is not accounted.
      sgs.groupMisfitTaskLoad = 0;
    }
    if (!localGroup && smtBalance(e, sgs, sg)) {
      sgs.groupSmtBalance = true;
    }
    sgs.groupType =
        SgLbStats.groupClassify(sd.imbalancePct(), sgcImbalance[sg.capacitySlot()], sgs);
    if (sgs.groupType == GroupType.OVERLOADED) {
      sgs.avgLoad = sgs.groupLoad * SCHED_CAPACITY_SCALE / sgs.groupCapacity;
    }
    return overloaded;
  }

  /**
   * Models {@code update_sd_pick_busiest(env, sds, sg, sgs)} in {@code kernel/sched/fair.c}:
   * whether {@code sg} is busier than the busiest group found so far.
   */
  private boolean updateSdPickBusiest(LbEnv e, SchedGroup sg, SgLbStats sgs) {
    SgLbStats busiest = busiestStat;
    boolean mainline = options.mainlineDeltas();
    boolean asym = e.sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY);
    long dstCapacity = state.capacityOf(e.dstCpu);
    if (sgs.sumHNrRunning == 0) {
      return false;
    }
    if (asym
        && sgs.groupType == GroupType.MISFIT_TASK
        && (!capacityGreater(dstCapacity, sgs.maxCapacity)
            || localStat.groupType != GroupType.HAS_SPARE
            || (mainline && !e.dstCoreIdle))) {
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
        if (smtVsNonSmtGroups(sdsBusiest, sg)) {
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

  /** The {@code group_fully_busy} tie-break: higher avg_load; on a tie keep an SMT busiest. */
  private boolean fullyBusyIsBusier(SgLbStats sgs, SgLbStats busiest) {
    if (sgs.avgLoad < busiest.avgLoad) {
      return false;
    }
    return sgs.avgLoad != busiest.avgLoad || !SgLbStats.isSmtGroup(sdsBusiest);
  }

  /** The {@code group_has_spare} tie-break: fewer idle CPUs, then more running tasks. */
  private static boolean hasSpareIsBusier(SgLbStats sgs, SgLbStats busiest) {
    if (sgs.idleCpus > busiest.idleCpus) {
      return false;
    }
    return sgs.idleCpus != busiest.idleCpus || sgs.sumNrRunning > busiest.sumNrRunning;
  }

  /**
   * The asymmetric-capacity rule of {@code update_sd_pick_busiest()}: a group with no more than
   * one task per CPU whose CPUs are all noticeably bigger than dst is not worth pulling from.
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

  /**
   * Models {@code sibling_imbalance(env, sds, busiest, local)} in {@code kernel/sched/fair.c}:
   * how many tasks to move so both groups run the same number of tasks per core.
   */
  private long siblingImbalance(LbEnv e) {
    SgLbStats busiest = busiestStat;
    SgLbStats local = localStat;
    if (e.idle == IdleType.NOT_IDLE || busiest.sumNrRunning == 0) {
      return 0;
    }
    long coresBusiest = sdsBusiest.cores();
    long coresLocal = sdsLocal.cores();
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
    SgLbStats local = localStat;
    SgLbStats busiest = busiestStat;
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
      if (busiest.groupWeight == 1 || sdsPreferSibling) {
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
      sdsAvgLoad = sdsTotalLoad * SCHED_CAPACITY_SCALE / sdsTotalCapacity;
      if (local.avgLoad >= sdsAvgLoad) {
        e.imbalance = 0;
        return;
      }
    }
    // Bring both towards the domain average, neither past it. The kernel's unsigned arithmetic
    // cannot go below 0 meaningfully; clamp instead of wrapping.
    long fromBusiest = (busiest.avgLoad - sdsAvgLoad) * busiest.groupCapacity;
    long toLocal = (sdsAvgLoad - local.avgLoad) * local.groupCapacity;
    setImbalance(
        e, MigrationType.LOAD, Math.max(0, Math.min(fromBusiest, toLocal) / SCHED_CAPACITY_SCALE));
  }

  private static void setImbalance(LbEnv e, MigrationType type, long imbalance) {
    e.migrationType = type;
    e.imbalance = imbalance;
  }

  // ---------------------------------------------------------------------------------------
  // Busiest runqueue

  /**
   * Models {@code sched_balance_find_src_rq(env, group)} in {@code kernel/sched/fair.c}: the CPU
   * of {@code group} to pull from, by migration type, among {@code env->cpus} as narrowed by the
   * plugins' {@link BalancePass#narrowSourceCandidates}; {@link CpuMask#NO_CPU} if none.
   */
  int findSrcRq(LbEnv e, SchedGroup group) {
    SchedDomain sd = e.sd;
    sourceCandidates.copyFrom(envCpus);
    for (BalancePass pass : passes) {
      pass.narrowSourceCandidates(sd, passState, sourceCandidates);
    }
    boolean asym = sd.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY);
    long dstCapacity = state.capacityOf(e.dstCpu);
    int busiest = NO_CPU;
    long busiestLoad = 0;
    long busiestCapacity = 1;
    long busiestUtil = 0;
    int busiestNr = 0;
    CpuMask span = group.span();
    for (int cpu = span.firstAnd(sourceCandidates);
        cpu != NO_CPU;
        cpu = span.nextAnd(cpu, sourceCandidates)) {
      int nr = state.cfsNrRunnable(cpu);
      if (nr == 0) {
        continue;
      }
      long capacity = state.capacityOf(cpu);
      if (asym && nr == 1 && !capacityGreater(dstCapacity, capacity)
          && !worthPullingSingleTask(cpu, e.dstCpu)) {
        // Pulling would lead to an active balance from a big CPU to a smaller one.
        continue;
      }
      switch (e.migrationType) {
        case LOAD: {
          long load = state.loadAvg(cpu);
          if (nr == 1 && load > e.imbalance && !checkCpuCapacity(cpu, sd)) {
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
        case UTIL: {
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
        case MISFIT: {
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
    if (state.smtActive() && !state.isCoreIdle(src)) {
      return true;
    }
    return clusterActive && topology.capacity(src) == topology.capacity(dst);
  }

  // ---------------------------------------------------------------------------------------
  // Detaching tasks

  /**
   * Models {@code detach_tasks(env)} with {@code attach_tasks()} in {@code kernel/sched/fair.c}:
   * scans the source's {@code cfs_tasks} from the tail, rotating refused tasks to the head, and
   * moves tasks until the imbalance is gone, {@code loop_max} tasks were seen, or {@code
   * loop_break} asks for a lock break. Records the lock hold and {@code lb_gained}.
   */
  private int detachTasks(LbEnv e, BalanceCost cost) {
    int src = e.srcCpu;
    int level = e.sd.level();
    int owner = e.sd.cpu();
    long examined = 0;
    int detached = 0;
    if (state.nrRunning(src) <= 1) {
      // Emptied meanwhile: no task was tested, so none was found pinned.
      e.flags &= ~LBF_ALL_PINNED;
    } else if (e.imbalance > 0) {
      while (host.cfsTaskCount(src) > 0) {
        // Never take the last task: being treated likewise could livelock.
        if (e.idle != IdleType.NOT_IDLE && state.nrRunning(src) <= 1) {
          break;
        }
        e.loop++;
        if (e.loop > e.loopMax) {
          break;
        }
        if (e.loop > e.loopBreak) {
          e.loopBreak += SCHED_NR_MIGRATE_BREAK;
          e.flags |= LBF_NEED_BREAK;
          break;
        }
        int task = host.cfsTaskFromTail(src, 0);
        examined++;
        if (!canMigrateTask(task, e) || !takesImbalance(task, e)) {
          host.rotateToHead(src, task);
          continue;
        }
        host.migrateTask(task, e.dstCpu, level);
        detached++;
        if (e.taskHot) {
          stats.incrementLb(owner, level, e.idle, LbField.HOT_GAINED);
        }
        if (e.idle == IdleType.NEWLY_IDLE && options.preemptNewidleAfterOneTask()) {
          // Keeps the newidle critical section short on preemptible kernels.
          break;
        }
        if (e.imbalance <= 0) {
          break;
        }
      }
    }
    stats.addLb(owner, level, e.idle, LbField.GAINED, detached);
    stats.addMigrations(level, detached);
    stats.recordLockHoldNs(costModel.lockHoldNs(examined, detached));
    cost.tasksExamined += examined;
    cost.tasksMoved += detached;
    return detached;
  }

  /**
   * The migration-type switch of {@code detach_tasks()}: whether moving {@code task} fits the
   * imbalance, and if so subtracts it.
   */
  private boolean takesImbalance(int task, LbEnv e) {
    int shift = nrBalanceFailed[index(e.sd)];
    switch (e.migrationType) {
      case LOAD: {
        long load = Math.max(host.taskHLoad(task), 1);
        // Moving more than the imbalance is allowed more the more often balancing failed.
        if (shrBound(load, shift) > e.imbalance) {
          stats.incrementSkip(e.sd.level(), MigrationSkip.OVER_IMBALANCE);
          return false;
        }
        e.imbalance -= load;
        return true;
      }
      case UTIL: {
        long util = host.taskUtilEst(task);
        if (shrBound(util, shift) > e.imbalance) {
          stats.incrementSkip(e.sd.level(), MigrationSkip.OVER_IMBALANCE);
          return false;
        }
        e.imbalance -= util;
        return true;
      }
      case TASK:
        e.imbalance--;
        return true;
      case MISFIT:
        if (taskFitsCpu(task, e.srcCpu)) {
          stats.incrementSkip(e.sd.level(), MigrationSkip.FITS);
          return false;
        }
        e.imbalance = 0;
        return true;
      default:
        throw new AssertionError(e.migrationType);
    }
  }

  /**
   * Models {@code can_migrate_task(p, env)} in {@code kernel/sched/fair.c}: affinity (with the
   * {@code LBF_SOME_PINNED} / {@code LBF_DST_PINNED} bookkeeping), the running task, and cache
   * hotness unless balancing failed more than {@code cache_nice_tries} times or this is an active
   * balance. Sets {@code env.taskHot} when a hot task is let go.
   */
  boolean canMigrateTask(int taskId, LbEnv e) {
    e.taskHot = false;
    TaskView p = host.task(taskId);
    CpuMask allowed = p.allowedCpus();
    if (!allowed.test(e.dstCpu)) {
      stats.incrementSkip(e.sd.level(), MigrationSkip.AFFINE);
      e.flags |= LBF_SOME_PINNED;
      if (e.idle == IdleType.NEWLY_IDLE || (e.flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)) != 0) {
        return false;
      }
      int newDst = firstAndAnd(e.dstGrpmask, envCpus, allowed);
      if (newDst != NO_CPU) {
        e.flags |= LBF_DST_PINNED;
        e.newDstCpu = newDst;
      }
      return false;
    }
    e.flags &= ~LBF_ALL_PINNED;
    if (p.isRunning()) {
      stats.incrementSkip(e.sd.level(), MigrationSkip.RUNNING);
      return false;
    }
    if ((e.flags & LBF_ACTIVE_LB) != 0) {
      return true;
    }
    boolean hot = taskHot(p, e);
    if (!hot || nrBalanceFailed[index(e.sd)] > e.sd.cacheNiceTries()) {
      e.taskHot = hot;
      return true;
    }
    stats.incrementSkip(e.sd.level(), MigrationSkip.HOT);
    return false;
  }

  /**
   * Models {@code task_hot(p, env)} in {@code kernel/sched/fair.c}: a fair task that started
   * running less than {@code sysctl_sched_migration_cost} ago on its source is cache-hot, except
   * SCHED_IDLE tasks and in SMT domains (siblings share the cache). The source's {@code
   * rq_clock_task()} is the simulation clock.
   */
  boolean taskHot(TaskView p, LbEnv e) {
    if (p.policy().isIdlePolicy()) {
      return false;
    }
    if (e.sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY)) {
      return false;
    }
    long migrationCost = options.migrationCostNs();
    if (migrationCost == -1) {
      return true;
    }
    if (migrationCost == 0) {
      return false;
    }
    return host.nowNs() - host.execStartNs(p.id()) < migrationCost;
  }

  /**
   * Models {@code need_active_balance(env)} in {@code kernel/sched/fair.c} (without asym
   * packing): after too many failures with a task imbalance, for a reduced-capacity source, or for
   * a misfit task.
   */
  boolean needActiveBalance(LbEnv e) {
    SchedDomain sd = e.sd;
    if (e.migrationType == MigrationType.TASK
        && nrBalanceFailed[index(sd)] > sd.cacheNiceTries() + 2) {
      return true;
    }
    if (e.idle != IdleType.NOT_IDLE
        && state.cfsNrRunnable(e.srcCpu) == 1
        && checkCpuCapacity(e.srcCpu, sd)
        && state.capacityOf(e.srcCpu) * sd.imbalancePct() < state.capacityOf(e.dstCpu) * 100) {
      return true;
    }
    return e.migrationType == MigrationType.MISFIT;
  }

  // ---------------------------------------------------------------------------------------
  // Active balancing and plugin moves

  /**
   * Models {@code active_load_balance_cpu_stop()} in {@code kernel/sched/fair.c}, run by the
   * engine as {@code busiestCpu}'s stopper work after {@link BalanceHost#requestActiveBalance}:
   * moves the first task from the tail of {@code cfs_tasks} that may run on {@code targetCpu},
   * ignoring cache hotness, and counts {@code alb_count}/{@code alb_pushed}/{@code alb_failed} on
   * the target's lowest domain spanning both CPUs.
   *
   * <p>In the kernel the stopper is the current task of {@code busiestCpu} while this runs, so
   * the fair task that was running there has been preempted and is queued: that is how a lone
   * CPU-bound or misfit task gets pushed. The engine models this by putting {@code busiestCpu}'s
   * current fair task back on its runqueue (so {@link TaskView#isRunning()} is false and {@link
   * BalanceHost#migrateTask} accepts it) before calling; a task still running is skipped. {@code
   * state().nrRunning(busiestCpu)} counts fair tasks only (the kernel's {@code nr_running <= 1}
   * test counts the stopper). The engine clears {@code busiest->active_balance} itself.
   */
  public void activeLoadBalanceCpuStop(int busiestCpu, int targetCpu, BalanceCost cost) {
    if (!state.isActive(busiestCpu) || !state.isActive(targetCpu)) {
      return;
    }
    if (state.nrRunning(busiestCpu) < 1) {
      // The kernel's test is nr_running <= 1 with the stopper itself counted.
      return;
    }
    SchedDomain sd = lowestDomainSpanning(targetCpu, busiestCpu);
    if (sd == null) {
      return;
    }
    stats.incrementAlb(targetCpu, sd.level(), AlbField.COUNT);
    LbEnv e = oneTaskEnv;
    e.reset(sd, targetCpu, null, IdleType.IDLE, LBF_ACTIVE_LB);
    e.srcCpu = busiestCpu;
    if (detachOneTask(e, cost) != NO_CPU) {
      stats.incrementAlb(targetCpu, sd.level(), AlbField.PUSHED);
      stats.incrementLb(targetCpu, sd.level(), IdleType.IDLE, LbField.GAINED);
      nrBalanceFailed[index(sd)] = 0;
    } else {
      stats.incrementAlb(targetCpu, sd.level(), AlbField.FAILED);
    }
  }

  /**
   * {@link BalanceActions#migrateOneTask}: a {@code detach_one_task()} with {@code LBF_ACTIVE_LB}
   * from {@code srcCpu} to {@code dstCpu} on the lowest domain of {@code dstCpu} spanning both:
   * the first queued task from the tail that may run on {@code dstCpu}; the running task never
   * moves. Counts the migration for that level and the lock hold, but no {@code lb_*} or {@code
   * alb_*} counter (the move is not part of {@code sched_balance_rq()}). During a pass the work is
   * charged to the pass's {@link BalanceCost}.
   */
  @Override
  public boolean migrateOneTask(int srcCpu, int dstCpu) {
    if (srcCpu == dstCpu || !state.isActive(srcCpu) || !state.isActive(dstCpu)) {
      return false;
    }
    SchedDomain sd = lowestDomainSpanning(dstCpu, srcCpu);
    if (sd == null) {
      return false;
    }
    LbEnv e = oneTaskEnv;
    e.reset(sd, dstCpu, null, IdleType.IDLE, LBF_ACTIVE_LB);
    e.srcCpu = srcCpu;
    BalanceCost cost = passCost != null ? passCost : scratchCost;
    return detachOneTask(e, cost) != NO_CPU;
  }

  /**
   * {@link BalanceActions#resetBalanceInterval}: for every domain of {@code cpu}, {@code
   * balance_interval := min_interval} and {@code last_balance := jiffies}; {@code
   * rq->next_balance} is pulled in to the earliest resulting deadline.
   */
  @Override
  public void resetBalanceInterval(int cpu) {
    long jiffies = host.jiffies();
    boolean busy = !state.isIdle(cpu) && !state.isSchedIdleRq(cpu);
    for (SchedDomain sd : chains[cpu]) {
      int i = index(sd);
      balanceIntervalMs[i] = sd.minIntervalMs();
      lastBalance[i] = jiffies;
      nextBalance[cpu] = Math.min(nextBalance[cpu], jiffies + sdBalanceInterval(sd, busy));
    }
  }

  /**
   * Models {@code detach_one_task(env)} + {@code attach_one_task()} in {@code
   * kernel/sched/fair.c}: the first movable task scanning from the tail, without rotating. Returns
   * its id, or {@link CpuMask#NO_CPU} (-1) if none.
   */
  private int detachOneTask(LbEnv e, BalanceCost cost) {
    int src = e.srcCpu;
    int count = host.cfsTaskCount(src);
    long examined = 0;
    int moved = NO_CPU;
    for (int k = 0; k < count; k++) {
      int task = host.cfsTaskFromTail(src, k);
      examined++;
      if (canMigrateTask(task, e)) {
        host.migrateTask(task, e.dstCpu, e.sd.level());
        moved = task;
        break;
      }
    }
    int movedCount = moved == NO_CPU ? 0 : 1;
    stats.addMigrations(e.sd.level(), movedCount);
    stats.recordLockHoldNs(costModel.lockHoldNs(examined, movedCount));
    cost.tasksExamined += examined;
    cost.tasksMoved += movedCount;
    return moved;
  }

  // ---------------------------------------------------------------------------------------
  // Newidle balancing

  /**
   * Models {@code sched_balance_newidle(this_rq, rf)} in {@code kernel/sched/fair.c}, called by
   * the engine when {@code cpu}'s fair class finds nothing to run: unless the root domain is not
   * overloaded or {@code avg_idle} is shorter than the base domain's {@code max_newidle_lb_cost},
   * updates the CPU's blocked averages and balances its {@code SD_BALANCE_NEWIDLE} domains
   * bottom-up while the accumulated cost stays within {@code avg_idle}, stopping at the first
   * pull. With NI_RANDOM a domain is tried only with a probability that follows its success ratio.
   * Each domain's cost is the cost model's time for its work (the first domain run also carries
   * {@link BalanceCostModel#baseNs()}, the entry and blocked-average update); it feeds {@code
   * max_newidle_lb_cost} and, at the end, {@code rq->max_idle_balance_cost}.
   *
   * <p>The engine keeps {@code idle_stamp} and decides on {@code nohz_newidle_balance()} from the
   * result (0 = going idle).
   *
   * @return the number of tasks pulled, 0 if none
   */
  public int newidleBalance(int cpu, BalanceCost cost) {
    long next = host.jiffies() + hz;
    if (host.ttwuPending(cpu) || !state.isActive(cpu)) {
      return 0;
    }
    SchedDomain[] chain = chains[cpu];
    int pulled = 0;
    long avgIdle = host.avgIdleNs(cpu);
    if (chain.length == 0) {
      // No domains: only next_balance moves.
    } else if (!rdOverloaded || avgIdle < maxNewidleLbCostNs[index(chain[0])]) {
      next = updateNextBalance(chain[0], next);
    } else {
      passState.reset(cpu, IdleType.NEWLY_IDLE);
      passCost = cost;
      host.updateBlockedAverages(cpu);
      continueBalancing = true;
      long currCost = 0;
      boolean chargedBase = false;
      try {
        for (SchedDomain sd : chain) {
          int i = index(sd);
          next = updateNextBalance(sd, next);
          if (avgIdle < currCost + maxNewidleLbCostNs[i]) {
            break;
          }
          boolean allowed = passesAllow(sd);
          if (allowed && sd.hasFlag(SdFlags.SD_BALANCE_NEWIDLE)) {
            int weight = 1;
            if (options.niRandom() && newidleRatio[i] < NEWIDLE_RATIO_MAX) {
              // A 1024-sided die: run with a probability that follows the success ratio.
              int roll = host.random(cpu).nextInt() & (NEWIDLE_RATIO_MAX - 1);
              weight = 1 + newidleRatio[i];
              if (roll > weight) {
                updateNewidleStats(sd, 0);
                continue;
              }
              // A run stands for about 1024 / weight attempts.
              weight = (NEWIDLE_RATIO_MAX + weight / 2) / weight;
            }
            domainCost.reset();
            pulled = schedBalanceRq(cpu, sd, IdleType.NEWLY_IDLE, domainCost);
            // The first domain run also pays for the entry and the blocked-average update.
            long domainNs = costModel.variableNs(domainCost);
            if (!chargedBase) {
              domainNs += costModel.baseNs();
              chargedBase = true;
            }
            cost.add(domainCost);
            currCost += domainNs;
            updateNewidleCost(sd, domainNs, pulled > 0 ? weight : 0);
          }
          if (pulled > 0 || !continueBalancing) {
            break;
          }
        }
      } finally {
        passCost = null;
      }
      if (currCost > maxIdleBalanceCostNs[cpu]) {
        maxIdleBalanceCostNs[cpu] = currCost;
      }
    }
    if (nextBalance[cpu] > next) {
      nextBalance[cpu] = next;
    }
    return pulled;
  }

  /**
   * Models {@code update_next_balance(sd, &next_balance)} in {@code kernel/sched/fair.c}: the
   * earlier of {@code next} and the domain's next idle-interval deadline.
   */
  private long updateNextBalance(SchedDomain sd, long next) {
    long candidate = lastBalance[index(sd)] + sdBalanceInterval(sd, false);
    return Math.min(next, candidate);
  }

  /**
   * Models {@code update_newidle_cost(sd, cost, success)} in {@code kernel/sched/fair.c}: records
   * a newidle attempt's cost, raises {@code max_newidle_lb_cost}, or decays it by 253/256 once a
   * second. Returns whether it decayed.
   */
  boolean updateNewidleCost(SchedDomain sd, long costNs, int success) {
    int i = index(sd);
    if (costNs != 0) {
      updateNewidleStats(sd, success);
    }
    long jiffies = host.jiffies();
    if (costNs > maxNewidleLbCostNs[i]) {
      maxNewidleLbCostNs[i] = costNs;
      lastDecayMaxLbCost[i] = jiffies;
    } else if (jiffies > lastDecayMaxLbCost[i] + hz) {
      maxNewidleLbCostNs[i] = maxNewidleLbCostNs[i] * 253 / 256;
      lastDecayMaxLbCost[i] = jiffies;
      return true;
    }
    return false;
  }

  /**
   * Models {@code update_newidle_stats(sd, success)} in {@code kernel/sched/fair.c}: every ~512
   * attempts, {@code newidle_ratio} becomes the weighted successes plus, with NI_RATE, the wall
   * time those attempts spanned ({@code delta >> 22}, ~244 per second), capped at 1024.
   */
  private void updateNewidleStats(SchedDomain sd, int success) {
    int i = index(sd);
    newidleCall[i]++;
    newidleSuccess[i] += success;
    if (newidleCall[i] >= 1024) {
      long now = host.nowNs();
      long delta = Math.max(0, now - newidleStampNs[i]);
      newidleStampNs[i] = now;
      long ratio = (options.niRate() ? delta >> 22 : 0) + newidleSuccess[i];
      newidleRatio[i] = (int) Math.min(NEWIDLE_RATIO_MAX, ratio);
      newidleCall[i] /= 2;
      newidleSuccess[i] /= 2;
    }
  }

  // ---------------------------------------------------------------------------------------
  // Accessors for the engine, tests and reports

  /** {@code rq->max_idle_balance_cost} of {@code cpu}, ns. */
  public long maxIdleBalanceCostNs(int cpu) {
    return maxIdleBalanceCostNs[cpu];
  }

  /** {@code sd->balance_interval} of {@code cpu}'s domain at {@code level}, ms. */
  public long balanceIntervalMs(int cpu, int level) {
    return balanceIntervalMs[index(cpu, level)];
  }

  /** {@code sd->nr_balance_failed} of {@code cpu}'s domain at {@code level}. */
  public int nrBalanceFailed(int cpu, int level) {
    return nrBalanceFailed[index(cpu, level)];
  }

  /** {@code sd->last_balance} of {@code cpu}'s domain at {@code level}, jiffies. */
  public long lastBalance(int cpu, int level) {
    return lastBalance[index(cpu, level)];
  }

  /** {@code sd->max_newidle_lb_cost} of {@code cpu}'s domain at {@code level}, ns. */
  public long maxNewidleLbCostNs(int cpu, int level) {
    return maxNewidleLbCostNs[index(cpu, level)];
  }

  /** {@code sd->newidle_ratio} of {@code cpu}'s domain at {@code level} (0..1024). */
  public int newidleRatio(int cpu, int level) {
    return newidleRatio[index(cpu, level)];
  }

  /** The options this balancer runs with. */
  public BalancerOptions options() {
    return options;
  }

  /** The counters this balancer writes. */
  public LbStats stats() {
    return stats;
  }

  GroupType lastBusiestGroupType() {
    return lastBusiestGroupType;
  }

  GroupType lastLocalGroupType() {
    return lastLocalGroupType;
  }

  MigrationType lastMigrationType() {
    return lastMigrationType;
  }

  long lastImbalance() {
    return lastImbalance;
  }

  boolean groupImbalanceFlag(int slot) {
    return sgcImbalance[slot];
  }

  void setMaxNewidleLbCostNs(int cpu, int level, long costNs) {
    maxNewidleLbCostNs[index(cpu, level)] = costNs;
  }

  void setNewidleRatio(int cpu, int level, int ratio) {
    newidleRatio[index(cpu, level)] = ratio;
  }

  void setNrBalanceFailed(int cpu, int level, int failures) {
    nrBalanceFailed[index(cpu, level)] = failures;
  }

  void setRootDomainOverloaded(boolean overloaded) {
    rdOverloaded = overloaded;
  }

  // ---------------------------------------------------------------------------------------
  // Helpers

  private boolean passesAllow(SchedDomain sd) {
    for (BalancePass pass : passes) {
      if (!pass.balanceDomain(sd, passState)) {
        return false;
      }
    }
    return true;
  }

  /** The task running on {@code cpu} ({@code rq->curr} if fair), or -1; scans from the head. */
  private int runningTask(int cpu) {
    for (int k = host.cfsTaskCount(cpu) - 1; k >= 0; k--) {
      int task = host.cfsTaskFromTail(cpu, k);
      if (host.task(task).isRunning()) {
        return task;
      }
    }
    return -1;
  }

  /** The lowest domain of {@code cpu} whose span holds {@code other}, or null. */
  private SchedDomain lowestDomainSpanning(int cpu, int other) {
    for (SchedDomain sd : chains[cpu]) {
      if (sd.span().test(other)) {
        return sd;
      }
    }
    return null;
  }

  /** Equivalent of {@code cpumask_first_and_and(a, b, c)}. */
  private static int firstAndAnd(CpuMask a, CpuMask b, CpuMask c) {
    for (int cpu = a.firstAnd(b); cpu != NO_CPU; cpu = a.nextAnd(cpu, b)) {
      if (c.test(cpu)) {
        return cpu;
      }
    }
    return NO_CPU;
  }

  /** Models {@code check_cpu_capacity(rq, sd)}: capacity reduced by more than imbalance_pct. */
  public boolean checkCpuCapacity(int cpu, SchedDomain sd) {
    return state.capacityOf(cpu) * sd.imbalancePct() < (long) topology.capacity(cpu) * 100;
  }

  /** Models {@code sched_reduced_capacity(rq, sd)}: one CFS task on a reduced-capacity CPU. */
  private boolean schedReducedCapacity(int cpu, SchedDomain sd) {
    return state.cfsNrRunnable(cpu) == 1 && checkCpuCapacity(cpu, sd);
  }

  /** Models {@code cpu_util_cfs_boost(cpu)}: max of util and runnable, capped at capacity. */
  private long cpuUtilCfsBoost(int cpu) {
    return Math.min(
        Math.max(state.utilAvg(cpu), state.runnableAvg(cpu)), topology.capacity(cpu));
  }

  /** Models {@code task_fits_cpu(p, cpu)} without uclamp: {@code fits_capacity(util_est, cap)}. */
  private boolean taskFitsCpu(int task, int cpu) {
    return fitsCapacity(host.taskUtilEst(task), state.capacityOf(cpu));
  }

  /** Equivalent of {@code capacity_greater(cap1, cap2)}: more than ~5% bigger. */
  static boolean capacityGreater(long a, long b) {
    return a * 1024 > b * 1078;
  }

  /** Equivalent of {@code fits_capacity(cap, max)}: at least ~20% headroom. */
  static boolean fitsCapacity(long util, long capacity) {
    return util * 1280 < capacity * 1024;
  }

  /** Equivalent of {@code shr_bound(val, shift)}: a shift that never reaches the type width. */
  static long shrBound(long value, int shift) {
    return value >> Math.min(shift, Long.SIZE - 1);
  }

  /** {@code sysctl_sched_migration_cost} as the kernel's unsigned floor uses it. */
  private long migrationCostFloorNs() {
    long migrationCost = options.migrationCostNs();
    return migrationCost == -1 ? 0xFFFF_FFFFL : migrationCost;
  }

  private int index(SchedDomain sd) {
    return sd.cpu() * levels + sd.level();
  }

  private int index(int cpu, int level) {
    if (level < 0 || level >= levels) {
      throw new IndexOutOfBoundsException("level " + level + " outside 0-" + (levels - 1));
    }
    return cpu * levels + level;
  }
}
