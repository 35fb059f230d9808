package dev.schedlab.policies.fair.testing;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.spi.view.WorkClass;

/**
 * A {@link TaskView} with a policy and an affinity; everything else at neutral values.
 *
 * @param id task id
 * @param policy scheduling policy
 * @param allowedCpus affinity
 */
public record FakeTask(int id, SchedPolicy policy, CpuMask allowedCpus) implements TaskView {

  @Override
  public String name() {
    return policy.name().toLowerCase(java.util.Locale.ROOT) + "-" + id;
  }

  @Override
  public int nice() {
    return 0;
  }

  @Override
  public int weight() {
    return policy.isIdlePolicy() ? 3 : 1024;
  }

  @Override
  public int cpu() {
    return allowedCpus.first();
  }

  @Override
  public boolean isRunning() {
    return false;
  }

  @Override
  public boolean isQueued() {
    return false;
  }

  @Override
  public int utilAvg() {
    return 0;
  }

  @Override
  public long loadAvg() {
    return 0;
  }

  @Override
  public WorkClass workClass() {
    return WorkClass.COMPUTE;
  }
}
