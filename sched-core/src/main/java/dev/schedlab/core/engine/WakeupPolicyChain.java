package dev.schedlab.core.engine;

import dev.schedlab.spi.WakeupContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.CpuStateView;
import java.util.List;

/**
 * The run's {@link WakeupPolicy} chain, in binding order, where the engine consults it: {@code
 * choose_idle_cpu()} and {@code choose_sched_idle_rq()} with the policies' vote on SCHED_IDLE-only
 * runqueues, {@link WakeupPolicy#selectFinal} after {@code select_task_rq_fair()}, and the notice
 * of each periodic balance.
 */
final class WakeupPolicyChain {

  private final WakeupPolicy[] policies;
  private final CpuStateView state;
  private final CpuRunqueue[] rqs;

  WakeupPolicyChain(EngineContext ctx, List<WakeupPolicy> policies) {
    this.policies = policies.toArray(new WakeupPolicy[0]);
    this.state = ctx.state;
    this.rqs = ctx.rqs;
  }

  /**
   * Equivalent of {@code choose_idle_cpu(cpu, p)}: {@code available_idle_cpu()}, or a runqueue of
   * SCHED_IDLE tasks only when the policies (default: the 7.1.5 rule) let {@code p} count it as
   * idle.
   */
  boolean chooseIdleCpu(int cpu, Task p) {
    return state.isAvailableIdle(cpu) || chooseSchedIdleRq(cpu, p);
  }

  /** Equivalent of {@code choose_sched_idle_rq(rq, p)} with the policy vote. */
  boolean chooseSchedIdleRq(int cpu, Task p) {
    return rqs[cpu].isSchedIdleRq() && schedIdleRqCountsAsIdle(p);
  }

  private boolean schedIdleRqCountsAsIdle(Task p) {
    for (WakeupPolicy policy : policies) {
      WakeupPolicy.Vote vote = policy.schedIdleRqCountsAsIdle(p);
      if (vote == WakeupPolicy.Vote.YES) {
        return true;
      }
      if (vote == WakeupPolicy.Vote.NO) {
        return false;
      }
    }
    return !p.policy.isIdlePolicy();
  }

  /** Each policy's {@link WakeupPolicy#selectFinal} in turn, from the fair class's choice. */
  int selectFinal(Task p, int prevCpu, int cpu, WakeupContext context) {
    for (WakeupPolicy policy : policies) {
      cpu = policy.selectFinal(p, prevCpu, cpu, context);
    }
    return cpu;
  }

  /** Tells every policy that {@code cpu} ran {@code sched_balance_domains()}. */
  void notifyPeriodicBalance(int cpu) {
    for (int i = 0; i < policies.length; i++) {
      policies[i].onPeriodicBalance(cpu, state);
    }
  }
}
