package dev.schedlab.core.balance;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.spi.view.IdleType;

/**
 * The one {@link BalancePassState} of a {@link BalancePasses}, reset at the start of every pass
 * ({@code sched_balance_domains()} or {@code sched_balance_newidle()}) so that passes allocate
 * nothing.
 */
final class PassState implements BalancePassState {
  private final MutableCpuMask pushDestinations;
  private final CpuMask pushDestinationsView;
  private int cpu = -1;
  private IdleType idleType = IdleType.NOT_IDLE;
  private boolean pushed;

  PassState(int nrCpuIds) {
    pushDestinations = CpuMasks.mutable(nrCpuIds);
    pushDestinationsView = pushDestinations.asUnmodifiable();
  }

  void reset(int newCpu, IdleType newIdleType) {
    cpu = newCpu;
    idleType = newIdleType;
    if (pushed) {
      // Only recordPush() sets bits, and it sets pushed: an unpushed pass left the mask empty.
      pushDestinations.clearAll();
    }
    pushed = false;
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
    return pushed;
  }

  @Override
  public CpuMask pushDestinations() {
    return pushDestinationsView;
  }

  @Override
  public void recordPush(int dstCpu) {
    pushed = true;
    pushDestinations.set(dstCpu);
  }
}
