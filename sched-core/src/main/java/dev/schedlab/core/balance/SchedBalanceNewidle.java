package dev.schedlab.core.balance;

import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;

/**
 * Newidle balancing, when a CPU's fair class finds nothing to run: {@code sched_balance_newidle()}
 * in {@code kernel/sched/fair.c} with its cost accounting, {@code update_newidle_cost()} and {@code
 * update_newidle_stats()} (the NI_RANDOM success ratio and the NI_RATE wall-time credit). The
 * periodic walk calls {@link #updateNewidleCost} too, to decay {@code max_newidle_lb_cost}.
 *
 * <p>Because a simulated pass is instantaneous, nothing can arrive on the runqueue while newidle
 * balancing runs, so the kernel's checks for that never fire.
 */
final class SchedBalanceNewidle {

  private static final int NEWIDLE_RATIO_MAX = 1024;

  private final BalanceHost host;
  private final CpuStateView cpuState;
  private final BalancerOptions options;
  private final BalanceCostModel costModel;
  private final BalancerState balancerState;
  private final BalancePasses passes;
  private final SchedBalanceRq schedBalanceRq;
  private final BalanceCost domainCost = new BalanceCost();

  SchedBalanceNewidle(
      BalanceHost host,
      BalancerOptions options,
      BalanceCostModel costModel,
      BalancerState balancerState,
      BalancePasses passes,
      SchedBalanceRq schedBalanceRq) {
    this.host = host;
    this.cpuState = host.state();
    this.options = options;
    this.costModel = costModel;
    this.balancerState = balancerState;
    this.passes = passes;
    this.schedBalanceRq = schedBalanceRq;
  }

  /**
   * Models {@code sched_balance_newidle(this_rq, rf)} in {@code kernel/sched/fair.c}: unless the
   * root domain is not overloaded or {@code avg_idle} is shorter than the base domain's {@code
   * max_newidle_lb_cost}, updates the CPU's blocked averages and balances its {@code
   * SD_BALANCE_NEWIDLE} domains bottom-up while the accumulated cost stays within {@code avg_idle},
   * stopping at the first pull. With NI_RANDOM a domain is tried only with a probability that
   * follows its success ratio. Each domain's cost is the cost model's time for its work (the first
   * domain run also carries {@link BalanceCostModel#baseNs()}, the entry and blocked-average
   * update); it feeds {@code max_newidle_lb_cost} and, at the end, {@code
   * rq->max_idle_balance_cost}.
   *
   * @return the number of tasks pulled, 0 if none
   */
  int newidleBalance(int cpu, BalanceCost cost) {
    long next = host.jiffies() + balancerState.hz();
    if (host.ttwuPending(cpu) || !cpuState.isActive(cpu)) {
      return 0;
    }
    SchedDomain[] chain = balancerState.chain(cpu);
    int pulled = 0;
    long avgIdle = host.avgIdleNs(cpu);
    if (chain.length == 0) {
      // No domains: only next_balance moves.
    } else if (!balancerState.rdOverloaded
        || avgIdle < balancerState.domain(chain[0]).maxNewidleLbCostNs) {
      next = balancerState.updateNextBalance(chain[0], next);
    } else {
      passes.begin(cpu, IdleType.NEWLY_IDLE, cost);
      host.updateBlockedAverages(cpu);
      schedBalanceRq.beginWalk();
      schedBalanceRq.continueBalancing = true;
      long currCost = 0;
      boolean chargedBase = false;
      try {
        for (SchedDomain sd : chain) {
          SchedDomainState sdState = balancerState.domain(sd);
          next = balancerState.updateNextBalance(sd, next);
          if (avgIdle < currCost + sdState.maxNewidleLbCostNs) {
            break;
          }
          boolean allowed = passes.allowDomain(sd);
          if (allowed && sd.hasFlag(SdFlags.SD_BALANCE_NEWIDLE)) {
            int weight = 1;
            if (options.niRandom() && sdState.newidleRatio < NEWIDLE_RATIO_MAX) {
              // A 1024-sided die: run with a probability that follows the success ratio.
              int roll = host.random(cpu).nextInt() & (NEWIDLE_RATIO_MAX - 1);
              weight = 1 + sdState.newidleRatio;
              if (roll > weight) {
                updateNewidleStats(sdState, 0);
                continue;
              }
              // A run stands for about 1024 / weight attempts.
              weight = (NEWIDLE_RATIO_MAX + weight / 2) / weight;
            }
            domainCost.reset();
            pulled = schedBalanceRq.schedBalanceRq(cpu, sd, IdleType.NEWLY_IDLE, domainCost);
            // The first domain run also pays for the entry and the blocked-average update.
            long domainNs = costModel.variableNs(domainCost);
            if (!chargedBase) {
              domainNs += costModel.baseNs();
              chargedBase = true;
            }
            cost.add(domainCost);
            currCost += domainNs;
            updateNewidleCost(sd, domainNs, pulled > 0 ? weight : 0);
          }
          if (pulled > 0 || !schedBalanceRq.continueBalancing) {
            break;
          }
        }
      } finally {
        schedBalanceRq.endWalk();
        passes.end();
      }
      if (currCost > balancerState.maxIdleBalanceCostNs[cpu]) {
        balancerState.maxIdleBalanceCostNs[cpu] = currCost;
      }
    }
    if (balancerState.nextBalance[cpu] > next) {
      balancerState.nextBalance[cpu] = next;
    }
    return pulled;
  }

  /**
   * Models {@code update_newidle_cost(sd, cost, success)} in {@code kernel/sched/fair.c}: records a
   * newidle attempt's cost, raises {@code max_newidle_lb_cost}, or decays it by 253/256 once a
   * second. Returns whether it decayed.
   */
  boolean updateNewidleCost(SchedDomain sd, long costNs, int success) {
    SchedDomainState sdState = balancerState.domain(sd);
    if (costNs != 0) {
      updateNewidleStats(sdState, success);
    }
    long jiffies = host.jiffies();
    if (costNs > sdState.maxNewidleLbCostNs) {
      sdState.maxNewidleLbCostNs = costNs;
      sdState.lastDecayMaxLbCost = jiffies;
    } else if (jiffies > sdState.lastDecayMaxLbCost + balancerState.hz()) {
      sdState.maxNewidleLbCostNs = sdState.maxNewidleLbCostNs * 253 / 256;
      sdState.lastDecayMaxLbCost = jiffies;
      return true;
    }
    return false;
  }

  /**
   * Models {@code update_newidle_stats(sd, success)} in {@code kernel/sched/fair.c}: every ~512
   * attempts, {@code newidle_ratio} becomes the weighted successes plus, with NI_RATE, the wall
   * time those attempts spanned ({@code delta >> 22}, ~244 per second), capped at 1024.
   */
  private void updateNewidleStats(SchedDomainState sdState, int success) {
    sdState.newidleCall++;
    sdState.newidleSuccess += success;
    if (sdState.newidleCall >= 1024) {
      long now = host.nowNs();
      long delta = Math.max(0, now - sdState.newidleStampNs);
      sdState.newidleStampNs = now;
      long ratio = (options.niRate() ? delta >> 22 : 0) + sdState.newidleSuccess;
      sdState.newidleRatio = (int) Math.min(NEWIDLE_RATIO_MAX, ratio);
      sdState.newidleCall /= 2;
      sdState.newidleSuccess /= 2;
    }
  }
}
