package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;

/**
 * The live {@link CpuStateView} over the engine's runqueues. {@link #isIdle} is the kernel's {@code
 * idle_cpu()}: the idle task runs and nothing is queued; a CPU in newidle balancing is not idle
 * (its previous task is still current), a CPU balancing in softirq from the idle loop is.
 *
 * <p>{@link #idleMask()} and {@link #idleCoreMask()} are kept in step with that predicate by {@link
 * #refreshIdle}, which {@link CpuRunqueue} calls after every change of the three fields it reads
 * ({@code curr}, {@code nr}, {@code phase}; {@code isOnline} never changes during a run): O(1) for
 * the CPU's bit and O(SMT width) for its core's bits. The invariant checker compares both masks
 * with the predicates at every ILB selection and every sweep. {@link #isIdle} itself reads the mask
 * ({@link #idleCpuNow} is the predicate), so a walk over many CPUs reads no runqueue to test one.
 */
final class EngineState implements CpuStateView {

  private final EngineContext ctx;
  private final CpuRunqueue[] rqs;

  /** The runqueues' balancing rows, read by the per-CPU statistics below (in step with rqs). */
  private final long[] lbRows;

  private final Topology topology;
  private final int[][] siblings;

  /** {@code arch_scale_cpu_capacity()} per CPU, read on every wakeup scan. */
  private final int[] capacity;

  private final boolean smt;
  private final CpuMask nohzView;
  private final boolean[] isOnline;
  private final int activeCount;

  /** {@code idle_cpu()} of every CPU, maintained by {@link #refreshIdle}. */
  private final MutableCpuMask idleCpus;

  /** Idle CPUs whose SMT siblings are all idle, maintained by {@link #refreshIdle}. */
  private final MutableCpuMask idleCoreCpus;

  private final CpuMask idleView;
  private final CpuMask idleCoreView;

  /**
   * CPUs the wakeup being placed sees as idle although another CPU's wakeup queued a task on them
   * within the race window ({@link EngineOptions#wakeupRaceWindowNs()}); empty between wakeups.
   */
  private final MutableCpuMask unseenClaims;

  private boolean hidingClaims;

  /**
   * Bumped whenever {@link #idleMask()} (hence {@link #idleCoreMask()}) or {@code
   * nohz.idle_cpus_mask} changes: equal values mean the idle state an {@code IlbSelector} reads is
   * the same.
   */
  private long idleEpoch;

  EngineState(EngineContext ctx) {
    this.ctx = ctx;
    this.rqs = ctx.rqs;
    this.lbRows = ctx.lbRows;
    this.topology = ctx.topology;
    this.smt = topology.isSmt();
    this.nohzView = ctx.nohzIdleMask.asUnmodifiable();
    CpuMask online = topology.onlineMask();
    this.activeCount = online.weight();
    this.isOnline = new boolean[topology.nrCpuIds()];
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      isOnline[cpu] = true;
    }
    this.siblings = new int[topology.nrCpuIds()][];
    this.capacity = new int[topology.nrCpuIds()];
    for (int cpu = 0; cpu < capacity.length; cpu++) {
      capacity[cpu] = topology.isPossible(cpu) ? topology.capacity(cpu) : 0;
    }
    for (int cpu = 0; cpu < siblings.length; cpu++) {
      if (!topology.isPossible(cpu)) {
        siblings[cpu] = new int[0];
        continue;
      }
      // cpu_smt_mask() holds online CPUs only (hotplug removes a CPU from its siblings' masks),
      // so an offline thread never keeps its core from counting as idle.
      CpuMask smtMask = topology.smtSiblings(cpu);
      int[] others = new int[smtMask.weightAnd(online) - (isOnline[cpu] ? 1 : 0)];
      int k = 0;
      for (int s = smtMask.firstAnd(online); s != CpuMask.NO_CPU; s = smtMask.nextAnd(s, online)) {
        if (s != cpu) {
          others[k++] = s;
        }
      }
      siblings[cpu] = others;
    }
    int nrCpuIds = topology.nrCpuIds();
    this.idleCpus = CpuMasks.mutable(nrCpuIds);
    this.idleCoreCpus = CpuMasks.mutable(nrCpuIds);
    this.idleView = idleCpus.asUnmodifiable();
    this.idleCoreView = idleCoreCpus.asUnmodifiable();
    this.unseenClaims = CpuMasks.mutable(nrCpuIds);
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      rqs[cpu].idleTracker = this;
      refreshIdle(cpu);
    }
  }

  /**
   * Brings {@code cpu}'s bit of {@link #idleMask()} and its core's bits of {@link #idleCoreMask()}
   * up to date with {@link #isIdle}; called by {@link CpuRunqueue} after each change that can flip
   * it. O(1) when the answer did not change, O(SMT width) otherwise.
   */
  void refreshIdle(int cpu) {
    boolean idle = idleCpuNow(cpu);
    if (idle == idleCpus.test(cpu)) {
      return;
    }
    idleEpoch++;
    rqs[cpu].idleChanged();
    int[] others = siblings[cpu];
    if (idle) {
      idleCpus.set(cpu);
      for (int sibling : others) {
        if (!idleCpus.test(sibling)) {
          return;
        }
      }
      idleCoreCpus.set(cpu);
      for (int sibling : others) {
        idleCoreCpus.set(sibling);
      }
    } else {
      idleCpus.clear(cpu);
      if (idleCoreCpus.test(cpu)) {
        idleCoreCpus.clear(cpu);
        for (int sibling : others) {
          idleCoreCpus.clear(sibling);
        }
      }
    }
  }

  /** See {@link #idleEpoch}. */
  long idleEpoch() {
    return idleEpoch;
  }

  /** {@code nohz.idle_cpus_mask} changed. */
  void nohzIdleMaskChanged() {
    idleEpoch++;
  }

  /**
   * Each CPU's other online SMT siblings (empty for an impossible CPU); shared, not to be modified.
   */
  int[][] siblingsOf() {
    return siblings;
  }

  @Override
  public long nowNs() {
    return ctx.loop.now();
  }

  /**
   * Until {@link #showClaims()}, {@code cpu} looks idle (and its core, if its siblings are idle) to
   * every predicate and mask of this view: a wakeup queued a task on it that the wakeup now being
   * placed has not seen yet.
   */
  void hideClaim(int cpu) {
    hidingClaims = true;
    unseenClaims.set(cpu);
    refreshIdle(cpu);
  }

  /** Ends {@link #hideClaim}: every hidden CPU shows its real state again. */
  void showClaims() {
    if (!hidingClaims) {
      return;
    }
    hidingClaims = false;
    for (int cpu = unseenClaims.first(); cpu != CpuMask.NO_CPU; cpu = unseenClaims.next(cpu)) {
      refreshIdle(cpu);
    }
    unseenClaims.clearAll();
  }

  /**
   * {@code idle_cpu()} read from {@link #idleMask()}, which {@link #refreshIdle} keeps equal to
   * {@link #idleCpuNow}: one bit of a mask that stays in cache, where the predicate reads the
   * runqueue (a cache miss per CPU on a wide machine's idle-balance pass).
   */
  @Override
  public boolean isIdle(int cpu) {
    return idleCpus.test(cpu);
  }

  /**
   * The predicate {@link #idleMask()} indexes, from the runqueue's fields: the idle task runs,
   * nothing is queued, no newidle balancing is in progress and the CPU is online, or the CPU is
   * hidden by {@link #hideClaim}.
   */
  boolean idleCpuNow(int cpu) {
    if (hidingClaims && unseenClaims.test(cpu)) {
      return true;
    }
    CpuRunqueue rq = rqs[cpu];
    return rq.curr == null && rq.nr == 0 && rq.phase != CpuPhase.NEWIDLE && isOnline[cpu];
  }

  @Override
  public boolean isCoreIdle(int cpu) {
    for (int sibling : siblings[cpu]) {
      if (!isIdle(sibling)) {
        return false;
      }
    }
    return true;
  }

  /** {@link #isCoreIdle} from {@link #idleCpuNow}, for the invariant checker. */
  boolean coreIdleNow(int cpu) {
    for (int sibling : siblings[cpu]) {
      if (!idleCpuNow(sibling)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public CpuMask idleMask() {
    return idleView;
  }

  @Override
  public CpuMask idleCoreMask() {
    return idleCoreView;
  }

  @Override
  public boolean smtActive() {
    return smt;
  }

  @Override
  public int nrRunning(int cpu) {
    return (int) lbRows[CpuRunqueue.LB_ROW * cpu + CpuRunqueue.LB_NR];
  }

  @Override
  public int cfsNrRunnable(int cpu) {
    return (int) lbRows[CpuRunqueue.LB_ROW * cpu + CpuRunqueue.LB_NR];
  }

  @Override
  public boolean isSchedIdleRq(int cpu) {
    return rqs[cpu].isSchedIdleRq();
  }

  @Override
  public long runnableAvg(int cpu) {
    return lbRows[CpuRunqueue.LB_ROW * cpu + CpuRunqueue.LB_RUNNABLE];
  }

  /** {@code cpu_util_cfs()}: max of {@code util_avg} and {@code util_est}, capped at capacity. */
  @Override
  public long utilAvg(int cpu) {
    return Math.min(lbRows[CpuRunqueue.LB_ROW * cpu + CpuRunqueue.LB_UTIL], capacity[cpu]);
  }

  @Override
  public long loadAvg(int cpu) {
    return lbRows[CpuRunqueue.LB_ROW * cpu + CpuRunqueue.LB_LOAD];
  }

  /** {@code capacity_of()}: no RT, DL or IRQ pressure is modelled, so the original capacity. */
  @Override
  public long capacityOf(int cpu) {
    return capacity[cpu];
  }

  @Override
  public boolean isActive(int cpu) {
    return isOnline[cpu];
  }

  @Override
  public boolean isTickStopped(int cpu) {
    return rqs[cpu].tickStopped;
  }

  @Override
  public CpuMask nohzIdleMask() {
    return nohzView;
  }

  @Override
  public long totalNrRunning() {
    return ctx.totalNrRunning;
  }

  @Override
  public int activeCpuCount() {
    return activeCount;
  }
}
