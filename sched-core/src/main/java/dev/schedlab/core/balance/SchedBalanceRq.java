package dev.schedlab.core.balance;

import static dev.schedlab.core.balance.LbEnv.LBF_ALL_PINNED;
import static dev.schedlab.core.balance.LbEnv.LBF_DST_PINNED;
import static dev.schedlab.core.balance.LbEnv.LBF_NEED_BREAK;
import static dev.schedlab.core.balance.LbEnv.LBF_SOME_PINNED;
import static dev.schedlab.cpumask.CpuMask.NO_CPU;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;

/**
 * One balancing attempt of one domain: {@code sched_balance_rq()} in {@code kernel/sched/fair.c}
 * and its gate {@code should_we_balance()}. It asks {@link FindSrcGroup} for the busiest group and
 * the imbalance, {@link FindSrcRq} for the busiest runqueue, {@link DetachTasks} to move tasks, and
 * {@link ActiveBalance} whether to push a running task; it keeps {@code nr_balance_failed}, {@code
 * balance_interval} and {@code sgc->imbalance} in {@link BalancerState} as the kernel's exit paths
 * do, and counts every {@code lb_*} entry and outcome.
 *
 * <p>Allocation-free: its {@code lb_env} (with {@code env->cpus}) and the {@code
 * should_we_balance()} mask are preallocated; one set suffices because {@code sched_balance_rq()}
 * never nests. Because a simulated pass is instantaneous, {@code SD_SERIALIZE} is never contended.
 */
final class SchedBalanceRq {

  /** Equivalent of {@code MAX_PINNED_INTERVAL}, ms. */
  static final int MAX_PINNED_INTERVAL_MS = 512;

  private static final int OUT = 0;
  private static final int OUT_BALANCED = 1;
  private static final int OUT_ALL_PINNED = 2;
  private static final int OUT_ONE_PINNED = 3;

  private final BalanceHost host;
  private final CpuStateView cpuState;
  private final Topology topology;
  private final BalancerOptions options;
  private final LbStats stats;
  private final BalancerState balancerState;
  private final FindSrcGroup findSrcGroup;
  private final FindSrcRq findSrcRq;
  private final DetachTasks detachTasks;
  private final ActiveBalance activeBalance;
  private final LbEnv env;

  /** {@code cpu_active_mask}, fixed for the run. */
  private final CpuMask activeMask;

  /** {@code should_we_balance_tmpmask}. */
  private final MutableCpuMask swbCpus;

  /** Replays of balanced SMT attempts, or null (see {@link LoadBalancer#useGroupStatsCache}). */
  BalancedPassMemo memo;

  /**
   * Every replay is checked against a full attempt, and every idle-core {@code should_we_balance()}
   * answer against the kernel's walk (the engine's full invariant checks).
   */
  boolean verify;

  /** {@code sched_balance_running}: an {@code SD_SERIALIZE} domain is being balanced. */
  private boolean balanceRunning;

  /**
   * {@code *continue_balancing} of the current domain walk: the walk sets it, an attempt that
   * {@code should_we_balance()} refuses clears it.
   */
  boolean continueBalancing;

  SchedBalanceRq(
      BalanceHost host,
      BalancerOptions options,
      LbStats stats,
      BalancerState balancerState,
      FindSrcGroup findSrcGroup,
      FindSrcRq findSrcRq,
      DetachTasks detachTasks,
      ActiveBalance activeBalance) {
    this.host = host;
    this.cpuState = host.state();
    this.topology = host.topology();
    this.activeMask = host.activeMask();
    this.options = options;
    this.stats = stats;
    this.balancerState = balancerState;
    this.findSrcGroup = findSrcGroup;
    this.findSrcRq = findSrcRq;
    this.detachTasks = detachTasks;
    this.activeBalance = activeBalance;
    int nrCpuIds = topology.nrCpuIds();
    this.env = new LbEnv(nrCpuIds);
    this.swbCpus = CpuMasks.mutable(nrCpuIds);
  }

  /**
   * A walk over one CPU's domains begins, after any plugin moves: see {@link
   * FindSrcGroup#beginWalk}.
   */
  void beginWalk() {
    findSrcGroup.beginWalk();
  }

  /** The walk begun by {@link #beginWalk} ended. */
  void endWalk() {
    findSrcGroup.endWalk();
  }

  /**
   * Models {@code sched_balance_rq(this_cpu, this_rq, sd, idle, &continue_balancing)} in {@code
   * kernel/sched/fair.c}: one balancing attempt of one domain, with every {@code lb_*} counter
   * moving where kernel-facts §7.2 says. Returns the number of tasks moved.
   */
  int schedBalanceRq(int thisCpu, SchedDomain sd, IdleType idle, BalanceCost cost) {
    SchedDomainState sdState = balancerState.domain(sd);
    int level = sd.level();
    BalancedPassMemo m = memo;
    boolean memoApplies = m != null && BalancedPassMemo.applies(sd, idle);
    int memoEntry = -1;
    if (memoApplies) {
      memoEntry = m.find(thisCpu, sd, idle, cpuState.smtActive(), findSrcGroup.keepsTotals());
      if (memoEntry >= 0 && !verify) {
        replayBalanced(thisCpu, sd, idle, cost, sdState, memoEntry);
        return 0;
      }
    }
    long scannedBefore = cost.cpusScanned;
    LbEnv e = prepareEnv(thisCpu, sd, idle);
    MutableCpuMask cpus = e.cpus;
    cost.domainsBalanced++;
    stats.incrementLb(thisCpu, level, idle, LbField.COUNT);

    boolean needUnlock = false;
    boolean activeBalanceRequested = false;
    int moved = 0;
    int exit;
    int src = NO_CPU;
    BalanceOutcome outcome;
    redo:
    while (true) {
      if (!shouldWeBalance(e)) {
        continueBalancing = false;
        outcome = BalanceOutcome.NOT_THIS_CPU;
        exit = OUT_BALANCED;
        break;
      }
      if (!needUnlock && sd.hasFlag(SdFlags.SD_SERIALIZE)) {
        if (balanceRunning) {
          outcome = BalanceOutcome.NOT_THIS_CPU;
          exit = OUT_BALANCED;
          break;
        }
        balanceRunning = true;
        needUnlock = true;
      }
      SchedGroup group = findSrcGroup.findSrcGroup(e, cost);
      if (group == null) {
        stats.incrementLb(thisCpu, level, idle, LbField.NOBUSYG);
        outcome = BalanceOutcome.NO_BUSIEST_GROUP;
        exit = OUT_BALANCED;
        break;
      }
      int busiest = findSrcRq.findSrcRq(e, group);
      if (busiest == NO_CPU) {
        stats.incrementLb(thisCpu, level, idle, LbField.NOBUSYQ);
        outcome = BalanceOutcome.NO_BUSIEST_QUEUE;
        exit = OUT_BALANCED;
        break;
      }
      stats.addLb(thisCpu, level, idle, e.migrationType.imbalanceField, e.imbalance);
      e.srcCpu = busiest;
      src = busiest;
      moved = 0;
      e.flags |= LBF_ALL_PINNED;
      int busiestNrRunning = cpuState.nrRunning(busiest);
      if (busiestNrRunning > 1) {
        e.loopMax = Math.min(options.nrMigrate(), busiestNrRunning);
        while (true) {
          moved += detachTasks.detachTasks(e, cost);
          if ((e.flags & LBF_NEED_BREAK) != 0) {
            e.flags &= ~LBF_NEED_BREAK;
            continue;
          }
          if ((e.flags & LBF_DST_PINNED) != 0 && e.imbalance > 0) {
            // Same source, another destination in our group that the pinned tasks accept.
            cpus.clear(e.dstCpu);
            e.cpusWhole = false;
            e.dstCpu = e.newDstCpu;
            e.flags &= ~LBF_DST_PINNED;
            e.loop = 0;
            e.loopBreak = LbEnv.SCHED_NR_MIGRATE_BREAK;
            continue;
          }
          break;
        }
        if (sdState.parentLocalGroupSlot >= 0
            && (e.flags & LBF_SOME_PINNED) != 0
            && e.imbalance > 0) {
          balancerState.sgcImbalance[sdState.parentLocalGroupSlot] = true;
        }
        if ((e.flags & LBF_ALL_PINNED) != 0) {
          cpus.clear(busiest);
          e.cpusWhole = false;
          findSrcGroup.forgetChildTotals();
          if (!cpus.isSubsetOf(e.dstGrpmask)) {
            e.loop = 0;
            e.loopBreak = LbEnv.SCHED_NR_MIGRATE_BREAK;
            continue redo;
          }
          outcome = BalanceOutcome.ALL_PINNED;
          exit = OUT_ALL_PINNED;
          break;
        }
      }
      outcome = moved == 0 ? BalanceOutcome.FAILED : BalanceOutcome.PULLED;
      if (moved != 0) {
        findSrcGroup.forgetChildTotals();
      }
      if (moved == 0) {
        stats.incrementLb(thisCpu, level, idle, LbField.FAILED);
        if (idle != IdleType.NEWLY_IDLE && e.migrationType != MigrationType.MISFIT) {
          sdState.nrBalanceFailed++;
        }
        if (activeBalance.needActiveBalance(e)) {
          int current = runningTask(busiest);
          if (current < 0 || !host.task(current).allowedCpus().test(thisCpu)) {
            exit = OUT_ONE_PINNED;
            break;
          }
          e.flags &= ~LBF_ALL_PINNED;
          activeBalanceRequested = host.requestActiveBalance(busiest, thisCpu);
          if (activeBalanceRequested) {
            outcome = BalanceOutcome.ACTIVE_BALANCE;
          }
          findSrcGroup.forgetChildTotals();
        }
      } else {
        sdState.nrBalanceFailed = 0;
      }
      if (!activeBalanceRequested || activeBalance.needActiveBalance(e)) {
        sdState.balanceIntervalMs = sd.minIntervalMs();
      }
      exit = OUT;
      break;
    }

    if (exit == OUT_BALANCED) {
      // Clear the parent's affinity flag only if other tasks had a chance to move.
      if (sdState.parentLocalGroupSlot >= 0 && (e.flags & LBF_ALL_PINNED) == 0) {
        balancerState.sgcImbalance[sdState.parentLocalGroupSlot] = false;
      }
      exit = OUT_ALL_PINNED;
    }
    if (exit == OUT_ALL_PINNED) {
      stats.incrementLb(thisCpu, level, idle, LbField.BALANCED);
      sdState.nrBalanceFailed = 0;
      exit = OUT_ONE_PINNED;
    }
    if (exit == OUT_ONE_PINNED) {
      moved = 0;
      // Newidle ignores intervals and misfit needs to act soon: neither backs off.
      if (e.idle != IdleType.NEWLY_IDLE && e.migrationType != MigrationType.MISFIT) {
        int interval = sdState.balanceIntervalMs;
        if (((e.flags & LBF_ALL_PINNED) != 0 && interval < MAX_PINNED_INTERVAL_MS)
            || interval < sd.maxIntervalMs()) {
          sdState.balanceIntervalMs = interval * 2;
        }
      }
    }
    if (needUnlock) {
      balanceRunning = false;
    }
    if (memoApplies) {
      rememberAttempt(thisCpu, sd, idle, e, outcome, cost.cpusScanned - scannedBefore, memoEntry);
    }
    host.balanceAttempt(thisCpu, sd, idle, outcome, moved, src);
    return moved;
  }

  /**
   * Records an attempt that found no busiest group on the whole span for {@link BalancedPassMemo},
   * or forgets the CPU's entry; when verifying, first checks that an attempt the memo would have
   * replayed ({@code memoEntry >= 0}) came out as the replay says.
   */
  private void rememberAttempt(
      int thisCpu,
      SchedDomain sd,
      IdleType idle,
      LbEnv e,
      BalanceOutcome outcome,
      long scanned,
      int memoEntry) {
    boolean balanced =
        outcome == BalanceOutcome.NO_BUSIEST_GROUP
            && e.cpusWhole
            && (e.flags & LBF_ALL_PINNED) == 0;
    boolean misfit = e.migrationType == MigrationType.MISFIT;
    if (memoEntry >= 0) {
      memo.checked++;
    }
    if (memoEntry >= 0
        && !(balanced && memo.sameAs(memoEntry, misfit, scanned, sd, thisCpu, findSrcGroup))) {
      throw new IllegalStateException(
          "balanced-attempt memo is stale for CPU "
              + thisCpu
              + "'s level "
              + sd.level()
              + " ("
              + outcome
              + "): something the attempt reads changed without a GroupStamps stamp");
    }
    if (balanced) {
      memo.record(thisCpu, sd, idle, cpuState.smtActive(), misfit, scanned, findSrcGroup);
    } else {
      memo.forget(thisCpu, idle);
    }
  }

  /**
   * An attempt {@link BalancedPassMemo} knows finds no busiest group: every counter, flag, interval
   * and cost moves as in the {@code out_balanced} exit of the attempt it replays.
   */
  private void replayBalanced(
      int thisCpu,
      SchedDomain sd,
      IdleType idle,
      BalanceCost cost,
      SchedDomainState sdState,
      int entry) {
    int level = sd.level();
    cost.domainsBalanced++;
    cost.cpusScanned += memo.scanned(entry);
    memo.restoreTotals(entry, sd, thisCpu, findSrcGroup);
    stats.incrementLb(thisCpu, level, idle, LbField.COUNT);
    stats.incrementLb(thisCpu, level, idle, LbField.NOBUSYG);
    stats.incrementLb(thisCpu, level, idle, LbField.BALANCED);
    // No task was pinned: the parent's affinity flag is cleared.
    balancerState.sgcImbalance[sdState.parentLocalGroupSlot] = false;
    sdState.nrBalanceFailed = 0;
    if (!memo.misfit(entry)) {
      int interval = sdState.balanceIntervalMs;
      if (interval < sd.maxIntervalMs()) {
        sdState.balanceIntervalMs = interval * 2;
      }
    }
    memo.replays++;
    host.balanceAttempt(thisCpu, sd, idle, BalanceOutcome.NO_BUSIEST_GROUP, 0, NO_CPU);
  }

  /**
   * The initializer of {@code sched_balance_rq()}: the env of {@code thisCpu} balancing {@code sd},
   * with {@code env->cpus} = the span's active CPUs. Returns the one reused env.
   */
  LbEnv prepareEnv(int thisCpu, SchedDomain sd, IdleType idle) {
    LbEnv e = env;
    e.reset(sd, thisCpu, sd.localGroup().balanceMask(), idle, 0);
    // cpumask_and(cpus, sched_domain_span(sd), cpu_active_mask), a word at a time.
    e.cpus.and(sd.span(), activeMask);
    e.cpusWhole = true;
    return e;
  }

  /**
   * Models {@code should_we_balance(env)} in {@code kernel/sched/fair.c}: in newidle every CPU with
   * nothing queued may balance; otherwise the domain is balanced by the first idle CPU of the local
   * group's balance mask on a fully idle core, else the first idle CPU whose siblings are busy,
   * else the group's balance CPU. Without {@link BalancerOptions#idleCoreBalanceCpu()} (Linux 6.1,
   * before b1bfeab9b002) the first idle CPU of the balance mask, whatever its siblings do.
   */
  boolean shouldWeBalance(LbEnv e) {
    MutableCpuMask cpus = e.cpus;
    if (!cpus.test(e.dstCpu)) {
      return false;
    }
    if (e.idle == IdleType.NEWLY_IDLE) {
      return cpuState.nrRunning(e.dstCpu) == 0 && !host.ttwuPending(e.dstCpu);
    }
    SchedDomain sd = e.sd;
    SchedGroup local = sd.localGroup();
    boolean coreRule =
        options.idleCoreBalanceCpu()
            && !sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY)
            && (!options.mainlineDeltas() || cpuState.smtActive());
    if (!coreRule) {
      // No sibling is ever dropped, so the balance mask itself is walked: no copy.
      CpuMask balanceMask = local.balanceMask();
      for (int cpu = balanceMask.firstAnd(cpus);
          cpu != NO_CPU;
          cpu = balanceMask.nextAnd(cpu, cpus)) {
        if (cpuState.isIdle(cpu)) {
          return cpu == e.dstCpu;
        }
      }
      return local.groupBalanceCpu() == e.dstCpu;
    }
    // The kernel walks the balance mask, pruning the siblings of each idle CPU on a core that is
    // not fully idle and remembering the first such CPU, and returns at the first CPU on a fully
    // idle core. A pruned CPU shares a core that is not fully idle and lies above the first idle
    // CPU, so pruning changes neither answer: the chosen CPU is the first of the mask (within
    // env->cpus) on a fully idle core, else its first idle CPU. Here that is two word scans over
    // the state view's idle masks instead of a walk with a sibling-mask read per prune (at 8192
    // CPUs a node-level group has 512 idle CPUs on busy cores to prune). The walk is kept in
    // shouldWeBalanceByWalk, and the engine's full invariant checks compare the two.
    swbCpus.and(local.balanceMask(), cpus);
    int chosen = swbCpus.firstAnd(cpuState.idleCoreMask());
    if (chosen == NO_CPU) {
      chosen = swbCpus.firstAnd(cpuState.idleMask());
    }
    if (chosen == NO_CPU) {
      chosen = local.groupBalanceCpu();
    }
    boolean answer = chosen == e.dstCpu;
    if (verify && answer != shouldWeBalanceByWalk(e)) {
      throw new IllegalStateException(
          "should_we_balance() by idle masks answered "
              + answer
              + " for CPU "
              + e.dstCpu
              + " in "
              + sd.name()
              + ", the walk the opposite");
    }
    return answer;
  }

  /**
   * The idle-core part of {@code should_we_balance()} as the kernel walks it ({@link
   * #shouldWeBalance} computes the same answer from the idle masks): only for a domain where the
   * idle-core rule applies, not in newidle.
   */
  boolean shouldWeBalanceByWalk(LbEnv e) {
    MutableCpuMask cpus = e.cpus;
    SchedGroup local = e.sd.localGroup();
    swbCpus.copyFrom(local.balanceMask());
    int idleSmt = NO_CPU;
    // The cursor reads the live mask, so siblings dropped below are not visited.
    for (int cpu = swbCpus.firstAnd(cpus); cpu != NO_CPU; cpu = swbCpus.nextAnd(cpu, cpus)) {
      if (!cpuState.isIdle(cpu)) {
        continue;
      }
      if (!cpuState.isCoreIdle(cpu)) {
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
}
