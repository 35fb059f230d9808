package dev.schedlab.core.engine;

import dev.schedlab.core.stats.PlacementPath;
import dev.schedlab.cpumask.DistributeCursor;
import dev.schedlab.spi.WakeupContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SdFlags;
import java.util.List;

/**
 * CPU selection for waking and new tasks: {@code select_task_rq()} and {@code
 * select_task_rq_fair()} of kernel/sched/fair.c with {@code wake_wide()} and {@code wake_affine()}
 * (WA_IDLE, WA_WEIGHT, WA_BIAS); the searches they hand over to are {@link SelectIdleSibling} for
 * wakeups and {@link FindDstCpu}, the slow path, for forks and execs. The run's {@link
 * WakeupPolicy} chain has the last word ({@link WakeupPolicy#selectFinal}), then {@code
 * select_fallback_rq()} if the choice is not allowed. Counts placements by {@link PlacementPath}.
 *
 * <p>{@code WF_SYNC} (a task program's {@code TaskControl.wake(id, true)}, as pipes and sockets
 * wake) enters only {@code wake_affine()}: {@code wake_affine_idle()} returns the waker's CPU when
 * the waker is its only runnable task, {@code wake_affine_weight()} discounts the waker's load.
 * {@code select_idle_sibling()} then tests that target first, with {@code choose_idle_cpu()} and so
 * with the {@link WakeupPolicy} vote on SCHED_IDLE-only runqueues. {@code wake_wide()} does not
 * look at sync.
 *
 * <p>Not modelled: EAS, NUMA preferred nodes.
 */
final class SelectTaskRq {

  /** {@code WF_EXEC}, {@code WF_FORK}, {@code WF_TTWU}: the same bits as SD_BALANCE_*. */
  static final int WF_EXEC = 0x02;

  static final int WF_FORK = 0x04;
  static final int WF_TTWU = 0x08;

  /** {@code WF_SYNC}: the waker will soon block (kernel-facts §1.1). */
  static final int WF_SYNC = 0x10;

  private final EngineContext ctx;
  private final SchedDomains domains;
  private final CpuStateView state;
  private final CpuRunqueue[] rqs;
  private final int nrCpuIds;
  private final WakeupPolicyChain chain;
  private final SelectIdleSibling idleSibling;
  private final FindDstCpu findDst;
  private final PeltUpdates pelt;
  private final BalanceActions actions;

  /** Placements per {@link PlacementPath}, by ordinal. */
  private final long[] pathCounts = new long[PlacementPath.ALL.size()];

  /** The path of the placement being made. */
  private PlacementPath path;

  private final Context context = new Context();

  SelectTaskRq(
      EngineContext ctx,
      WakeupPolicyChain chain,
      SelectIdleSibling idleSibling,
      FindDstCpu findDst,
      PeltUpdates pelt,
      BalanceActions actions) {
    this.ctx = ctx;
    this.domains = ctx.domains;
    this.state = ctx.state;
    this.rqs = ctx.rqs;
    this.nrCpuIds = ctx.topology.nrCpuIds();
    this.chain = chain;
    this.idleSibling = idleSibling;
    this.findDst = findDst;
    this.pelt = pelt;
    this.actions = actions;
  }

  /**
   * Models {@code select_task_rq()}: {@code select_task_rq_fair()} for tasks allowed on more than
   * one CPU, then the policies' final say, then {@code select_fallback_rq()} if the result is not
   * allowed.
   */
  int selectTaskRq(Task p, int prevCpu, int thisCpu, int wakeFlags, Task waker) {
    int cpu;
    if (p.nrAllowed > 1) {
      cpu = selectTaskRqFair(p, prevCpu, thisCpu, wakeFlags, waker);
      int fair = cpu;
      context.set(thisCpu, (wakeFlags & WF_FORK) != 0);
      cpu = chain.selectFinal(p, prevCpu, cpu, context);
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

  /** The path of the last choice made. */
  PlacementPath lastPath() {
    return path;
  }

  /**
   * Models {@code select_task_rq_fair(p, prev_cpu, wake_flags)} without EAS. {@code sync} is {@code
   * WF_SYNC} from a waker that is not exiting: programs pass sync=false for exit notifications
   * ({@code TaskControl.wake(int, boolean)}), and timer wakeups are never sync.
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
      return findDst.find(sd, p, cpu, prevCpu, sdFlag);
    }
    if ((wakeFlags & WF_TTWU) != 0) {
      int target = idleSibling.select(p, prevCpu, newCpu);
      path = idleSibling.lastPath();
      return target;
    }
    path = PlacementPath.NO_SEARCH;
    return newCpu;
  }

  /** Equivalent of {@code record_wakee(p)} on the waker. */
  private void recordWakee(Task waker, Task p) {
    long jiffies = ctx.jiffies();
    if (jiffies > waker.wakeeFlipDecayTs + ctx.hz) {
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
   * Equivalent of {@code wake_affine(sd, p, this_cpu, prev_cpu, sync)}: this CPU or prev, counting
   * {@code ttwu_move_affine}. {@code syncWaker} is the waker ({@code current}) of a sync wakeup,
   * null otherwise.
   */
  private int wakeAffine(SchedDomain sd, Task p, int thisCpu, int prevCpu, Task syncWaker) {
    int target = wakeAffineIdle(thisCpu, prevCpu, syncWaker != null);
    if (target == nrCpuIds) {
      target = wakeAffineWeight(sd, p, thisCpu, prevCpu, syncWaker);
    }
    if (target != thisCpu) {
      return prevCpu;
    }
    ctx.stats.ttwuMoveAffine(thisCpu, sd.level());
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
   * CPU's load (this CPU wins outright when the waker carries more than all of it), and prev's side
   * gets +1 so that a tie goes to this CPU.
   */
  private int wakeAffineWeight(SchedDomain sd, Task p, int thisCpu, int prevCpu, Task syncWaker) {
    long thisEffLoad = state.loadAvg(thisCpu);
    if (syncWaker != null) {
      long currentLoad = pelt.taskHLoad(syncWaker);
      if (currentLoad > thisEffLoad) {
        return thisCpu;
      }
      thisEffLoad -= currentLoad;
    }
    long taskLoad = pelt.taskHLoad(p);
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
      return actions;
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
