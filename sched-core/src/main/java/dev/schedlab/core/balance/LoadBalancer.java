package dev.schedlab.core.balance;

import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The fair-class load balancer of one simulation: periodic balancing ({@code
 * sched_balance_domains()}), newidle balancing ({@code sched_balance_newidle()}) and active
 * balancing ({@code active_load_balance_cpu_stop()}), as in {@code kernel/sched/fair.c} of Linux
 * 7.1.5, with the 2026-08 mainline changes when {@link BalancerOptions#mainlineDeltas()} is set.
 *
 * <p>This class is the engine's entry point: it wires the pieces, which follow the kernel's own
 * seams, and offers what the engine calls. {@link SchedBalanceDomains} walks a CPU's domains,
 * {@link SchedBalanceNewidle} balances a CPU going idle, both through {@link SchedBalanceRq} (one
 * domain's attempt and {@code should_we_balance()}), which uses {@link FindSrcGroup} (the busiest
 * group and the imbalance), {@link FindSrcRq} (the busiest runqueue), {@link DetachTasks} ({@code
 * detach_tasks()}, {@code can_migrate_task()}, {@code task_hot()}) and {@link ActiveBalance}.
 * {@link BalancerState} holds the run-time state: per CPU × domain level {@code balance_interval},
 * {@code nr_balance_failed}, {@code last_balance}, {@code max_newidle_lb_cost} and the newidle
 * statistics; per CPU {@code rq->next_balance} and {@code rq->max_idle_balance_cost}; the root
 * domain's {@code overloaded} flag; {@code sgc->imbalance} per group-capacity slot. {@link
 * BalancePasses} runs the plugin hooks. Everything else the balancer reads and changes through the
 * {@link BalanceHost}.
 *
 * <p>Not modelled, because the simulator does not have the state they need: energy-aware scheduling
 * (no perf domains, so {@code rd->overutilized} never gates), {@code SD_ASYM_PACKING} (no {@code
 * arch_asym_cpu_priority()}), NUMA balancing ({@code fbq_type} is always {@code all}, {@code
 * migrate_degrades_locality()} is 0), cgroup throttling, EEVDF delayed dequeue and lag eligibility
 * in {@code can_migrate_task()}, per-CPU kthreads, core scheduling, the {@code CACHE_HOT_BUDDY}
 * buddy test, and 7.2's cache-aware scheduling ({@code group_llc_balance}, {@code
 * migrate_llc_task}, {@code LBF_LLC_PINNED}). {@code update_group_capacity()} is simplified to
 * fresh sums of {@code capacity_of()} (see {@link SgLbStats}). Because a simulated pass is
 * instantaneous, {@code SD_SERIALIZE} is never contended and nothing can arrive on the runqueue
 * while newidle balancing runs.
 *
 * <p>Allocation-free after construction: group statistics, the {@code lb_env}s, {@code env->cpus},
 * the {@code should_we_balance()} mask and the pass state are preallocated once and reused. Not
 * thread-safe: one balancer per simulation.
 */
public final class LoadBalancer implements BalanceActions {

  private final LbStats stats;
  private final CpuStateView cpuState;
  private final Topology topology;
  private final BalancerState balancerState;
  private final BalancePasses passes;
  private final ActiveBalance activeBalance;
  private final SchedBalanceDomains schedBalanceDomains;
  private final SchedBalanceNewidle schedBalanceNewidle;
  private final FindSrcGroup findSrcGroup;
  private final SchedBalanceRq schedBalanceRq;
  private final int capacitySlots;

  /**
   * A balancer over {@code host}'s machine and domains, which must not change for the balancer's
   * lifetime. Reads the host's clock to initialise {@code last_balance}, {@code next_balance} and
   * the newidle stamps, as {@code sd_init()} and {@code sched_init()} do.
   *
   * @param passes plugin hooks, called in list order
   * @param stats counters at least as wide as the machine and its deepest domain chain (see {@link
   *     #newStats(SchedDomains)})
   * @throws IllegalArgumentException if {@code stats} is too small or {@code host.hz() <= 0}
   */
  public LoadBalancer(
      BalanceHost host,
      List<BalancePass> passes,
      BalancerOptions options,
      BalanceCostModel costModel,
      LbStats stats) {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(costModel, "costModel");
    this.stats = Objects.requireNonNull(stats, "stats");
    this.cpuState = host.state();
    this.topology = host.topology();
    SchedDomains domains = host.domains();
    int nrCpuIds = topology.nrCpuIds();
    if (stats.nrCpuIds() < nrCpuIds || stats.nrLevels() < domains.maxLevels()) {
      throw new IllegalArgumentException(
          "LbStats of "
              + stats.nrCpuIds()
              + " CPUs x "
              + stats.nrLevels()
              + " levels is too small"
              + " for "
              + nrCpuIds
              + " CPUs x "
              + domains.maxLevels()
              + " levels");
    }
    this.balancerState = new BalancerState(host, options);
    DetachTasks detachTasks = new DetachTasks(host, options, costModel, stats, balancerState);
    this.activeBalance = new ActiveBalance(host, stats, balancerState, detachTasks);
    this.passes = new BalancePasses(passes, nrCpuIds, balancerState, activeBalance);
    this.findSrcGroup = new FindSrcGroup(host, options, balancerState, new SdLbStats());
    this.capacitySlots = domains.capacitySlotCount();
    this.schedBalanceRq =
        new SchedBalanceRq(
            host,
            options,
            stats,
            balancerState,
            findSrcGroup,
            new FindSrcRq(host, options, this.passes),
            detachTasks,
            activeBalance);
    this.schedBalanceNewidle =
        new SchedBalanceNewidle(
            host, options, costModel, balancerState, this.passes, schedBalanceRq);
    this.schedBalanceDomains =
        new SchedBalanceDomains(
            host, balancerState, this.passes, schedBalanceRq, schedBalanceNewidle);
  }

  /**
   * Keeps each group's {@code update_sg_lb_stats()} sums across searches and reuses them while
   * {@code stamps} shows no change in the group, and replays an SMT domain's periodic attempt that
   * found no busiest group while nothing it read changed ({@link BalancedPassMemo}): the decisions,
   * counters and reported costs are those of full scans (see {@link GroupStamps}). The host must
   * call {@link GroupStamps#cpuChanged} at every change of what the scan reads, or searches go
   * stale; with {@code verify} every reuse is checked against a fresh scan, every replay against a
   * full attempt and every idle-core {@code should_we_balance()} answer (computed from the idle
   * masks) against the kernel's walk, and a difference throws {@link IllegalStateException}.
   *
   * @param stamps built from the host's domains
   */
  public void useGroupStatsCache(GroupStamps stamps, boolean verify) {
    findSrcGroup.groupStatsCache =
        new GroupStatsCache(Objects.requireNonNull(stamps), capacitySlots);
    findSrcGroup.verifyGroupStatsCache = verify;
    schedBalanceRq.memo =
        new BalancedPassMemo(stamps, balancerState.sgcImbalance, topology.nrCpuIds());
    schedBalanceRq.verify = verify;
  }

  /** Group searches that reused kept statistics instead of scanning (0 without the cache). */
  public long groupStatsReused() {
    GroupStatsCache cache = findSrcGroup.groupStatsCache;
    return cache == null ? 0 : cache.hits;
  }

  /** SMT attempts replayed as balanced without a search (0 without the cache). */
  public long balancedAttemptsReplayed() {
    BalancedPassMemo memo = schedBalanceRq.memo;
    return memo == null ? 0 : memo.replays;
  }

  /** Counters sized for {@code domains}: every CPU id × the deepest domain chain. */
  public static LbStats newStats(SchedDomains domains) {
    return new LbStats(domains.topology().nrCpuIds(), Math.max(1, domains.maxLevels()));
  }

  /**
   * Models {@code sched_balance_domains(rq, idle)}: see {@link SchedBalanceDomains}. Plugin hooks:
   * {@link BalancePass#beforeDomainWalk} first, {@link BalancePass#balanceDomain} per domain.
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
    schedBalanceDomains.balanceDomains(cpu, idle, cost);
  }

  /**
   * Replaces the boot-time balance stamps by the phases of a machine that has been up for a while,
   * before anything runs: every domain's {@code last_balance} a uniform phase of its idle interval
   * back, {@code rq->next_balance} the earliest resulting deadline. The reasoning and the
   * assumption are on {@link BalancerState#spreadBalanceStamps}.
   *
   * @param random the stream to draw the phases from, CPUs ascending, domains bottom-up
   */
  public void spreadBalanceStamps(RandomGenerator random) {
    balancerState.spreadBalanceStamps(random);
  }

  /**
   * Reads, on each of {@code cpu}'s domains, fields at both ends of the domain and of its state (an
   * object of 70-90 bytes spans two cache lines) that {@code sched_balance_domains()} and a
   * replayed SMT attempt read, and returns a sum of no meaning. A caller about to balance many CPUs
   * in turn calls this for the next few first, so that their cache misses overlap instead of coming
   * one after another; it changes no state.
   */
  public long touchDomains(int cpu) {
    long sink = 0;
    for (SchedDomain sd : balancerState.chain(cpu)) {
      SchedDomainState state = balancerState.domain(sd);
      sink += state.lastBalance + state.nrBalanceFailed + sd.maxIntervalMs();
      sink += sd.parent() == null ? 1 : 0;
    }
    return sink;
  }

  /** {@code rq->next_balance} of {@code cpu}, jiffies: when its periodic balance is next due. */
  public long nextBalance(int cpu) {
    return balancerState.nextBalance[cpu];
  }

  /**
   * Models the root-domain part of {@code add_nr_running()} in {@code kernel/sched/sched.h}: when a
   * runqueue goes from fewer than two tasks to two or more, {@code rd->overloaded} is set, which
   * opens the newidle gate. The engine calls this on every enqueue that raises {@code nr_running}.
   */
  public void addNrRunning(int cpu, int previousNrRunning, int nrRunning) {
    balancerState.addNrRunning(previousNrRunning, nrRunning);
  }

  /**
   * Models {@code sched_balance_newidle(this_rq, rf)}, called by the engine when {@code cpu}'s fair
   * class finds nothing to run: see {@link SchedBalanceNewidle#newidleBalance}. The engine keeps
   * {@code idle_stamp} and decides on {@code nohz_newidle_balance()} from the result (0 = going
   * idle).
   *
   * @return the number of tasks pulled, 0 if none
   */
  public int newidleBalance(int cpu, BalanceCost cost) {
    return schedBalanceNewidle.newidleBalance(cpu, cost);
  }

  /**
   * Models {@code active_load_balance_cpu_stop()}, run by the engine as {@code busiestCpu}'s
   * stopper work after {@link BalanceHost#requestActiveBalance}: see {@link
   * ActiveBalance#activeLoadBalanceCpuStop}.
   *
   * <p>In the kernel the stopper is the current task of {@code busiestCpu} while this runs, so the
   * fair task that was running there has been preempted and is queued: that is how a lone CPU-bound
   * or misfit task gets pushed. The engine models this by putting {@code busiestCpu}'s current fair
   * task back on its runqueue (so {@link TaskView#isRunning()} is false and {@link
   * BalanceHost#migrateTask} accepts it) before calling; a task still running is skipped. {@code
   * state().nrRunning(busiestCpu)} counts fair tasks only (the kernel's {@code nr_running <= 1}
   * test counts the stopper). The engine clears {@code busiest->active_balance} itself.
   */
  public void activeLoadBalanceCpuStop(int busiestCpu, int targetCpu, BalanceCost cost) {
    activeBalance.activeLoadBalanceCpuStop(busiestCpu, targetCpu, cost);
  }

  /**
   * {@link BalanceActions#migrateOneTask}: a {@code detach_one_task()} with {@code LBF_ACTIVE_LB}
   * on the lowest domain of {@code dstCpu} spanning both CPUs (see {@link
   * ActiveBalance#migrateOneTask}). During a pass the work is charged to the pass's {@link
   * BalanceCost}.
   */
  @Override
  public boolean migrateOneTask(int srcCpu, int dstCpu) {
    return passes.migrateOneTask(srcCpu, dstCpu);
  }

  /**
   * {@link BalanceActions#resetBalanceInterval}: for every domain of {@code cpu}, {@code
   * balance_interval := min_interval} and {@code last_balance := jiffies}; {@code rq->next_balance}
   * is pulled in to the earliest resulting deadline.
   */
  @Override
  public void resetBalanceInterval(int cpu) {
    passes.resetBalanceInterval(cpu);
  }

  /** {@code rq->max_idle_balance_cost} of {@code cpu}, ns. */
  public long maxIdleBalanceCostNs(int cpu) {
    return balancerState.maxIdleBalanceCostNs[cpu];
  }

  /** Models {@code check_cpu_capacity(rq, sd)}: capacity reduced by more than imbalance_pct. */
  public boolean checkCpuCapacity(int cpu, SchedDomain sd) {
    return CapacityChecks.checkCpuCapacity(cpuState, topology, cpu, sd);
  }

  /** The counters this balancer writes. */
  public LbStats stats() {
    return stats;
  }
}
