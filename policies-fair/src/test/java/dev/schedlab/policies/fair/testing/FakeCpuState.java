package dev.schedlab.policies.fair.testing;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import java.util.Arrays;

/**
 * A {@link CpuStateView} backed by plain arrays over a {@link Topology}: {@code idle[cpu]} stands
 * for {@code idle_cpu()}, {@code schedIdleRq[cpu]} for {@code sched_idle_rq()}; {@code
 * is_core_idle()} and {@code sched_smt_active()} are derived from the topology; {@link
 * #idleMask()} and {@link #idleCoreMask()} are recomputed from the arrays at every change (O(SMT
 * width) per CPU changed). Mutable so one instance serves a whole exhaustive sweep; allocates
 * nothing after construction.
 */
public final class FakeCpuState implements CpuStateView {

  private final Topology topology;
  private final boolean[] idle;
  private final boolean[] schedIdleRq;
  private final MutableCpuMask nohzIdleMask;
  private final MutableCpuMask idleMask;
  private final MutableCpuMask idleCoreMask;

  /** Every CPU busy, no SCHED_IDLE-only runqueue, empty NOHZ mask. */
  public FakeCpuState(Topology topology) {
    this.topology = topology;
    this.idle = new boolean[topology.nrCpuIds()];
    this.schedIdleRq = new boolean[topology.nrCpuIds()];
    this.nohzIdleMask = CpuMasks.mutable(topology.nrCpuIds());
    this.idleMask = CpuMasks.mutable(topology.nrCpuIds());
    this.idleCoreMask = CpuMasks.mutable(topology.nrCpuIds());
  }

  private void refresh(int cpu) {
    if (idle[cpu]) {
      idleMask.set(cpu);
    } else {
      idleMask.clear(cpu);
    }
    if (!topology.isPossible(cpu)) {
      return;
    }
    CpuMask siblings = topology.smtSiblings(cpu);
    boolean all = true;
    for (int s = siblings.first(); s != CpuMask.NO_CPU; s = siblings.next(s)) {
      all &= idle[s];
    }
    for (int s = siblings.first(); s != CpuMask.NO_CPU; s = siblings.next(s)) {
      if (all) {
        idleCoreMask.set(s);
      } else {
        idleCoreMask.clear(s);
      }
    }
  }

  private void refreshAll() {
    for (int cpu = 0; cpu < idle.length; cpu++) {
      refresh(cpu);
    }
  }

  /** Sets whether {@code cpu} is idle. */
  public FakeCpuState idle(int cpu, boolean value) {
    idle[cpu] = value;
    refresh(cpu);
    return this;
  }

  /** Copies every CPU's idle state from {@code values}. */
  public FakeCpuState idleFrom(boolean[] values) {
    System.arraycopy(values, 0, idle, 0, idle.length);
    refreshAll();
    return this;
  }

  /** Marks every CPU idle or busy. */
  public FakeCpuState allIdle(boolean value) {
    Arrays.fill(idle, value);
    refreshAll();
    return this;
  }

  /** Sets whether {@code cpu}'s runqueue holds only SCHED_IDLE tasks (implies not idle). */
  public FakeCpuState schedIdleRq(int cpu, boolean value) {
    schedIdleRq[cpu] = value;
    if (value) {
      idle[cpu] = false;
      refresh(cpu);
    }
    return this;
  }

  /** The live NOHZ idle mask, writable by the test. */
  public MutableCpuMask mutableNohzIdleMask() {
    return nohzIdleMask;
  }

  @Override
  public long nowNs() {
    return 0;
  }

  @Override
  public boolean isIdle(int cpu) {
    return idle[cpu];
  }

  @Override
  public boolean isCoreIdle(int cpu) {
    CpuMask siblings = topology.smtSiblings(cpu);
    for (int sibling = siblings.first();
        sibling != CpuMask.NO_CPU;
        sibling = siblings.next(sibling)) {
      if (sibling != cpu && !idle[sibling]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public CpuMask idleMask() {
    return idleMask;
  }

  @Override
  public CpuMask idleCoreMask() {
    return idleCoreMask;
  }

  @Override
  public boolean smtActive() {
    return topology.isSmt();
  }

  @Override
  public int nrRunning(int cpu) {
    return idle[cpu] ? 0 : 1;
  }

  @Override
  public int cfsNrRunnable(int cpu) {
    return nrRunning(cpu);
  }

  @Override
  public boolean isSchedIdleRq(int cpu) {
    return schedIdleRq[cpu];
  }

  @Override
  public long runnableAvg(int cpu) {
    return 0;
  }

  @Override
  public long utilAvg(int cpu) {
    return 0;
  }

  @Override
  public long loadAvg(int cpu) {
    return 0;
  }

  @Override
  public long capacityOf(int cpu) {
    return topology.capacity(cpu);
  }

  @Override
  public boolean isActive(int cpu) {
    return topology.isOnline(cpu);
  }

  @Override
  public boolean isTickStopped(int cpu) {
    return nohzIdleMask.test(cpu);
  }

  @Override
  public CpuMask nohzIdleMask() {
    return nohzIdleMask;
  }

  @Override
  public long totalNrRunning() {
    long total = 0;
    for (boolean cpuIdle : idle) {
      total += cpuIdle ? 0 : 1;
    }
    return total;
  }

  @Override
  public int activeCpuCount() {
    return topology.onlineMask().weight();
  }
}
