package dev.schedlab.policies.ext.newidle;

import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;

/**
 * A stricter variant of part 4 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3), following the
 * RFC's own rationale that cross-LLC pulls on newidle lose cache hits on machines whose L3 is not
 * shared between dies: {@code sched_balance_newidle()} balances only the domains that share the
 * last-level cache ({@code SD_SHARE_LLC}: SMT, CLS and MC up to {@code sd_llc}) and skips every
 * domain above them (PKG, NUMA). Periodic and NOHZ passes are untouched.
 *
 * <p>The flag test needs no per-CPU {@code sd_llc} lookup: {@code SD_SHARE_LLC} is set exactly on
 * the domains at or below a CPU's LLC domain. A CPU without a shared LLC therefore does no newidle
 * balancing at all, as its {@code sd_llc} is null.
 */
final class LlcOnlyNewidle implements BalancePass {

  private final Counter skippedDomains;

  LlcOnlyNewidle(Counter skippedDomains) {
    this.skippedDomains = skippedDomains;
  }

  @Override
  public boolean balanceDomain(SchedDomain sd, BalancePassState pass) {
    if (pass.idleType() == IdleType.NEWLY_IDLE && !sd.hasFlag(SdFlags.SD_SHARE_LLC)) {
      skippedDomains.increment();
      return false;
    }
    return true;
  }
}
