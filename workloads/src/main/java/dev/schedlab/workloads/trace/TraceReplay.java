package dev.schedlab.workloads.trace;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One replay of a {@link TraceModel}: the initial tasks are created at the start, each runs its
 * program, and forked tasks are created where their parent's program forks them. A wake step
 * releases its block; a task that reaches a block waits there until its waker's program has passed
 * the wake (at once when it already has), which is how a woken task waits for its waker to reach
 * the recorded point rather than for a wall-clock time. Every program, its task spec and the block
 * table are made before the run starts: a step allocates nothing.
 *
 * <p>Metric {@code time}: when the last task reached the end of its program (exited, or slept for
 * good as at the recording's end), in simulated seconds, lower is better. A replay that does not
 * finish in the run reports {@code progress} instead: the share of the recording's work done, in %,
 * higher is better.
 */
final class TraceReplay implements Workload {

  private final TraceModel model;
  private final List<TraceTask> tasks;
  private final TaskSpec[] specs;
  private final Program[] programs;
  private final int[] engineId;
  private final int[] waitingOn;
  private final boolean[] released;
  private final int[] blockOwner;
  private final int parentCpu;
  private final double totalWork;

  private int finished;
  private long lastFinishNs;
  private double workDone;
  private long edgeWakes;
  private long timedSleeps;

  TraceReplay(TraceModel model, Topology topology) {
    this.model = model;
    this.tasks = model.tasks();
    int n = tasks.size();
    this.specs = new TaskSpec[n];
    this.programs = new Program[n];
    this.engineId = new int[n];
    this.waitingOn = new int[n];
    Arrays.fill(engineId, -1);
    Arrays.fill(waitingOn, -1);
    int blocks = model.blocks();
    this.released = new boolean[blocks];
    this.blockOwner = new int[blocks];
    CpuMask online = topology.onlineMask();
    int[] onlineCpus = new int[online.weight()];
    int k = 0;
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      onlineCpus[k++] = cpu;
    }
    this.parentCpu = onlineCpus[0];
    for (int t = 0; t < n; t++) {
      TraceTask task = tasks.get(t);
      // A per-CPU kernel thread keeps its CPU; on a smaller machine the CPU number wraps.
      CpuMask allowed =
          task.pinnedCpu() < 0
              ? null
              : CpuMasks.of(topology.nrCpuIds(), onlineCpus[task.pinnedCpu() % onlineCpus.length]);
      specs[t] =
          new TaskSpec(task.name(), SchedPolicy.NORMAL, task.nice(), allowed, WorkClass.COMPUTE);
      programs[t] = new Program(t, task);
      for (int i = 0; i < task.length(); i++) {
        if (TraceOps.kind(task.op(i)) == TraceOps.BLOCK) {
          blockOwner[(int) TraceOps.argument(task.op(i))] = t;
        }
      }
    }
    this.totalWork = model.totalWork();
  }

  @Override
  public void start(WorkloadHost host) {
    for (int t = 0; t < tasks.size(); t++) {
      if (tasks.get(t).initial()) {
        CpuMask allowed = specs[t].allowedCpus();
        host.spawn(specs[t], programs[t], allowed == null ? parentCpu : allowed.first());
      }
    }
  }

  /** A traced task's program, stepping through its {@link TraceOps}. */
  private final class Program implements TaskProgram {
    private final int index;
    private final TraceTask task;
    private int pc;
    private boolean started;
    private boolean done;
    private long runWork;

    Program(int index, TraceTask task) {
      this.index = index;
      this.task = task;
    }

    @Override
    public void next(TaskControl control) {
      if (!started) {
        started = true;
        engineId[index] = control.taskId();
      }
      workDone += runWork;
      runWork = 0;
      while (pc < task.length()) {
        long op = task.op(pc);
        long argument = TraceOps.argument(op);
        switch (TraceOps.kind(op)) {
          case TraceOps.RUN -> {
            pc++;
            runWork = argument;
            control.run(argument);
            return;
          }
          case TraceOps.SLEEP -> {
            pc++;
            timedSleeps++;
            control.sleep(argument);
            return;
          }
          case TraceOps.BLOCK -> {
            if (!released[(int) argument]) {
              waitingOn[index] = (int) argument;
              control.block();
              return;
            }
            pc++;
          }
          case TraceOps.WAKE -> {
            pc++;
            int block = (int) argument;
            released[block] = true;
            int owner = blockOwner[block];
            if (waitingOn[owner] == block) {
              waitingOn[owner] = -1;
              edgeWakes++;
              control.wake(engineId[owner]);
            }
          }
          case TraceOps.SPAWN -> {
            pc++;
            control.spawn(specs[(int) argument], programs[(int) argument]);
          }
          case TraceOps.EXIT -> {
            pc = task.length();
            end(control.nowNs());
            control.exit();
            return;
          }
          default -> pc = task.length();
        }
      }
      end(control.nowNs());
      // The recording ended with the task asleep, or it had nothing more: it sleeps for good.
      control.block();
    }

    private void end(long nowNs) {
      if (!done) {
        done = true;
        finished++;
        lastFinishNs = Math.max(lastFinishNs, nowNs);
      }
    }
  }

  @Override
  public WorkloadResult result(long simulatedNs) {
    Map<String, Double> extra = new LinkedHashMap<>();
    TraceModel.Counts counts = model.counts();
    extra.put("tasks", (double) tasks.size());
    extra.put("bursts", (double) counts.bursts());
    extra.put("edges", (double) counts.edges());
    extra.put("timed_wakeups", (double) (counts.timedWakeups() + counts.sleepsWithoutWakeup()));
    extra.put("forks", (double) counts.forks());
    extra.put("exits", (double) counts.exits());
    extra.put("recorded_s", model.durationNs() / 1e9);
    extra.put("tasks_finished", (double) finished);
    extra.put("edge_wakes", (double) edgeWakes);
    extra.put("timed_sleeps", (double) timedSleeps);
    extra.put("work_done_fraction", totalWork == 0 ? 1 : workDone / totalWork);
    boolean done = finished == tasks.size();
    extra.put("completed", done ? 1.0 : 0.0);
    if (done) {
      extra.put(
          "replay_over_recorded",
          model.durationNs() == 0 ? 0 : lastFinishNs / (double) model.durationNs());
      return new WorkloadResult("time", lastFinishNs / 1e9, "s", false, extra);
    }
    return new WorkloadResult(
        "progress", totalWork == 0 ? 100 : 100 * workDone / totalWork, "%", true, extra);
  }
}
