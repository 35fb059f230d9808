package dev.schedlab.testkit.fakes;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.spi.view.IdleType;

/** One balancing pass of one CPU, as the engine would reset it at the start of the pass. */
public final class FakePassState implements BalancePassState {

  private final int cpu;
  private final IdleType idleType;
  private final MutableCpuMask pushDestinations;

  /** A pass of {@code cpu} with no push yet. */
  public FakePassState(int cpu, IdleType idleType, int nrCpuIds) {
    this.cpu = cpu;
    this.idleType = idleType;
    this.pushDestinations = CpuMasks.mutable(nrCpuIds);
  }

  @Override
  public int cpu() {
    return cpu;
  }

  @Override
  public IdleType idleType() {
    return idleType;
  }

  @Override
  public boolean pushed() {
    return !pushDestinations.isEmpty();
  }

  @Override
  public CpuMask pushDestinations() {
    return pushDestinations;
  }

  @Override
  public void recordPush(int dstCpu) {
    pushDestinations.set(dstCpu);
  }
}
