package dev.schedlab.spi;

/**
 * The legacy rule of {@code tick_nohz_idle_stop_tick()} (kernel/time/tick-sched.c, Linux 7.1.5):
 * {@code nohz_balance_enter_idle()} runs only when this idle entry stops a tick that was running.
 *
 * <p>A nohz_full CPU whose tick already stopped while it ran one task therefore goes idle without
 * being registered in {@code nohz.idle_cpus_mask}: it is idle, tickless and invisible to the ILB
 * (seeds-digest §4). Stateless.
 *
 * <p>Here, beside the SPI, because two modules use the rule and neither may see the other: the
 * {@code fair.nohz.transition-only} plugin of policies-fair provides it, and the engine
 * (sched-core) falls back to it when a run binds no registration rule.
 */
public final class TransitionOnlyNohzIdleTracking implements NohzIdleTracking {

  /** A rule instance; the rule keeps no state, so one instance may serve many CPUs. */
  public TransitionOnlyNohzIdleTracking() {}

  /**
   * Registers only on the transition "tick running → tick stopped", the {@code !was_stopped} test
   * of {@code tick_nohz_idle_stop_tick()}.
   */
  @Override
  public boolean registerOnIdleEntry(int cpu, boolean tickWasAlreadyStopped) {
    return !tickWasAlreadyStopped;
  }
}
