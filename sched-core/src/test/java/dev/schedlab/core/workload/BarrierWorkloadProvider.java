package dev.schedlab.core.workload;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code builtin.gemm-barrier}: a GEMM-like bulk-synchronous program. One thread per SMT core (or
 * {@code threads}), each pinned per {@code affinity}, repeats: compute {@code work_us}, then wait
 * at a barrier; the last thread to arrive wakes the others. Metric: FLOP/s, taking one work unit as
 * one ns of a thread alone at the machine's clock and FLOP/cycle; extra: iterations/s.
 */
public final class BarrierWorkloadProvider implements WorkloadProvider {

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder("builtin.gemm-barrier", PluginKind.WORKLOAD)
          .description("GEMM-like threads computing between barriers (engine tests)")
          .source("built into sched-core; shape of the Vera GEMM run in the ILB thread")
          .parameter(
              ParameterSpec.ofInt(
                  "threads", "number of threads; 0 = one per SMT core", 0, 0, 1_000_000))
          .parameter(
              ParameterSpec.ofInt(
                  "work_us",
                  "compute per iteration, µs of a thread alone on a full CPU",
                  5_000,
                  1,
                  100_000_000))
          .parameter(
              ParameterSpec.ofChoice(
                  "affinity",
                  "core: thread i may run on core i's SMT siblings; cpu: only on its first thread;"
                      + " all: anywhere",
                  "core",
                  "core",
                  "cpu",
                  "all"))
          .build();

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    Parameters p = context.parameters();
    Topology topology = context.topology();
    int cores = countOnlineCores(topology);
    int threads = p.getInt("threads") == 0 ? cores : p.getInt("threads");
    return new Barrier(
        topology,
        context.machine(),
        threads,
        p.getInt("work_us") * 1_000.0,
        p.getString("affinity"));
  }

  private static int countOnlineCores(Topology topology) {
    CpuMask online = topology.onlineMask();
    int cores = 0;
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      if (topology.smtSiblings(cpu).firstAnd(online) == cpu) {
        cores++;
      }
    }
    return cores;
  }

  private static final class Barrier implements Workload {
    private final Topology topology;
    private final MachineFacts facts;
    private final int threads;
    private final double work;
    private final String affinity;
    private final int[] waiting;
    private int nrWaiting;
    private int arrived;
    private long generations;

    Barrier(Topology topology, MachineFacts facts, int threads, double work, String affinity) {
      this.topology = topology;
      this.facts = facts;
      this.threads = threads;
      this.work = work;
      this.affinity = affinity;
      this.waiting = new int[threads];
    }

    @Override
    public void start(WorkloadHost host) {
      CpuMask online = topology.onlineMask();
      int[] firstThreads = new int[online.weight()];
      int cores = 0;
      for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
        if (topology.smtSiblings(cpu).firstAnd(online) == cpu) {
          firstThreads[cores++] = cpu;
        }
      }
      for (int i = 0; i < threads; i++) {
        int core = firstThreads[i % cores];
        CpuMask allowed =
            switch (affinity) {
              case "cpu" -> CpuMasks.of(topology.nrCpuIds(), core);
              case "all" -> null;
              default -> topology.smtSiblings(core);
            };
        host.spawn(
            new TaskSpec("gemm/" + i, SchedPolicy.NORMAL, 0, allowed, WorkClass.COMPUTE),
            new Worker(),
            core);
      }
    }

    /** One thread: compute, then the barrier. */
    private final class Worker implements TaskProgram {
      private boolean computed;

      @Override
      public void next(TaskControl control) {
        if (!computed) {
          computed = true;
          control.run(work);
          return;
        }
        arrived++;
        if (arrived == threads) {
          arrived = 0;
          generations++;
          for (int i = 0; i < nrWaiting; i++) {
            control.wake(waiting[i]);
          }
          nrWaiting = 0;
          control.run(work);
          return;
        }
        waiting[nrWaiting++] = control.taskId();
        computed = false;
        control.block();
      }
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      double seconds = simulatedNs / 1e9;
      double iterationsPerSecond = generations / seconds;
      double flopPerUnit = facts.clockHz() * facts.flopPerCycle() / 1e9;
      double flops = generations * (double) threads * work * flopPerUnit / seconds;
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("iterations_per_s", iterationsPerSecond);
      extra.put("iterations", (double) generations);
      return new WorkloadResult("throughput", flops, "FLOP/s", true, extra);
    }
  }
}
