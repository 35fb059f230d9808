package dev.schedlab.core.balance;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The balancer's pieces over a {@link FakeHost}, each built through its own constructor and wired
 * as {@link LoadBalancer} wires them ({@link BalancerPiecesTest} checks that both give the same
 * run), so that a test can drive one piece and look at the state or result of another.
 *
 * <p>What the removed test hooks of {@code LoadBalancer} told, this reads from production state:
 * the group types of the last search from the {@link SdLbStats} the {@link FindSrcGroup} fills, the
 * migration type and imbalance of the last attempt from the {@code lb_imbalance_*} counters it
 * added to (the kernel's own record of {@code calculate_imbalance()}'s result), and the per-domain
 * fields from {@link BalancerState}.
 */
final class BalancerPieces {

  final FakeHost host;
  final LbStats stats;
  final BalancerState state;
  final SdLbStats sds = new SdLbStats();
  final DetachTasks detachTasks;
  final ActiveBalance activeBalance;
  final BalancePasses passes;
  final FindSrcGroup findSrcGroup;
  final FindSrcRq findSrcRq;
  final SchedBalanceRq rq;
  final SchedBalanceNewidle newidle;
  final SchedBalanceDomains walk;

  private MigrationType lastMigrationType;
  private long lastImbalance;

  BalancerPieces(FakeHost host, BalancerOptions options, List<BalancePass> plugins) {
    BalanceCostModel costModel = BalanceCostModel.defaults();
    this.host = host;
    this.stats = LoadBalancer.newStats(host.domains);
    this.state = new BalancerState(host, options);
    this.detachTasks = new DetachTasks(host, options, costModel, stats, state);
    this.activeBalance = new ActiveBalance(host, stats, state, detachTasks);
    this.passes = new BalancePasses(plugins, host.topology.nrCpuIds(), state, activeBalance);
    this.findSrcGroup = new FindSrcGroup(host, options, state, sds);
    this.findSrcRq = new FindSrcRq(host, options, passes);
    this.rq =
        new SchedBalanceRq(
            host, options, stats, state, findSrcGroup, findSrcRq, detachTasks, activeBalance);
    this.newidle = new SchedBalanceNewidle(host, options, costModel, state, passes, rq);
    this.walk = new SchedBalanceDomains(host, state, passes, rq, newidle);
  }

  /**
   * One {@code sched_balance_rq()} attempt; afterwards {@link #lastMigrationType()} and {@link
   * #lastImbalance()} tell what it recorded in {@code lb_imbalance_*} (null and 0 if it found no
   * busiest runqueue).
   */
  int schedBalanceRq(int cpu, SchedDomain sd, IdleType idle, BalanceCost cost) {
    int level = sd.level();
    MigrationType[] types = MigrationType.values();
    long[] before = new long[types.length];
    for (MigrationType type : types) {
      before[type.ordinal()] = stats.lb(cpu, level, idle, type.imbalanceField);
    }
    // A refused attempt searches nothing: the search result must not be a stale one.
    sds.init();
    int moved = rq.schedBalanceRq(cpu, sd, idle, cost);
    lastMigrationType = null;
    lastImbalance = 0;
    for (MigrationType type : types) {
      long added = stats.lb(cpu, level, idle, type.imbalanceField) - before[type.ordinal()];
      if (added != 0) {
        if (lastMigrationType != null) {
          throw new AssertionError(
              "one attempt recorded both " + lastMigrationType + " and " + type);
        }
        lastMigrationType = type;
        lastImbalance = added;
      }
    }
    return moved;
  }

  /** The busiest group's type in the last search, or null if it found no busiest group. */
  GroupType lastBusiestGroupType() {
    return sds.busiest == null ? null : sds.busiestStat.groupType;
  }

  /** The local group's type in the last search, or null if none ran. */
  GroupType lastLocalGroupType() {
    return sds.local == null ? null : sds.localStat.groupType;
  }

  MigrationType lastMigrationType() {
    return lastMigrationType;
  }

  long lastImbalance() {
    return lastImbalance;
  }

  /** {@code should_we_balance()} for {@code dstCpu} in {@code sd}, as an attempt would ask it. */
  boolean shouldWeBalance(int dstCpu, SchedDomain sd, IdleType idle) {
    return rq.shouldWeBalance(rq.prepareEnv(dstCpu, sd, idle));
  }

  /**
   * {@code should_we_balance()} for {@code dstCpu} in {@code sd} and, on the same {@code
   * env->cpus}, the idle-core walk as the kernel does it; {@code excluded} is dropped from {@code
   * env->cpus} first, as a redo after {@code LBF_DST_PINNED} or a busiest CPU's removal does.
   */
  boolean[] shouldWeBalanceBothForms(int dstCpu, SchedDomain sd, IdleType idle, CpuMask excluded) {
    LbEnv e = rq.prepareEnv(dstCpu, sd, idle);
    e.cpus.removeAll(excluded);
    return new boolean[] {rq.shouldWeBalance(e), rq.shouldWeBalanceByWalk(e)};
  }

  void balanceDomains(int cpu, IdleType idle, BalanceCost cost) {
    walk.balanceDomains(cpu, idle, cost);
  }

  int newidleBalance(int cpu, BalanceCost cost) {
    return newidle.newidleBalance(cpu, cost);
  }

  /**
   * Switches on the group statistics cache, every reuse checked against a fresh scan; the host
   * stamps its migrations from now on. Returns the cache.
   */
  GroupStatsCache useGroupStatsCache() {
    host.stamps = new GroupStamps(host.domains);
    findSrcGroup.groupStatsCache =
        new GroupStatsCache(host.stamps, host.domains.capacitySlotCount());
    findSrcGroup.verifyGroupStatsCache = true;
    return findSrcGroup.groupStatsCache;
  }

  /**
   * Switches on the cache as above and the balanced-attempt memo; with {@code verify} an attempt it
   * would replay runs in full and is checked against the replay instead. Returns the memo.
   */
  BalancedPassMemo useBalancedPassMemo(boolean verify) {
    useGroupStatsCache();
    rq.memo = new BalancedPassMemo(host.stamps, state.sgcImbalance, host.topology.nrCpuIds());
    rq.verify = verify;
    return rq.memo;
  }

  void addNrRunning(int previousNrRunning, int nrRunning) {
    state.addNrRunning(previousNrRunning, nrRunning);
  }

  void spreadBalanceStamps(RandomGenerator random) {
    state.spreadBalanceStamps(random);
  }

  long sdBalanceInterval(SchedDomain sd, boolean busy) {
    return state.sdBalanceInterval(sd, busy);
  }

  LbStats stats() {
    return stats;
  }

  /** The run-time fields of {@code cpu}'s domain at {@code level}. */
  SchedDomainState domain(int cpu, int level) {
    return state.domain(host.domain(cpu, level));
  }

  int nrBalanceFailed(int cpu, int level) {
    return domain(cpu, level).nrBalanceFailed;
  }

  long balanceIntervalMs(int cpu, int level) {
    return domain(cpu, level).balanceIntervalMs;
  }

  long lastBalance(int cpu, int level) {
    return domain(cpu, level).lastBalance;
  }

  long maxNewidleLbCostNs(int cpu, int level) {
    return domain(cpu, level).maxNewidleLbCostNs;
  }

  int newidleRatio(int cpu, int level) {
    return domain(cpu, level).newidleRatio;
  }

  long nextBalance(int cpu) {
    return state.nextBalance[cpu];
  }

  long maxIdleBalanceCostNs(int cpu) {
    return state.maxIdleBalanceCostNs[cpu];
  }
}
