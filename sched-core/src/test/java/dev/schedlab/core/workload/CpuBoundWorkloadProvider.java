package dev.schedlab.core.workload;

import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code builtin.cpu-bound}: {@code tasks} threads that never sleep, each running chunks of {@code
 * chunk_us} work units forever; spawned round-robin from CPU 0 so placement is the fork path's.
 * Metric: work units completed per second (one unit = 1 ns of a thread alone on a 1024-capacity
 * CPU).
 */
public final class CpuBoundWorkloadProvider implements WorkloadProvider {

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder("builtin.cpu-bound", PluginKind.WORKLOAD)
          .description("CPU-bound threads that never sleep (engine tests and speed runs)")
          .source("built into sched-core")
          .parameter(
              ParameterSpec.ofInt(
                  "tasks", "number of threads; 0 = one per online CPU", 0, 0, 1_000_000))
          .parameter(
              ParameterSpec.ofInt(
                  "chunk_us",
                  "work per step, µs of a thread alone on a full CPU",
                  10_000,
                  1,
                  100_000_000))
          .parameter(ParameterSpec.ofInt("nice", "nice value of every thread", 0, -20, 19))
          .parameter(
              ParameterSpec.ofChoice(
                  "policy", "scheduling policy", "normal", "normal", "batch", "idle"))
          .parameter(
              ParameterSpec.ofChoice(
                  "work_class", "what limits progress", "compute", "compute", "memory"))
          .build();

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    Parameters p = context.parameters();
    int tasks = p.getInt("tasks") == 0 ? context.topology().cpuCount() : p.getInt("tasks");
    return new CpuBound(
        tasks,
        p.getInt("chunk_us") * 1_000.0,
        p.getInt("nice"),
        policy(p.getString("policy")),
        p.getString("work_class").equals("memory") ? WorkClass.MEMORY : WorkClass.COMPUTE,
        context.topology().onlineMask().first());
  }

  static SchedPolicy policy(String name) {
    return switch (name) {
      case "batch" -> SchedPolicy.BATCH;
      case "idle" -> SchedPolicy.IDLE;
      default -> SchedPolicy.NORMAL;
    };
  }

  private static final class CpuBound implements Workload {
    private final int tasks;
    private final double chunk;
    private final int nice;
    private final SchedPolicy policy;
    private final WorkClass workClass;
    private final int parentCpu;
    private long[] chunksDone;

    CpuBound(
        int tasks, double chunk, int nice, SchedPolicy policy, WorkClass workClass, int parentCpu) {
      this.tasks = tasks;
      this.chunk = chunk;
      this.nice = nice;
      this.policy = policy;
      this.workClass = workClass;
      this.parentCpu = parentCpu;
    }

    @Override
    public void start(WorkloadHost host) {
      chunksDone = new long[tasks];
      for (int i = 0; i < tasks; i++) {
        int index = i;
        host.spawn(
            new TaskSpec("cpu-bound/" + i, policy, nice, null, workClass),
            new LoopProgram(chunk, () -> chunksDone[index]++),
            parentCpu);
      }
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      long total = 0;
      long min = Long.MAX_VALUE;
      long max = 0;
      for (long done : chunksDone) {
        total += done;
        min = Math.min(min, done);
        max = Math.max(max, done);
      }
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("chunks", (double) total);
      extra.put("min_chunks_per_task", (double) (tasks == 0 ? 0 : min));
      extra.put("max_chunks_per_task", (double) max);
      return new WorkloadResult(
          "throughput", total * chunk * 1e9 / simulatedNs, "work/s", true, extra);
    }
  }

  /** Runs {@code chunk} work units per step forever, counting finished chunks. */
  static final class LoopProgram implements dev.schedlab.spi.TaskProgram {
    private final double chunk;
    private final Runnable onChunk;
    private boolean started;

    LoopProgram(double chunk, Runnable onChunk) {
      this.chunk = chunk;
      this.onChunk = onChunk;
    }

    @Override
    public void next(TaskControl control) {
      if (started) {
        onChunk.run();
      }
      started = true;
      control.run(chunk);
    }
  }
}
