package dev.schedlab.testkit.fakes;

import dev.schedlab.cpumask.DistributeCursor;
import dev.schedlab.spi.WakeupContext;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.CpuStateView;

/** A wakeup run on {@code wakingCpu}, with one distribute cursor per CPU kept across wakeups. */
public final class FakeWakeupContext implements WakeupContext {

  private final ArrayCpuState state;
  private final BalanceActions actions;
  private final DistributeCursor[] cursors;
  private int wakingCpu;
  private boolean fork;

  /** Wakeups over {@code state} and {@code actions}, run on CPU 0 until {@link #on} says. */
  public FakeWakeupContext(ArrayCpuState state, BalanceActions actions) {
    this.state = state;
    this.actions = actions;
    this.cursors = new DistributeCursor[state.nrCpuIds()];
    for (int cpu = 0; cpu < cursors.length; cpu++) {
      cursors[cpu] = new DistributeCursor();
    }
  }

  /** Runs the next wakeups on {@code cpu}. */
  public FakeWakeupContext on(int cpu) {
    this.wakingCpu = cpu;
    return this;
  }

  /** Marks the next placements as forks. */
  public FakeWakeupContext fork(boolean value) {
    this.fork = value;
    return this;
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
    return cursors[cpu];
  }
}
