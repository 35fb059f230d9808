package dev.schedlab.policies.ext.smtbuddy;

import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.spi.Counter;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;

/**
 * Part 2 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3): once a task has been pushed to an SMT
 * sibling in this pass, the SMT-level domain ({@code SD_SHARE_CPUCAPACITY}) is not balanced for the
 * rest of the pass, so its balancing cannot pull the pushed task straight back. Passes without a
 * push, and every other level, are untouched.
 */
final class SkipSmtAfterPush implements BalancePass {

  private final Counter skippedDomains;

  SkipSmtAfterPush(Counter skippedDomains) {
    this.skippedDomains = skippedDomains;
  }

  @Override
  public boolean balanceDomain(SchedDomain sd, BalancePassState pass) {
    if (pass.pushed() && sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY)) {
      skippedDomains.increment();
      return false;
    }
    return true;
  }
}
