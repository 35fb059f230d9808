package dev.schedlab.spi;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;

/**
 * How to create a task: name, policy, nice, affinity and work class.
 *
 * @param name human name (e.g. {@code gemm/17})
 * @param policy scheduling policy
 * @param nice nice value -20..19 (ignored for SCHED_IDLE, whose weight is 3)
 * @param allowedCpus affinity ({@code sched_setaffinity}); null means every CPU
 * @param workClass what limits the task's progress
 */
public record TaskSpec(
    String name, SchedPolicy policy, int nice, CpuMask allowedCpus, WorkClass workClass) {

  public TaskSpec {
    if (nice < -20 || nice > 19) {
      throw new IllegalArgumentException("nice " + nice + " of task " + name + ": allowed -20..19");
    }
  }

  /** A nice-0 SCHED_NORMAL compute task allowed everywhere. */
  public static TaskSpec normal(String name) {
    return new TaskSpec(name, SchedPolicy.NORMAL, 0, null, WorkClass.COMPUTE);
  }
}
