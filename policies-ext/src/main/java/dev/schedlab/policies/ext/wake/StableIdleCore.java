package dev.schedlab.policies.ext.wake;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.WakeupContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.topology.Topology;

/**
 * Andrea Righi's "sched/fair: Stabilize idle SMT core selection with asym-capacity" (LKML,
 * 2026-06-30; carried by NVIDIA as NV-Kernels PR #480, then reverted in favour of the NOHZ
 * idle-core fix, PR #523): when a wakeup picks a CPU on a fully idle SMT core, it takes the core's
 * first sibling allowed to the task instead ({@code cpumask_first_and(cpu_smt_mask(cpu), cpus)}),
 * so concurrent wakeups that see the same idle core pick the same CPU and every one-thread-per-core
 * team ends up on the first siblings. NVIDIA's later "Prefer PE0" series for Olympus (PR #572,
 * September 2026) prefers the same sibling.
 *
 * <p>Modelled as a final say over the mainline choice of a wakeup (not a fork, which takes the slow
 * path the patch leaves alone): if the chosen CPU and all its siblings are idle, the first allowed
 * sibling replaces it. The patch acts inside {@code select_idle_capacity()} only; with {@code
 * asymOnly} (the default) this plugin acts only on machines with asymmetric capacities, where that
 * function places wakeups, but also on choices made by the earlier fast paths (an idle target or
 * previous CPU on an idle core), which the patch would not move.
 */
final class StableIdleCore implements WakeupPolicy {

  private final Topology topology;
  private final boolean active;
  private final Counter moves;

  StableIdleCore(Topology topology, boolean asymOnly, Counter moves) {
    this.topology = topology;
    this.active = topology.isSmt() && (!asymOnly || topology.isAsymmetricCapacity());
    this.moves = moves;
  }

  @Override
  public int selectFinal(TaskView task, int prevCpu, int chosenCpu, WakeupContext context) {
    if (!active || context.isFork()) {
      return chosenCpu;
    }
    CpuStateView state = context.state();
    if (!state.isIdle(chosenCpu) || !state.isCoreIdle(chosenCpu)) {
      return chosenCpu;
    }
    int first = topology.smtSiblings(chosenCpu).firstAnd(task.allowedCpus());
    if (first == chosenCpu || first == CpuMask.NO_CPU) {
      return chosenCpu;
    }
    moves.increment();
    return first;
  }
}
