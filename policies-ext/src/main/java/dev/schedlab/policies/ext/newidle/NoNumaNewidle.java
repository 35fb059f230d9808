package dev.schedlab.policies.ext.newidle;

import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;

/**
 * Part 4 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3): {@code sched_balance_newidle()} does not
 * balance domains flagged {@code SD_NUMA}, so a CPU about to go idle pulls only from its own node.
 * The RFC's rationale: cross-node (and cross-LLC) pulls on newidle cost cache and TLB refills on
 * machines like the Hygon 7447v. Periodic and NOHZ passes still balance NUMA domains.
 *
 * <p>Skipping the domain through the hook is what the reviewer's suggestion (clear {@code
 * SD_BALANCE_NEWIDLE} on those domains) amounts to in the engine: the domain is walked (its {@code
 * next_balance} still counts) but not balanced.
 */
final class NoNumaNewidle implements BalancePass {

  private final Counter skippedDomains;

  NoNumaNewidle(Counter skippedDomains) {
    this.skippedDomains = skippedDomains;
  }

  @Override
  public boolean balanceDomain(SchedDomain sd, BalancePassState pass) {
    if (pass.idleType() == IdleType.NEWLY_IDLE && sd.hasFlag(SdFlags.SD_NUMA)) {
      skippedDomains.increment();
      return false;
    }
    return true;
  }
}
