package dev.schedlab.policies.ext.wake;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.DistributeCursor;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.WakeupContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.TaskView;

/**
 * The reviewer's alternative to the SMT_BUDDY_ASSIST RFC's burst threshold (seeds-digest.md §3):
 * the periodic balance pass samples the average runqueue depth of the root domain ({@code
 * totalNrRunning / activeCpuCount}; schedlab models one root domain); when the CPU chosen for a
 * waking or new task is deeper than {@code multiple} times that average, the task is placed by
 * rotating over its allowed, active CPUs with the waking CPU's {@code cpumask_any_distribute()}
 * cursor (the equivalent of {@code cpumask_any_and_distribute(p->cpus_ptr, cpu_active_mask)}), and
 * the overloaded CPU's periodic balance period is reset so the balancer looks at it soon.
 *
 * <p>The rule relies on no NOHZ state, needs no idle CPU and scales with the load, which were the
 * reviewer's three objections to the RFC. Until the first periodic balance there is no average and
 * the choice stands. Which CPU's balance period to reset is not spelled out in the thread; schedlab
 * resets the overloaded (chosen) CPU's, as the issue states.
 */
final class RqDepthDistribute implements WakeupPolicy {

  private final int multiple;
  private final Counter distributions;
  private long sampledNrRunning;
  private int sampledActiveCpus;

  RqDepthDistribute(int multiple, Counter distributions) {
    this.multiple = multiple;
    this.distributions = distributions;
  }

  @Override
  public void onPeriodicBalance(int cpu, CpuStateView state) {
    sampledNrRunning = state.totalNrRunning();
    sampledActiveCpus = state.activeCpuCount();
  }

  @Override
  public int selectFinal(TaskView task, int prevCpu, int chosenCpu, WakeupContext context) {
    if (!deeperThanAllowed(context.state().nrRunning(chosenCpu))) {
      return chosenCpu;
    }
    int target =
        nextAllowedActive(
            context.distributeCursor(context.wakingCpu()), task.allowedCpus(), context.state());
    if (target == CpuMask.NO_CPU) {
      return chosenCpu;
    }
    distributions.increment();
    context.actions().resetBalanceInterval(chosenCpu);
    return target;
  }

  /** {@code depth > multiple × total / active}, cross-multiplied so no rounding creeps in. */
  private boolean deeperThanAllowed(int depth) {
    return sampledActiveCpus > 0 && (long) depth * sampledActiveCpus > multiple * sampledNrRunning;
  }

  /**
   * Steps the cursor through {@code allowed} until it lands on an active CPU. The cursor ends on
   * the CPU returned, so whenever some allowed CPU is active this equals one {@code
   * anyAndDistribute(allowed, active)}, without needing an active mask in the state view.
   */
  private static int nextAllowedActive(
      DistributeCursor cursor, CpuMask allowed, CpuStateView state) {
    for (int tries = allowed.weight(); tries > 0; tries--) {
      int cpu = cursor.anyDistribute(allowed);
      if (cpu == CpuMask.NO_CPU) {
        return CpuMask.NO_CPU;
      }
      if (state.isActive(cpu)) {
        return cpu;
      }
    }
    return CpuMask.NO_CPU;
  }
}
