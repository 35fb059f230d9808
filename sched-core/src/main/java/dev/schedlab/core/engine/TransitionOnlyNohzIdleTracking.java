package dev.schedlab.core.engine;

import dev.schedlab.spi.NohzIdleTracking;

/**
 * The engine's built-in registration rule, used when a run names no {@code NohzIdleTracking}: as
 * {@code tick_nohz_idle_stop_tick()} in kernel/time/tick-sched.c up to 7.1, a CPU entering idle
 * calls {@code nohz_balance_enter_idle()} only when this idle entry stopped a running tick, so a
 * busy nohz_full CPU whose tick was already stopped is never registered.
 */
final class TransitionOnlyNohzIdleTracking implements NohzIdleTracking {

  @Override
  public boolean registerOnIdleEntry(int cpu, boolean tickWasAlreadyStopped) {
    return !tickWasAlreadyStopped;
  }
}
