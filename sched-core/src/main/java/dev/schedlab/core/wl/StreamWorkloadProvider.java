package dev.schedlab.core.wl;

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
 * {@value #ID}: STREAM with OpenMP, the memory-bound workload of the SMT_BUDDY_ASSIST thread's
 * Hygon measurement. Memory-bound threads ({@link WorkClass#MEMORY}, default one per SMT core)
 * each own an equal slice of three arrays and run the four kernels in turn, Copy, Scale, Add,
 * Triad, with a spin-then-sleep barrier after each (the implicit barrier of {@code omp parallel
 * for}).
 *
 * <p>Metric {@code throughput} in GB/s: bytes moved by completed slices / simulated ns. A work unit
 * moves {@code bytes_per_ns} bytes, so a thread alone moves {@code bytes_per_ns} GB/s; the engine's
 * performance model slows memory-bound threads that share a node's bandwidth, so the total
 * saturates near the node bandwidth when {@code bytes_per_ns} equals the machine's per-thread
 * bandwidth. Bytes per element as STREAM counts them: Copy and Scale 16, Add and Triad 24.
 * Optional housekeeping noise ({@code noise_*}, see {@link Disturbance}; default none): a real
 * STREAM run shares the machine with daemons and kworkers, which is what leaves a thread runnable
 * behind another task and gives newidle balancing something to pull.
 */
@AutoService(WorkloadProvider.class)
public final class StreamWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.stream";

  private static final String[] KERNELS = {"copy", "scale", "add", "triad"};
  private static final int[] BYTES_PER_ELEMENT = {16, 16, 24, 24};

  private static final PluginDescriptor DESCRIPTOR =
      Disturbance.addParameters(PluginDescriptor.builder(ID, PluginKind.WORKLOAD))
          .description(
              "STREAM-like memory-bound OpenMP threads running Copy/Scale/Add/Triad between"
                  + " barriers; GB/s")
          .source(
              "STREAM (McCalpin) as run in the SMT_BUDDY_ASSIST thread on Hygon 7447v"
                  + " (seeds-digest §3); bytes per element as STREAM counts them")
          .parameter(ParameterSpec.ofInt(
              "threads", "number of threads; 0 = one per SMT core of the affinity list", 0, 0,
              1_000_000))
          .parameter(WorkloadCpus.affinityParameter("the threads"))
          .parameter(ParameterSpec.ofChoice(
              "placement",
              "pinned: thread i bound to one CPU, cores first; confined: every thread allowed on"
                  + " the whole affinity list, all forked from its first CPU and placed by fork"
                  + " balancing",
              "confined", "pinned", "confined"))
          .parameter(ParameterSpec.ofLong(
              "array_elements", "elements per array (STREAM_ARRAY_SIZE; STREAM's default)",
              10_000_000L, 1_000L, 1_000_000_000_000L))
          .parameter(ParameterSpec.ofDouble(
              "bytes_per_ns",
              "bytes one thread moves per work unit, i.e. GB/s alone at full speed; assumption,"
                  + " set it to the machine's thread_bandwidth_gbs (15 on most hw models)",
              15, 0.01, 10_000))
          .parameter(ParameterSpec.ofDuration(
              "spin", "work a thread spins at the barrier before sleeping; 0 sleeps at once",
              "50us", 0, 1_000_000_000L))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public StreamWorkloadProvider() {}

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
        topology.onlineMask());
    int threads =
        p.getInt("threads") == 0 ? WorkloadCpus.coreCount(topology, affinity) : p.getInt("threads");
    return new Stream(
        topology, context.machine(), affinity, threads, p.getString("placement").equals("pinned"),
        p.getLong("array_elements"), p.getDouble("bytes_per_ns"), p.getLong("spin"),
        Disturbance.from(ID, p, topology, context.random()));
  }

  private static final class Stream implements Workload, SpinThenBlockBarrier.Phases {
    private final Topology topology;
    private final MachineFacts facts;
    private final CpuMask affinity;
    private final int threads;
    private final boolean pinned;
    private final long arrayElements;
    private final double elementsPerThread;
    private final double bytesPerNs;
    private final SpinThenBlockBarrier barrier;
    private final Disturbance noise;
    private final long[] kernelNs = new long[KERNELS.length];
    private final long[] kernelRuns = new long[KERNELS.length];
    private double bytes;
    private long lastReleaseNs;

    Stream(
        Topology topology, MachineFacts facts, CpuMask affinity, int threads, boolean pinned,
        long arrayElements, double bytesPerNs, long spinNs, Disturbance noise) {
      this.topology = topology;
      this.facts = facts;
      this.affinity = affinity;
      this.threads = threads;
      this.pinned = pinned;
      this.arrayElements = arrayElements;
      this.elementsPerThread = arrayElements / (double) threads;
      this.bytesPerNs = bytesPerNs;
      this.barrier = new SpinThenBlockBarrier(threads, spinNs, this);
      this.noise = noise;
    }

    @Override
    public void start(WorkloadHost host) {
      lastReleaseNs = host.nowNs();
      int[] order = WorkloadCpus.spreadOrder(topology, affinity);
      for (int i = 0; i < threads; i++) {
        int cpu = order[i % order.length];
        CpuMask allowed = pinned ? WorkloadCpus.only(topology, cpu) : affinity;
        host.spawn(
            new TaskSpec("stream/" + i, SchedPolicy.NORMAL, 0, allowed, WorkClass.MEMORY),
            barrier.thread(i), pinned ? cpu : order[0]);
      }
      noise.start(host, order[0]);
    }

    @Override
    public double work(int thread, long generation) {
      return elementsPerThread * BYTES_PER_ELEMENT[(int) (generation % KERNELS.length)]
          / bytesPerNs;
    }

    @Override
    public void chunkDone(int thread, long generation, long nowNs) {
      bytes += elementsPerThread * BYTES_PER_ELEMENT[(int) (generation % KERNELS.length)];
    }

    @Override
    public void released(long generation, long nowNs) {
      int kernel = (int) (generation % KERNELS.length);
      kernelNs[kernel] += nowNs - lastReleaseNs;
      kernelRuns[kernel]++;
      lastReleaseNs = nowNs;
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("threads", (double) threads);
      extra.put("iterations", (double) (barrier.generations() / KERNELS.length));
      for (int k = 0; k < KERNELS.length; k++) {
        double kernelBytes = kernelRuns[k] * (double) arrayElements * BYTES_PER_ELEMENT[k];
        extra.put(KERNELS[k] + "_gbs", kernelNs[k] == 0 ? 0 : kernelBytes / kernelNs[k]);
      }
      extra.put("peak_gbs", facts.memoryBandwidthPerNode() * nodesSpanned() / 1e9);
      barrier.putStatistics(extra, simulatedNs);
      if (noise.count() > 0) {
        extra.put("noise_tasks", (double) noise.count());
        extra.put("noise_bursts", (double) noise.bursts());
      }
      double gbs = simulatedNs == 0 ? 0 : bytes / simulatedNs;
      return new WorkloadResult("throughput", gbs, "GB/s", true, extra);
    }

    private int nodesSpanned() {
      int nodes = 0;
      for (int node : topology.nodes()) {
        if (topology.nodeMask(node).intersects(affinity)) {
          nodes++;
        }
      }
      return nodes;
    }
  }
}
