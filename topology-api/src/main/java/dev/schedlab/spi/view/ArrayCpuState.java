package dev.schedlab.spi.view;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.topology.Topology;
import java.util.Arrays;

/**
 * A {@link CpuStateView} held in plain arrays over a {@link Topology} and set by its owner, for
 * running a policy outside a simulation: a unit test of a plugin, a benchmark of an ILB selector,
 * the command line's {@code explain-ilb}. Each CPU has an {@code nr_running} (idle exactly when it
 * is 0, as {@code idle_cpu()} with nothing queued and no wakeup pending), averages, a
 * SCHED_IDLE-only flag and an active flag; the NOHZ idle mask is a mask of its own, so a test can
 * put busy CPUs in it (a CPU woken since its last tick stays there until its first busy tick).
 *
 * <p>Derived as the kernel derives them: {@link #isCoreIdle} from the online CPUs of the topology's
 * SMT core ({@code cpu_smt_mask()} holds only online CPUs; listed per CPU once, as the engine's own
 * view lists them, so a benchmark charges a policy what a simulation does), {@link #smtActive} from
 * the topology, {@link #capacityOf} from the topology's capacities, {@link #totalNrRunning} over
 * active CPUs. {@link #idleMask()}, {@link #idleCoreMask()} and the two totals are maintained at
 * every change, as the engine maintains them (O(SMT width²) per CPU changed), so every read is O(1)
 * or, for {@link #isCoreIdle}, O(SMT width), and allocates nothing.
 *
 * <p>A new state has every CPU idle with nothing queued, averages 0, active exactly when online, an
 * empty NOHZ idle mask and the clock at 0. Not thread-safe.
 */
public final class ArrayCpuState implements CpuStateView {

  private final Topology topology;
  private final int[] nrRunning;
  private final long[] runnableAvg;
  private final long[] utilAvg;
  private final long[] loadAvg;
  private final boolean[] schedIdleRq;
  private final boolean[] active;

  /** Per CPU, the other online CPUs of its SMT core: {@code cpu_smt_mask()} without the CPU. */
  private final int[][] smtPeers;

  private final MutableCpuMask idle;
  private final MutableCpuMask idleCore;
  private final MutableCpuMask nohzIdle;
  private long totalNrRunning;
  private int activeCpuCount;
  private long nowNs;

  /** Every CPU of {@code topology} idle; see the class comment for the other defaults. */
  public ArrayCpuState(Topology topology) {
    this.topology = topology;
    int nr = topology.nrCpuIds();
    this.nrRunning = new int[nr];
    this.runnableAvg = new long[nr];
    this.utilAvg = new long[nr];
    this.loadAvg = new long[nr];
    this.schedIdleRq = new boolean[nr];
    this.active = new boolean[nr];
    this.idle = CpuMasks.mutable(nr);
    this.idleCore = CpuMasks.mutable(nr);
    this.nohzIdle = CpuMasks.mutable(nr);
    this.smtPeers = new int[nr][];
    for (int cpu = 0; cpu < nr; cpu++) {
      smtPeers[cpu] = smtPeers(topology, cpu);
    }
    for (int cpu = 0; cpu < nr; cpu++) {
      active[cpu] = topology.isOnline(cpu);
      activeCpuCount += active[cpu] ? 1 : 0;
      idle.set(cpu);
    }
    for (int cpu = 0; cpu < nr; cpu++) {
      refreshCore(cpu);
    }
  }

  private static int[] smtPeers(Topology topology, int cpu) {
    if (!topology.isPossible(cpu)) {
      return new int[0];
    }
    CpuMask siblings = topology.smtSiblings(cpu);
    int[] peers = new int[siblings.weight()];
    int n = 0;
    for (int s = siblings.first(); s != CpuMask.NO_CPU; s = siblings.next(s)) {
      // Offline siblings leave cpu_smt_mask() on hotplug, so they do not count.
      if (s != cpu && topology.isOnline(s)) {
        peers[n++] = s;
      }
    }
    return Arrays.copyOf(peers, n);
  }

  /** The machine this state describes. */
  public Topology topology() {
    return topology;
  }

  /** Width of every mask of this state: the topology's {@code nr_cpu_ids}. */
  public int nrCpuIds() {
    return nrRunning.length;
  }

  /** Sets the clock {@link #nowNs()} reads. */
  public ArrayCpuState now(long value) {
    nowNs = value;
    return this;
  }

  /** Sets {@code rq->nr_running} of {@code cpu}; 0 makes it idle. */
  public ArrayCpuState nrRunning(int cpu, int tasks) {
    if (tasks < 0) {
      throw new IllegalArgumentException("nr_running of CPU " + cpu + " must be >= 0: " + tasks);
    }
    if (active[cpu]) {
      totalNrRunning += tasks - nrRunning[cpu];
    }
    nrRunning[cpu] = tasks;
    boolean wasIdle = idle.test(cpu);
    if (wasIdle != (tasks == 0)) {
      if (tasks == 0) {
        idle.set(cpu);
      } else {
        idle.clear(cpu);
      }
      refreshCore(cpu);
    }
    return this;
  }

  /** Makes {@code cpu} idle (nothing queued) or busy (one task running). */
  public ArrayCpuState idle(int cpu, boolean value) {
    return nrRunning(cpu, value ? 0 : 1);
  }

  /** Every CPU idle, or every CPU running one task. */
  public ArrayCpuState allIdle(boolean value) {
    for (int cpu = 0; cpu < nrRunning.length; cpu++) {
      idle(cpu, value);
    }
    return this;
  }

  /** CPU {@code cpu} idle exactly when {@code values[cpu]}; the others run one task. */
  public ArrayCpuState idleFrom(boolean[] values) {
    for (int cpu = 0; cpu < nrRunning.length; cpu++) {
      idle(cpu, values[cpu]);
    }
    return this;
  }

  /** The CPUs of {@code cpus} idle, every other CPU running one task. */
  public ArrayCpuState idleExactly(CpuMask cpus) {
    for (int cpu = 0; cpu < nrRunning.length; cpu++) {
      idle(cpu, cpus.test(cpu));
    }
    return this;
  }

  /**
   * Marks {@code cpu}'s runqueue as holding only SCHED_IDLE tasks ({@code sched_idle_rq()}); a
   * runqueue that does is not empty, so an idle CPU gets one task.
   */
  public ArrayCpuState schedIdleRq(int cpu, boolean value) {
    schedIdleRq[cpu] = value;
    if (value && nrRunning[cpu] == 0) {
      nrRunning(cpu, 1);
    }
    return this;
  }

  /** Sets {@code rq->cfs.avg.runnable_avg} of {@code cpu}. */
  public ArrayCpuState runnableAvg(int cpu, long value) {
    runnableAvg[cpu] = value;
    return this;
  }

  /** Sets {@code cpu_util_cfs()} of {@code cpu}. */
  public ArrayCpuState utilAvg(int cpu, long value) {
    utilAvg[cpu] = value;
    return this;
  }

  /** Sets {@code cpu_load()} of {@code cpu}. */
  public ArrayCpuState loadAvg(int cpu, long value) {
    loadAvg[cpu] = value;
    return this;
  }

  /** Marks {@code cpu} active or not ({@code cpu_active()}). */
  public ArrayCpuState active(int cpu, boolean value) {
    if (active[cpu] != value) {
      activeCpuCount += value ? 1 : -1;
      totalNrRunning += value ? nrRunning[cpu] : -nrRunning[cpu];
      active[cpu] = value;
    }
    return this;
  }

  /** Puts {@code cpus} into {@code nohz.idle_cpus_mask}, whether they are idle or not. */
  public ArrayCpuState nohzIdle(int... cpus) {
    for (int cpu : cpus) {
      nohzIdle.set(cpu);
    }
    return this;
  }

  /** Makes {@code nohz.idle_cpus_mask} a copy of {@code cpus}. */
  public ArrayCpuState nohzIdleExactly(CpuMask cpus) {
    nohzIdle.copyFrom(cpus);
    return this;
  }

  /** The live NOHZ idle mask, writable by the owner. */
  public MutableCpuMask mutableNohzIdleMask() {
    return nohzIdle;
  }

  /** Recomputes {@link #idleCoreMask()} for {@code cpu}'s SMT core. */
  private void refreshCore(int cpu) {
    if (!topology.isPossible(cpu)) {
      return;
    }
    CpuMask siblings = topology.smtSiblings(cpu);
    for (int s = siblings.first(); s != CpuMask.NO_CPU; s = siblings.next(s)) {
      if (idle.test(s) && isCoreIdle(s)) {
        idleCore.set(s);
      } else {
        idleCore.clear(s);
      }
    }
  }

  @Override
  public long nowNs() {
    return nowNs;
  }

  @Override
  public boolean isIdle(int cpu) {
    return nrRunning[cpu] == 0;
  }

  @Override
  public boolean isCoreIdle(int cpu) {
    for (int peer : smtPeers[cpu]) {
      if (nrRunning[peer] != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public CpuMask idleMask() {
    return idle;
  }

  @Override
  public CpuMask idleCoreMask() {
    return idleCore;
  }

  @Override
  public boolean smtActive() {
    return topology.isSmt();
  }

  @Override
  public int nrRunning(int cpu) {
    return nrRunning[cpu];
  }

  /** Equals {@link #nrRunning}: every task of this state is a fair task. */
  @Override
  public int cfsNrRunnable(int cpu) {
    return nrRunning[cpu];
  }

  @Override
  public boolean isSchedIdleRq(int cpu) {
    return schedIdleRq[cpu];
  }

  @Override
  public long runnableAvg(int cpu) {
    return runnableAvg[cpu];
  }

  @Override
  public long utilAvg(int cpu) {
    return utilAvg[cpu];
  }

  @Override
  public long loadAvg(int cpu) {
    return loadAvg[cpu];
  }

  @Override
  public long capacityOf(int cpu) {
    return topology.capacity(cpu);
  }

  @Override
  public boolean isActive(int cpu) {
    return active[cpu];
  }

  /** Whether {@code cpu} is in the NOHZ idle mask: only tickless CPUs are registered there. */
  @Override
  public boolean isTickStopped(int cpu) {
    return nohzIdle.test(cpu);
  }

  @Override
  public CpuMask nohzIdleMask() {
    return nohzIdle;
  }

  @Override
  public long totalNrRunning() {
    return totalNrRunning;
  }

  @Override
  public int activeCpuCount() {
    return activeCpuCount;
  }
}
