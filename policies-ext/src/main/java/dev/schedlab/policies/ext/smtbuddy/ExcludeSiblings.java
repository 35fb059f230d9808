package dev.schedlab.policies.ext.smtbuddy;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;

/**
 * Part 3 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3): after a push in this pass, when a domain
 * above the SMT level looks for its busiest runqueue ({@code sched_balance_find_src_rq()} over
 * {@code env->cpus}), the SMT siblings of every push destination are removed from the candidates,
 * so the core that just received a task is not picked as a source. As the reviewer asked, each
 * destination costs one {@code cpumask_andnot()} with its whole {@code cpu_smt_mask()} (the
 * destination included), which handles SMT4 and SMT8 cores as well as SMT2.
 *
 * <p>The SMT domain itself is left alone: it is part 2's job ({@link SkipSmtAfterPush}), and each
 * part stays a separate switch.
 */
final class ExcludeSiblings implements BalancePass {

  private final Topology topology;

  ExcludeSiblings(Topology topology) {
    this.topology = topology;
  }

  @Override
  public void narrowSourceCandidates(
      SchedDomain sd, BalancePassState pass, MutableCpuMask candidates) {
    if (!pass.pushed() || sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY)) {
      return;
    }
    CpuMask destinations = pass.pushDestinations();
    for (int dst = destinations.first(); dst != CpuMask.NO_CPU; dst = destinations.next(dst)) {
      candidates.removeAll(topology.smtSiblings(dst));
    }
  }
}
