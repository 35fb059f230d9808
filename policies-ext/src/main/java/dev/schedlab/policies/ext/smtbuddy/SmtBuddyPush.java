package dev.schedlab.policies.ext.smtbuddy;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SdFlags;

/**
 * Part 1 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3): at the start of {@code
 * sched_balance_domains()}, before any domain is balanced, a CPU with at least two runnable fair
 * tasks ({@code cfs.h_nr_runnable}) pushes tasks to an SMT sibling that is active and whose
 * runnable average is low enough: {@code src_runnable × 100 > sibling_runnable × imbalance_pct}.
 * Each push moves one queued task allowed on the sibling, as an active-balance style move that
 * ignores cache hotness, and is recorded in the pass so that parts 2 and 3 can protect it. The loop
 * repeats until the source has fewer than two runnable tasks, no sibling qualifies, or no task may
 * move to a qualifying sibling.
 *
 * <p>Only CPUs that have an SMT domain ({@code SD_SHARE_CPUCAPACITY} on their base domain) push, as
 * in the RFC. Siblings are tried in ascending CPU order; the RFC does not say which one wins when
 * several qualify on SMT4 or SMT8 cores. Every push changes both runnable averages (the task's
 * contribution moves with it), so the condition is re-read before each move. Each move lowers the
 * source's runnable count, so the loop ends after at most that many moves.
 */
final class SmtBuddyPush implements BalancePass {

  private final Topology topology;
  private final SchedDomains domains;
  private final CpuStateView state;
  private final long imbalancePct;
  private final Counter pushes;

  SmtBuddyPush(
      Topology topology,
      SchedDomains domains,
      CpuStateView state,
      int imbalancePct,
      Counter pushes) {
    this.topology = topology;
    this.domains = domains;
    this.state = state;
    this.imbalancePct = imbalancePct;
    this.pushes = pushes;
  }

  @Override
  public void beforeDomainWalk(BalancePassState pass, BalanceActions actions) {
    int src = pass.cpu();
    if (!hasSmtDomain(src)) {
      return;
    }
    CpuMask siblings = topology.smtSiblings(src);
    while (state.cfsNrRunnable(src) >= 2) {
      int dst = pushOnce(src, siblings, actions);
      if (dst == CpuMask.NO_CPU) {
        return;
      }
      pass.recordPush(dst);
      pushes.increment();
    }
  }

  /** Moves one task to the first qualifying sibling that accepts one; the sibling or NO_CPU. */
  private int pushOnce(int src, CpuMask siblings, BalanceActions actions) {
    long srcRunnable = state.runnableAvg(src);
    for (int sibling = siblings.first();
        sibling != CpuMask.NO_CPU;
        sibling = siblings.next(sibling)) {
      if (sibling != src
          && state.isActive(sibling)
          && srcRunnable * 100 > state.runnableAvg(sibling) * imbalancePct
          && actions.migrateOneTask(src, sibling)) {
        return sibling;
      }
    }
    return CpuMask.NO_CPU;
  }

  private boolean hasSmtDomain(int cpu) {
    SchedDomain base = domains.baseDomain(cpu);
    return base != null && base.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY);
  }
}
