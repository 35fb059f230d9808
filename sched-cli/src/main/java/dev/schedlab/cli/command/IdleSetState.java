package dev.schedlab.cli.command;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;

/**
 * A frozen CPU state for {@code explain-ilb}: the CPUs of {@code idle} (online CPUs) are idle with
 * nothing queued, every other online CPU runs one task at full utilisation; ticks are stopped on
 * the CPUs of the NOHZ idle mask.
 */
final class IdleSetState implements CpuStateView {

  private final Topology topology;
  private final CpuMask idle;
  private final CpuMask nohzIdle;
  private final CpuMask idleCore;
  private final int busyCount;

  IdleSetState(Topology topology, CpuMask idle, CpuMask nohzIdle) {
    this.topology = topology;
    this.idle = idle;
    this.nohzIdle = nohzIdle;
    this.busyCount = topology.cpuCount() - idle.weightAnd(topology.onlineMask());
    MutableCpuMask fullyIdle = CpuMasks.mutable(topology.nrCpuIds());
    for (int cpu = idle.first(); cpu != CpuMask.NO_CPU; cpu = idle.next(cpu)) {
      if (isCoreIdle(cpu)) {
        fullyIdle.set(cpu);
      }
    }
    this.idleCore = fullyIdle.asUnmodifiable();
  }

  @Override
  public long nowNs() {
    return 0;
  }

  @Override
  public boolean isIdle(int cpu) {
    return idle.test(cpu);
  }

  @Override
  public boolean isCoreIdle(int cpu) {
    CpuMask siblings = topology.smtSiblings(cpu);
    for (int sibling = siblings.first(); sibling != CpuMask.NO_CPU;
        sibling = siblings.next(sibling)) {
      // Offline siblings leave cpu_smt_mask() on hotplug, so they do not count.
      if (sibling != cpu && topology.isOnline(sibling) && !isIdle(sibling)) {
        return false;
      }
    }
    return true;
  }

  /** The frozen idle set itself: {@link #isIdle} is a test of it. */
  @Override
  public CpuMask idleMask() {
    return idle;
  }

  /** Computed once: the state is frozen. */
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
    return isIdle(cpu) ? 0 : 1;
  }

  @Override
  public int cfsNrRunnable(int cpu) {
    return nrRunning(cpu);
  }

  @Override
  public boolean isSchedIdleRq(int cpu) {
    return false;
  }

  @Override
  public long runnableAvg(int cpu) {
    return isIdle(cpu) ? 0 : Topology.SCHED_CAPACITY_SCALE;
  }

  @Override
  public long utilAvg(int cpu) {
    return isIdle(cpu) ? 0 : topology.capacity(cpu);
  }

  @Override
  public long loadAvg(int cpu) {
    return isIdle(cpu) ? 0 : Topology.SCHED_CAPACITY_SCALE;
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
    return nohzIdle.test(cpu);
  }

  @Override
  public CpuMask nohzIdleMask() {
    return nohzIdle;
  }

  @Override
  public long totalNrRunning() {
    return busyCount;
  }

  @Override
  public int activeCpuCount() {
    return topology.cpuCount();
  }
}
