package dev.schedlab.policies.ext.fakes;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.spi.view.WorkClass;

/** A waking SCHED_NORMAL task at nice 0 that may run on {@code allowed}. */
public record FakeTask(int id, int cpu, CpuMask allowed) implements TaskView {

  @Override
  public String name() {
    return "task-" + id;
  }

  @Override
  public SchedPolicy policy() {
    return SchedPolicy.NORMAL;
  }

  @Override
  public int nice() {
    return 0;
  }

  @Override
  public int weight() {
    return 1024;
  }

  @Override
  public CpuMask allowedCpus() {
    return allowed;
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
