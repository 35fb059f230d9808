package dev.schedlab.workloads;

import com.google.auto.service.AutoService;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
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
 * {@value #ID}: a GEMM-like OpenMP program, the workload of the ILB thread's Vera measurement.
 * {@code threads} compute-bound threads (default one per SMT core of {@code affinity}) each compute
 * a {@code chunk}, then meet at a {@link SpinThenBlockBarrier spin-then-sleep barrier}; the slowest
 * thread sets the pace.
 *
 * <p>Metric {@code throughput} in FLOP/s: completed chunks × chunk (ns) × {@code clockHz} / 1e9 ×
 * {@code flopPerCycle} / simulated seconds. One work unit is one ns of a thread alone on a full
 * CPU, so a chunk is worth that many cycles at the machine's clock and {@code flopPerCycle} FLOP
 * per cycle; chunks still in progress at the end are not counted.
 */
@AutoService(WorkloadProvider.class)
public final class GemmWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.gemm";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "GEMM-like bulk-synchronous threads, one per SMT core of a node by default,"
                  + " computing equal chunks between spin-then-sleep barriers; FLOP/s")
          .source(
              "the Vera GEMM run of the ILB thread (one CPU-bound task per SMT core within its"
                  + " affinity mask, seeds-digest §1); barrier as libgomp's gomp_barrier_wait")
          .parameter(ParameterSpec.ofInt(
              "threads", "number of threads; 0 = one per SMT core of the affinity list", 0, 0,
              1_000_000))
          .parameter(ParameterSpec.ofCpuList(
              WorkloadCpus.AFFINITY,
              "CPUs the threads may use; empty = every CPU of the lowest NUMA node"
                  + " (0-87,176-263 on hw.vera)",
              ""))
          .parameter(ParameterSpec.ofChoice(
              "placement",
              "pinned: thread i bound to one CPU, cores first (OMP_PROC_BIND=spread);"
                  + " confined: every thread allowed on the whole affinity list, all forked from"
                  + " its first CPU (as an OpenMP master forks its team) and placed by fork"
                  + " balancing",
              "confined", "pinned", "confined"))
          .parameter(ParameterSpec.ofDuration(
              "chunk", "work per thread between barriers, as time alone on a full CPU", "2ms",
              1_000, 10_000_000_000L))
          .parameter(SpinThenBlockBarrier.spinParameter())
          .parameter(SpinThenBlockBarrier.wakeFanoutParameter())
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public GemmWorkloadProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    Parameters p = context.parameters();
    Topology topology = context.topology();
    CpuMask affinity = WorkloadCpus.affinity(
        ID, WorkloadCpus.AFFINITY, p.getString(WorkloadCpus.AFFINITY), topology,
        WorkloadCpus.firstNode(topology));
    int threads =
        p.getInt("threads") == 0 ? WorkloadCpus.coreCount(topology, affinity) : p.getInt("threads");
    return new Gemm(
        topology, context.machine(), affinity, threads, p.getString("placement").equals("pinned"),
        p.getLong("chunk"), p.getLong("spin"), p.getInt("wake_fanout"));
  }

  private static final class Gemm implements Workload, SpinThenBlockBarrier.Phases {
    private final Topology topology;
    private final MachineFacts facts;
    private final CpuMask affinity;
    private final int threads;
    private final boolean pinned;
    private final long chunkNs;
    private final SpinThenBlockBarrier barrier;
    private long chunks;

    Gemm(
        Topology topology, MachineFacts facts, CpuMask affinity, int threads, boolean pinned,
        long chunkNs, long spinNs, int wakeFanout) {
      this.topology = topology;
      this.facts = facts;
      this.affinity = affinity;
      this.threads = threads;
      this.pinned = pinned;
      this.chunkNs = chunkNs;
      this.barrier = new SpinThenBlockBarrier(threads, spinNs, this, wakeFanout);
    }

    @Override
    public void start(WorkloadHost host) {
      int[] order = WorkloadCpus.spreadOrder(topology, affinity);
      for (int i = 0; i < threads; i++) {
        int cpu = order[i % order.length];
        CpuMask allowed = pinned ? WorkloadCpus.only(topology, cpu) : affinity;
        host.spawn(
            new TaskSpec("gemm/" + i, SchedPolicy.NORMAL, 0, allowed, WorkClass.COMPUTE),
            barrier.thread(i), pinned ? cpu : order[0]);
      }
    }

    @Override
    public double work(int thread, long generation) {
      return chunkNs;
    }

    @Override
    public void chunkDone(int thread, long generation, long nowNs) {
      chunks++;
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      double seconds = simulatedNs / 1e9;
      double flopPerWorkUnit = facts.clockHz() / 1e9 * facts.flopPerCycle();
      double flops = seconds == 0 ? 0 : chunks * (double) chunkNs * flopPerWorkUnit / seconds;
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("threads", (double) threads);
      extra.put("iterations", (double) barrier.generations());
      extra.put("iterations_per_s", seconds == 0 ? 0 : barrier.generations() / seconds);
      extra.put("chunks", (double) chunks);
      barrier.putStatistics(extra, simulatedNs);
      return new WorkloadResult("throughput", flops, "FLOP/s", true, extra);
    }
  }
}
