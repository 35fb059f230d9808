package dev.schedlab.core.engine;

import dev.schedlab.core.stats.Log2Histogram;
import org.HdrHistogram.Histogram;

/**
 * The engine's own counters for one run (the balancer keeps its schedstat counters in {@code
 * LbStats}): softirqs, NOHZ kicks and ILB choices, SMT contention, ILB duration, wakeup latency,
 * wasted-core time and {@code ttwu_*} domain counters. Mutable, single-threaded, allocation-free on
 * every recording path.
 */
final class EngineStatistics {

  /** {@code NOHZ_*_KICK} bits. */
  static final int NOHZ_BALANCE_KICK = 1;

  static final int NOHZ_STATS_KICK = 2;
  static final int NOHZ_NEWILB_KICK = 4;
  static final int NOHZ_NEXT_KICK = 8;
  static final int NOHZ_KICK_MASK = NOHZ_BALANCE_KICK | NOHZ_STATS_KICK | NOHZ_NEXT_KICK;

  private final int nrCpuIds;
  private final int nrLevels;

  /** SCHED_SOFTIRQ runs raised by the tick; those raised by a kick are the {@link #ilbRuns}. */
  long softirqsFromTick;

  /** {@code kick_ilb()} calls. */
  long kickIlbCalls;

  /** ... of which asked for {@code NOHZ_BALANCE_KICK}. */
  long kickBalance;

  /** ... asked for STATS without BALANCE. */
  long kickStatsOnly;

  /** ... asked only for NEXT. */
  long kickNextOnly;

  /** ... found no idle load balancer. */
  long kickNoIlb;

  /** ... found the ILB already holding the flags or its IPI in flight. */
  long kickAlreadyPending;

  /** ILB choices ({@code find_new_ilb()} found a CPU). */
  long ilbChoices;

  /** ... of a CPU with a busy SMT sibling ({@code !is_core_idle()}) at that moment. */
  long ilbChoicesWithBusySibling;

  /** IPIs sent to an idle load balancer. */
  long kickIpis;

  /** IPIs that found the ILB no longer idle (flags dropped, as {@code nohz_csd_func()} does). */
  long kickIpisDropped;

  /** CPUs {@code find_new_ilb()} examined, summed. */
  long ilbCpusExamined;

  /** ILB choices per CPU. */
  final long[] ilbChosen;

  /** {@code _nohz_idle_balance()} runs on behalf of a kick, each in a SCHED_SOFTIRQ. */
  long ilbRuns;

  /** CPUs visited by those runs. */
  long ilbCpusVisited;

  /** {@code sched_balance_domains()} calls made by those runs. */
  long ilbBalanceCalls;

  /** Local blocked-load updates from {@code nohz_run_idle_balance()} (NEWILB). */
  long newIlbLocalRuns;

  /** Duration of each kick-driven ILB run. */
  final Log2Histogram ilbDuration = new Log2Histogram();

  /** Duration of each newidle balance that did work. */
  final Log2Histogram newidleDuration = new Log2Histogram();

  /**
   * Runqueue-lock hold times the engine's parts take outside {@code sched_balance_rq()} (which
   * records its own in {@code LbStats}): {@code sched_balance_update_blocked_averages()} and the
   * ILB's {@code update_rq_clock()} of each CPU it balances.
   */
  final Log2Histogram rqLockHold = new Log2Histogram();

  /** Idle-to-task switches with a busy SMT sibling (running a task or balancing work). */
  long smtContention;

  /** ... of which no sibling ran a task: the sibling was busy balancing (ILB, newidle). */
  long smtContentionSiblingBalancing;

  /** Idle-to-task switches with every SMT sibling idle. */
  long smtNoContention;

  /** Wakeup-to-run latency of woken tasks, ns. */
  final Histogram wakeupLatency = new Histogram(3);

  /** Wakeups that placed the task on another CPU than its previous one. */
  long wakeupMigrations;

  /** Per CPU × level: {@code ttwu_wake_remote}, {@code ttwu_move_affine}. */
  final long[] ttwuWakeRemote;

  final long[] ttwuMoveAffine;

  // Wasted-core accounting: maintained incrementally, O(1) per change.
  private long wasteClock;

  /** CPUs with no task running and none queued. */
  private int idleCpus;

  /** Tasks waiting behind a running task: the sum of {@code nr_running - 1} over busy CPUs. */
  private long waitingBehindRunning;

  /** Integral over time of min(idle CPUs, tasks waiting behind a running task). */
  long wastedCoreNs;

  /** Time during which some CPU was idle while some task waited behind a running one. */
  long anyWastedNs;

  EngineStatistics(int nrCpuIds, int nrLevels, int activeCpus) {
    this.nrCpuIds = nrCpuIds;
    this.nrLevels = Math.max(1, nrLevels);
    this.ilbChosen = new long[nrCpuIds];
    this.ttwuWakeRemote = new long[nrCpuIds * this.nrLevels];
    this.ttwuMoveAffine = new long[nrCpuIds * this.nrLevels];
    this.idleCpus = activeCpus;
  }

  int nrLevels() {
    return nrLevels;
  }

  void ttwuWakeRemote(int cpu, int level) {
    ttwuWakeRemote[cpu * nrLevels + level]++;
  }

  void ttwuMoveAffine(int cpu, int level) {
    ttwuMoveAffine[cpu * nrLevels + level]++;
  }

  long ttwuWakeRemoteAt(int cpu, int level) {
    return ttwuWakeRemote[cpu * nrLevels + level];
  }

  long ttwuMoveAffineAt(int cpu, int level) {
    return ttwuMoveAffine[cpu * nrLevels + level];
  }

  /** Brings the wasted-core integrals up to {@code now}. */
  void advanceWaste(long now) {
    long dt = now - wasteClock;
    if (dt > 0) {
      if (idleCpus > 0 && waitingBehindRunning > 0) {
        wastedCoreNs += dt * Math.min(idleCpus, waitingBehindRunning);
        anyWastedNs += dt;
      }
      wasteClock = now;
    }
  }

  /** One runqueue changed from (idle, waiting) to (idle, waiting); O(1). */
  void runqueueChanged(long now, boolean wasIdle, int wasWaiting, boolean isIdle, int isWaiting) {
    if (wasIdle == isIdle && wasWaiting == isWaiting) {
      return;
    }
    advanceWaste(now);
    idleCpus += (isIdle ? 1 : 0) - (wasIdle ? 1 : 0);
    waitingBehindRunning += isWaiting - wasWaiting;
  }
}
