package dev.schedlab.policies.fair.nohz;

import dev.schedlab.spi.NohzIdleTracking;

/**
 * The nohz_full fix to {@code tick_nohz_idle_stop_tick()} (kernel/time/tick-sched.c) described in
 * seeds-digest §4: call {@code nohz_balance_enter_idle()} whenever the CPU enters idle with its
 * tick stopped, whether or not this idle entry stopped it. Registration is idempotent (the kernel's
 * {@code rq->nohz_tick_stopped} test, the engine's bookkeeping here), so registering a CPU that is
 * already in {@code nohz.idle_cpus_mask} changes nothing. The {@code idle_jiffies} bookkeeping
 * stays on the real transition; that is the engine's business, not this rule's. Stateless.
 */
public final class AlwaysWhenStoppedNohzIdleTracking implements NohzIdleTracking {

  /** A rule instance; the rule keeps no state, so one instance may serve many CPUs. */
  public AlwaysWhenStoppedNohzIdleTracking() {}

  /** Registers on every idle entry with the tick stopped, including a busy nohz_full CPU's. */
  @Override
  public boolean registerOnIdleEntry(int cpu, boolean tickWasAlreadyStopped) {
    return true;
  }
}
