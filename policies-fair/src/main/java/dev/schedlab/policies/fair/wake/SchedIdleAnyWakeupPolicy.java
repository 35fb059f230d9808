package dev.schedlab.policies.fair.wake;

import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.TaskView;

/**
 * The SCHED_IDLE rule before the wakee fix (Linux 7.0 and earlier): wakeup selection treats a CPU
 * whose runnable tasks are all SCHED_IDLE ({@code sched_idle_rq()}) as idle for every wakee, as
 * {@code sched_idle_cpu()} did inside {@code select_idle_sibling()}, {@code select_idle_cpu()},
 * {@code select_idle_core()}, {@code select_idle_smt()}, {@code select_idle_capacity()} and {@code
 * sched_balance_find_dst_group_cpu()}. A SCHED_IDLE wakee may then share a CPU with other
 * SCHED_IDLE work while a truly idle CPU waits (seeds-digest §5). Stateless.
 */
public final class SchedIdleAnyWakeupPolicy implements WakeupPolicy {

  /** A policy instance; it keeps no state. */
  public SchedIdleAnyWakeupPolicy() {}

  /** Always yes: the old {@code sched_idle_cpu()} test ignores the wakee's policy. */
  @Override
  public Vote schedIdleRqCountsAsIdle(TaskView wakee) {
    return Vote.YES;
  }
}
