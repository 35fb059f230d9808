package dev.schedlab.policies.fair.wake;

import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.TaskView;

/**
 * The SCHED_IDLE wakee fix (commit fd54d81c2c0e "sched/fair: Skip SCHED_IDLE rq for SCHED_IDLE
 * task", first released in Linux 7.1): {@code choose_sched_idle_rq(rq, p)} is {@code
 * sched_idle_rq(rq) && !task_has_idle_policy(p)}, used by {@code choose_idle_cpu()} throughout
 * wakeup selection (kernel-facts §5.5). Only a wakee that is not SCHED_IDLE itself may take a CPU
 * that runs nothing but SCHED_IDLE work; a SCHED_IDLE wakee keeps looking for a truly idle CPU.
 * Stateless.
 */
public final class SchedIdleAwareWakeupPolicy implements WakeupPolicy {

  /** A policy instance; it keeps no state. */
  public SchedIdleAwareWakeupPolicy() {}

  /** Yes unless the wakee has the idle policy ({@code task_has_idle_policy()}). */
  @Override
  public Vote schedIdleRqCountsAsIdle(TaskView wakee) {
    return wakee.policy().isIdlePolicy() ? Vote.NO : Vote.YES;
  }
}
