package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;

/**
 * Task creation as {@code sched_fork()} + {@code wake_up_new_task()} do it: the new task's affinity
 * (its allowed CPUs that are online), its initial PELT averages, the fork placement ({@code
 * select_task_rq()} with {@code WF_FORK}, the slow path), the enqueue and the wakeup preemption
 * check on the chosen CPU.
 */
final class WakeUpNewTask {

  private final EngineContext ctx;
  private final ImmutableCpuMask online;
  private final int nrCpuIds;
  private final SelectTaskRq selectTaskRq;
  private final PeltUpdates pelt;
  private final FairClass fair;

  WakeUpNewTask(EngineContext ctx, SelectTaskRq selectTaskRq, PeltUpdates pelt, FairClass fair) {
    this.ctx = ctx;
    this.online = ctx.topology.onlineMask();
    this.nrCpuIds = ctx.topology.nrCpuIds();
    this.selectTaskRq = selectTaskRq;
    this.pelt = pelt;
    this.fair = fair;
  }

  /**
   * Creates a task forked on {@code parentCpu} by {@code parent} (null for the workload's initial
   * tasks) and returns its id. Runs in {@code parentCpu}'s context; a caller outside any event's
   * context runs that CPU's pending local reschedule afterwards.
   *
   * @throws IllegalArgumentException for an offline parent CPU or an affinity without an online CPU
   */
  int spawn(TaskSpec spec, TaskProgram program, int parentCpu, Task parent) {
    if (!online.test(parentCpu)) {
      throw new IllegalArgumentException(
          "parent CPU " + parentCpu + " of task " + spec.name() + " is not online");
    }
    ImmutableCpuMask allowed;
    if (spec.allowedCpus() == null) {
      allowed = online;
    } else {
      if (spec.allowedCpus().nrCpuIds() != nrCpuIds) {
        throw new IllegalArgumentException(
            "affinity of task "
                + spec.name()
                + " is "
                + spec.allowedCpus().nrCpuIds()
                + " CPUs wide; the machine has nrCpuIds "
                + nrCpuIds);
      }
      MutableCpuMask m = spec.allowedCpus().mutableCopy();
      m.andWith(online);
      if (m.isEmpty()) {
        throw new IllegalArgumentException(
            "affinity "
                + spec.allowedCpus().toCpuList()
                + " of task "
                + spec.name()
                + " contains no online CPU");
      }
      allowed = m.toImmutable();
    }
    int id = ctx.tasks.size();
    WorkClass workClass = spec.workClass() == null ? WorkClass.COMPUTE : spec.workClass();
    SchedPolicy policy = spec.policy() == null ? SchedPolicy.NORMAL : spec.policy();
    Task task = new Task(id, spec.name(), policy, spec.nice(), allowed, workClass, program);
    ctx.tasks.add(task);
    ctx.listener.taskCreated(ctx.now(), id, spec);
    task.cpu = parentCpu;
    if (parent != null) {
      task.recentUsedCpu = parent.cpu;
    }
    int previousContext = ctx.contextCpu;
    ctx.contextCpu = parentCpu;
    int cpu = selectTaskRq.selectTaskRq(task, parentCpu, parentCpu, SelectTaskRq.WF_FORK, parent);
    task.cpu = cpu;
    ctx.listener.taskWakeup(ctx.now(), id, parentCpu, parentCpu, cpu, true);
    CpuRunqueue rq = ctx.rqs[cpu];
    pelt.postInitUtilAvg(task, rq);
    task.state = TaskState.QUEUED;
    fair.enqueue(rq, task, true);
    fair.wakeupPreempt(rq, task);
    ctx.contextCpu = previousContext;
    return id;
  }

  /** Whether a spawn now runs outside any event's context (the run's start). */
  boolean outsideEventContext() {
    return ctx.contextCpu == CpuMask.NO_CPU;
  }
}
