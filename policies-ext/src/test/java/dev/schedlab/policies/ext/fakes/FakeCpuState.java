package dev.schedlab.policies.ext.fakes;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import java.util.Arrays;

/**
 * CPU state held in plain arrays. Every CPU starts active and idle with nothing queued; tests set
 * what they need. A CPU counts as idle exactly when nothing is queued on it, and its {@code
 * cfs.h_nr_runnable} equals {@code nr_running} (only fair tasks in these tests).
 */
public final class FakeCpuState implements CpuStateView {

  private final int nrCpuIds;
  private final int[] nrRunning;
  private final long[] runnableAvg;
  private final boolean[] active;
  private final MutableCpuMask nohzIdle;
  private final MutableCpuMask idle;
  private Topology topology;
  private long nowNs;

  /** {@code nrCpuIds} active, idle CPUs with an empty NOHZ idle mask. */
  public FakeCpuState(int nrCpuIds) {
    this.nrCpuIds = nrCpuIds;
    this.nrRunning = new int[nrCpuIds];
    this.runnableAvg = new long[nrCpuIds];
    this.active = new boolean[nrCpuIds];
    Arrays.fill(active, true);
    this.nohzIdle = CpuMasks.mutable(nrCpuIds);
    this.idle = CpuMasks.mutable(nrCpuIds);
  }

  /** Width of every mask of this state. */
  public int nrCpuIds() {
    return nrCpuIds;
  }

  /** Sets {@code nr_running} of {@code cpu}. */
  public FakeCpuState nrRunning(int cpu, int tasks) {
    nrRunning[cpu] = tasks;
    return this;
  }

  /** Sets {@code cfs.avg.runnable_avg} of {@code cpu}. */
  public FakeCpuState runnable(int cpu, long value) {
    runnableAvg[cpu] = value;
    return this;
  }

  /** Marks {@code cpu} active or not ({@code cpu_active()}). */
  public FakeCpuState active(int cpu, boolean value) {
    active[cpu] = value;
    return this;
  }

  /** Puts CPUs into {@code nohz.idle_cpus_mask} (whether they are idle or not). */
  public FakeCpuState nohzIdle(int... cpus) {
    for (int cpu : cpus) {
      nohzIdle.set(cpu);
    }
    return this;
  }

  @Override
  public long nowNs() {
    return nowNs;
  }

  @Override
  public boolean isIdle(int cpu) {
    return nrRunning[cpu] == 0;
  }

  /** Gives the state SMT cores, for {@link #isCoreIdle}: those of {@code value}. */
  public FakeCpuState cores(Topology value) {
    this.topology = value;
    return this;
  }

  /** Every SMT sibling of {@code cpu} idle; needs {@link #cores}. */
  @Override
  public boolean isCoreIdle(int cpu) {
    if (topology == null) {
      throw new UnsupportedOperationException("give the fake its cores first (cores(topology))");
    }
    CpuMask smt = topology.smtSiblings(cpu);
    for (int s = smt.first(); s != CpuMask.NO_CPU; s = smt.next(s)) {
      if (!isIdle(s)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The CPUs with nothing queued, recomputed on each call into one mask owned by this fake (so
   * the call allocates nothing; an earlier result changes with the next call).
   */
  @Override
  public CpuMask idleMask() {
    idle.clearAll();
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      if (isIdle(cpu)) {
        idle.set(cpu);
      }
    }
    return idle;
  }

  @Override
  public CpuMask idleCoreMask() {
    throw new UnsupportedOperationException("no policy under test reads core idleness");
  }

  @Override
  public boolean smtActive() {
    throw new UnsupportedOperationException("no policy under test reads sched_smt_active()");
  }

  @Override
  public int nrRunning(int cpu) {
    return nrRunning[cpu];
  }

  @Override
  public int cfsNrRunnable(int cpu) {
    return nrRunning[cpu];
  }

  @Override
  public boolean isSchedIdleRq(int cpu) {
    return false;
  }

  @Override
  public long runnableAvg(int cpu) {
    return runnableAvg[cpu];
  }

  @Override
  public long utilAvg(int cpu) {
    return Math.min(runnableAvg[cpu], 1024);
  }

  @Override
  public long loadAvg(int cpu) {
    return runnableAvg[cpu];
  }

  @Override
  public long capacityOf(int cpu) {
    return 1024;
  }

  @Override
  public boolean isActive(int cpu) {
    return active[cpu];
  }

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
    long total = 0;
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      if (active[cpu]) {
        total += nrRunning[cpu];
      }
    }
    return total;
  }

  @Override
  public int activeCpuCount() {
    int count = 0;
    for (boolean a : active) {
      if (a) {
        count++;
      }
    }
    return count;
  }
}
