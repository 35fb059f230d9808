package dev.schedlab.policies.ext.wake;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.WakeupContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.TaskView;

/**
 * Part 5 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3): after {@code select_task_rq_fair()} has
 * chosen a CPU, if that CPU already runs or queues at least {@code threshold} tasks ({@code
 * rq->nr_running}), the wakee goes instead to the first CPU of {@code nohz.idle_cpus_mask}, in
 * {@code for_each_cpu_wrap()} order from {@code chosen + 1}, that is idle ({@code idle_cpu()}) and
 * allowed by the task's affinity. With no such CPU the choice stands.
 *
 * <p>The NOHZ idle mask is updated lazily (a CPU leaves it on its next busy tick), so a CPU in it
 * may already be busy; that is why each candidate is tested for idleness. The reviewers' objections
 * (why depend on NOHZ, why only idle CPUs, why a static threshold) are what {@link
 * RqDepthDistribute} answers.
 */
final class BurstThreshold implements WakeupPolicy {

  private final int threshold;
  private final Counter redirects;

  BurstThreshold(int threshold, Counter redirects) {
    this.threshold = threshold;
    this.redirects = redirects;
  }

  @Override
  public int selectFinal(TaskView task, int prevCpu, int chosenCpu, WakeupContext context) {
    CpuStateView state = context.state();
    if (state.nrRunning(chosenCpu) < threshold) {
      return chosenCpu;
    }
    int target = firstIdleAllowedAfter(chosenCpu, state.nohzIdleMask(), task.allowedCpus(), state);
    if (target == CpuMask.NO_CPU) {
      return chosenCpu;
    }
    redirects.increment();
    return target;
  }

  /** The for_each_cpu_wrap(cpu, nohz & allowed, chosen + 1) walk, stopping at the first idle. */
  private static int firstIdleAllowedAfter(
      int chosenCpu, CpuMask nohzIdle, CpuMask allowed, CpuStateView state) {
    for (int cpu = nohzIdle.nextAnd(chosenCpu, allowed);
        cpu != CpuMask.NO_CPU;
        cpu = nohzIdle.nextAnd(cpu, allowed)) {
      if (state.isIdle(cpu)) {
        return cpu;
      }
    }
    for (int cpu = nohzIdle.firstAnd(allowed);
        cpu != CpuMask.NO_CPU && cpu <= chosenCpu;
        cpu = nohzIdle.nextAnd(cpu, allowed)) {
      if (state.isIdle(cpu)) {
        return cpu;
      }
    }
    return CpuMask.NO_CPU;
  }
}
