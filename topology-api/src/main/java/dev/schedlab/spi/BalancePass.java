package dev.schedlab.spi;

import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.topology.domain.SchedDomain;

/**
 * Hooks around the engine's balancing passes, at the points DESIGN.md names. Every hook has a
 * default that keeps mainline behaviour, so a plugin overrides only what it changes. Hooks allocate
 * nothing per call.
 */
public interface BalancePass {

  /**
   * Called at the start of {@code sched_balance_domains()} (periodic and NOHZ passes, not newidle),
   * before the domain walk: a plugin may move tasks here (SMT buddy push) and must then call {@link
   * BalancePassState#recordPush}.
   */
  default void beforeDomainWalk(BalancePassState pass, BalanceActions actions) {}

  /**
   * Whether {@code sd} is balanced in this pass. Called for every domain of the walk in periodic,
   * NOHZ and newidle passes; returning false skips the domain as if its interval had not expired
   * (periodic) or as if it lacked {@code SD_BALANCE_NEWIDLE} (newidle).
   */
  default boolean balanceDomain(SchedDomain sd, BalancePassState pass) {
    return true;
  }

  /**
   * Narrows the CPUs {@code sched_balance_find_src_rq()} may pick as busiest in {@code sd} ({@code
   * env->cpus}); {@code candidates} is a scratch copy owned by the engine for this call.
   */
  default void narrowSourceCandidates(
      SchedDomain sd, BalancePassState pass, MutableCpuMask candidates) {}
}
