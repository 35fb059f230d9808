package dev.schedlab.spi;

/**
 * Decides when an idle CPU is registered in {@code nohz.idle_cpus_mask}. Stands for the call of
 * {@code nohz_balance_enter_idle()} from {@code tick_nohz_idle_stop_tick()}
 * (kernel/time/tick-sched.c); registration itself is idempotent in the engine.
 */
public interface NohzIdleTracking {

  /**
   * Called when {@code cpu} enters idle and its tick is stopped after the idle path ran.
   *
   * @param cpu the CPU entering idle
   * @param tickWasAlreadyStopped whether the tick had been stopped before this idle entry (a busy
   *     nohz_full CPU)
   * @return whether to call {@code nohz_balance_enter_idle(cpu)}
   */
  boolean registerOnIdleEntry(int cpu, boolean tickWasAlreadyStopped);
}
