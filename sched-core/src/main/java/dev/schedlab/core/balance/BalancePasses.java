package dev.schedlab.core.balance;

import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import java.util.List;

/**
 * The plugin side of balancing: the {@link BalancePass} hooks in list order, the one {@link
 * PassState} they see, and the {@link BalanceActions} they may call. A pass ({@code
 * sched_balance_domains()} or {@code sched_balance_newidle()}) opens with {@link #begin} and closes
 * with {@link #end}; a plugin move made in between is charged to that pass's {@link BalanceCost},
 * one made outside a pass (a wakeup policy's) to a scratch accumulator nobody reads. No kernel
 * function corresponds: these are the model's extension points.
 */
final class BalancePasses implements BalanceActions {

  private final BalancePass[] passes;
  private final PassState passState;
  private final BalancerState balancerState;
  private final ActiveBalance activeBalance;
  private final BalanceCost scratchCost = new BalanceCost();

  /** Where plugin moves are charged during a pass; null outside one. */
  private BalanceCost passCost;

  BalancePasses(
      List<BalancePass> passes,
      int nrCpuIds,
      BalancerState balancerState,
      ActiveBalance activeBalance) {
    this.passes = passes.toArray(new BalancePass[0]);
    this.passState = new PassState(nrCpuIds);
    this.balancerState = balancerState;
    this.activeBalance = activeBalance;
  }

  /** Opens a pass of {@code cpu}: fresh pass state, plugin moves charged to {@code cost}. */
  void begin(int cpu, IdleType idle, BalanceCost cost) {
    passState.reset(cpu, idle);
    passCost = cost;
  }

  /** Closes the pass opened by {@link #begin}. */
  void end() {
    passCost = null;
  }

  /** {@link BalancePass#beforeDomainWalk} of every plugin, with this as the actions. */
  void beforeDomainWalk() {
    for (BalancePass pass : passes) {
      pass.beforeDomainWalk(passState, this);
    }
  }

  /** Whether every plugin's {@link BalancePass#balanceDomain} lets {@code sd} be balanced now. */
  boolean allowDomain(SchedDomain sd) {
    for (BalancePass pass : passes) {
      if (!pass.balanceDomain(sd, passState)) {
        return false;
      }
    }
    return true;
  }

  /** {@link BalancePass#narrowSourceCandidates} of every plugin on {@code candidates}. */
  void narrowSourceCandidates(SchedDomain sd, MutableCpuMask candidates) {
    for (BalancePass pass : passes) {
      pass.narrowSourceCandidates(sd, passState, candidates);
    }
  }

  /** See {@link ActiveBalance#migrateOneTask}; charged to the current pass, if any. */
  @Override
  public boolean migrateOneTask(int srcCpu, int dstCpu) {
    return activeBalance.migrateOneTask(srcCpu, dstCpu, passCost != null ? passCost : scratchCost);
  }

  /** See {@link BalancerState#resetBalanceInterval}. */
  @Override
  public void resetBalanceInterval(int cpu) {
    balancerState.resetBalanceInterval(cpu);
  }
}
