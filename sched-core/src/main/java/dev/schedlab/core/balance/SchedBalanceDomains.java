package dev.schedlab.core.balance;

import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;

/**
 * The periodic walk: {@code sched_balance_domains()} in {@code kernel/sched/fair.c}, run from
 * {@code SCHED_SOFTIRQ} for a CPU itself or by the idle load balancer on behalf of an idle one.
 * Each due domain gets one {@link SchedBalanceRq} attempt; the walk also decays the newidle costs
 * ({@link SchedBalanceNewidle#updateNewidleCost}) and leaves {@code rq->next_balance} at the
 * earliest deadline. The plugins' {@link BalancePass} hooks run through {@link BalancePasses}.
 */
final class SchedBalanceDomains {

  private final BalanceHost host;
  private final CpuStateView cpuState;
  private final BalancerState balancerState;
  private final BalancePasses passes;
  private final SchedBalanceRq schedBalanceRq;
  private final SchedBalanceNewidle newidle;

  SchedBalanceDomains(
      BalanceHost host,
      BalancerState balancerState,
      BalancePasses passes,
      SchedBalanceRq schedBalanceRq,
      SchedBalanceNewidle newidle) {
    this.host = host;
    this.cpuState = host.state();
    this.balancerState = balancerState;
    this.passes = passes;
    this.schedBalanceRq = schedBalanceRq;
    this.newidle = newidle;
  }

  /**
   * Models {@code sched_balance_domains(rq, idle)} in {@code kernel/sched/fair.c}: walks {@code
   * cpu}'s domains bottom-up, decays {@code max_newidle_lb_cost}, balances each domain whose
   * interval ({@code balance_interval}, × {@code busy_factor} when busy) has expired, stops when
   * {@code should_we_balance()} says another CPU of the group balances, and sets {@code
   * rq->next_balance}. Plugin hooks: {@link BalancePass#beforeDomainWalk} first, {@link
   * BalancePass#balanceDomain} per domain (false skips it as if its interval had not expired).
   *
   * @param idle {@link IdleType#NOT_IDLE} or {@link IdleType#IDLE}
   * @param cost accumulates the work done
   */
  void balanceDomains(int cpu, IdleType idle, BalanceCost cost) {
    SchedDomain[] chain = balancerState.chain(cpu);
    passes.begin(cpu, idle, cost);
    try {
      passes.beforeDomainWalk();
      schedBalanceRq.beginWalk();
      schedBalanceRq.continueBalancing = true;
      boolean busy = idle != IdleType.IDLE && !cpuState.isSchedIdleRq(cpu);
      long jiffies = host.jiffies();
      long next = jiffies + 60L * balancerState.hz();
      boolean updateNextBalance = false;
      boolean needDecay = false;
      long maxCost = 0;
      for (SchedDomain sd : chain) {
        SchedDomainState sdState = balancerState.domain(sd);
        needDecay = newidle.updateNewidleCost(sd, 0, 0);
        maxCost += sdState.maxNewidleLbCostNs;
        if (!schedBalanceRq.continueBalancing) {
          if (needDecay) {
            continue;
          }
          break;
        }
        long interval = balancerState.sdBalanceInterval(sd, busy);
        boolean allowed = passes.allowDomain(sd);
        if (allowed && jiffies >= sdState.lastBalance + interval) {
          if (schedBalanceRq.schedBalanceRq(cpu, sd, idle, cost) > 0) {
            // The DST_PINNED path may have moved tasks elsewhere, so look again.
            idle = cpuState.isIdle(cpu) ? IdleType.IDLE : IdleType.NOT_IDLE;
            busy = idle != IdleType.IDLE && !cpuState.isSchedIdleRq(cpu);
          }
          sdState.lastBalance = jiffies;
          interval = balancerState.sdBalanceInterval(sd, busy);
        }
        if (next > sdState.lastBalance + interval) {
          next = sdState.lastBalance + interval;
          updateNextBalance = true;
        }
      }
      if (needDecay) {
        balancerState.maxIdleBalanceCostNs[cpu] =
            Math.max(balancerState.migrationCostFloorNs(), maxCost);
      }
      if (updateNextBalance) {
        balancerState.nextBalance[cpu] = next;
      }
    } finally {
      schedBalanceRq.endWalk();
      passes.end();
    }
  }
}
