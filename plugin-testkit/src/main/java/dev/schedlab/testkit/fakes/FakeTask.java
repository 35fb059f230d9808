package dev.schedlab.testkit.fakes;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.spi.view.WorkClass;
import java.util.Locale;

/**
 * A {@link TaskView} with a policy, a CPU and an affinity, at nice 0, neither running nor queued (a
 * task being placed), with no load of its own.
 *
 * @param id task id
 * @param policy scheduling policy
 * @param cpu {@code task_cpu(p)}: where it last ran
 * @param allowedCpus affinity
 */
public record FakeTask(int id, SchedPolicy policy, int cpu, CpuMask allowedCpus)
    implements TaskView {

  /** A task of {@code policy} last on the first CPU of {@code allowedCpus}. */
  public static FakeTask of(int id, SchedPolicy policy, CpuMask allowedCpus) {
    return new FakeTask(id, policy, allowedCpus.first(), allowedCpus);
  }

  /** A SCHED_NORMAL task last on {@code cpu}. */
  public static FakeTask normal(int id, int cpu, CpuMask allowedCpus) {
    return new FakeTask(id, SchedPolicy.NORMAL, cpu, allowedCpus);
  }

  @Override
  public String name() {
    return policy.name().toLowerCase(Locale.ROOT) + "-" + id;
  }

  @Override
  public int nice() {
    return 0;
  }

  /** {@code WEIGHT_IDLEPRIO} for SCHED_IDLE, else nice 0's 1024. */
  @Override
  public int weight() {
    return policy.isIdlePolicy() ? 3 : 1024;
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
