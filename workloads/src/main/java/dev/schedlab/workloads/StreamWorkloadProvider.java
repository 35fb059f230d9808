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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@value #ID}: STREAM with OpenMP, the memory-bound workload of the SMT_BUDDY_ASSIST thread's
 * Hygon measurement. Memory-bound threads ({@link WorkClass#MEMORY}, default one per SMT core) each
 * own an equal slice of three arrays and run the four kernels in turn, Copy, Scale, Add, Triad,
 * with a spin-then-sleep barrier after each (the implicit barrier of {@code omp parallel for}).
 *
 * <p>Metric {@code throughput} in GB/s: bytes moved by completed slices / simulated ns. A work unit
 * moves {@code bytes_per_ns} bytes, so a thread alone moves {@code bytes_per_ns} GB/s; the engine's
 * performance model slows memory-bound threads that share a node's bandwidth, so the total
 * saturates near the node bandwidth when {@code bytes_per_ns} equals the machine's per-thread
 * bandwidth. Bytes per element as STREAM counts them: Copy and Scale 16, Add and Triad 24. Optional
 * housekeeping noise ({@code noise_*}, see {@link Disturbance}; default none): a real STREAM run
 * shares the machine with daemons and kworkers, which is what leaves a thread runnable behind
 * another task and gives newidle balancing something to pull.
 *
 * <p>With {@code ntimes} = 0 (the default) the kernels repeat from the first instant to the end of
 * the run: the steady state of a long run, every thread forked at once. With {@code ntimes} = N
 * &gt; 0 the workload runs STREAM's program as {@code stream.c} (v5.10) and libgomp run it:
 *
 * <ol>
 *   <li>team start ({@code gomp_team_start()}): thread 0, the master, creates the other threads one
 *       after another, {@code create_cost} of its CPU time per {@code pthread_create()}; each new
 *       thread is placed by the fork path from the master's CPU and waits at the team barrier at
 *       once (spin, then sleep), so the CPUs of the early threads are idle again when the later
 *       ones are placed, as on the real machine;
 *   <li>the initialisation loop (a, b, c written: 24 bytes per element), where the threads
 *       first-touch their slices: the engine puts a thread's pages on the node it first runs
 *       memory-bound work on (a spin is not);
 *   <li>the timing-granularity pass ({@code a[j] = 2.0E0 * a[j]}: 16 bytes per element);
 *   <li>N iterations of Copy, Scale, Add, Triad, each timed from the release of the previous
 *       barrier to its own release (the master's {@code mysecond()} around the parallel loop).
 * </ol>
 *
 * Then the threads exit, and the metric is STREAM's report: per kernel the best rate (bytes /
 * fastest time) over iterations 2..N (STREAM skips the first), the headline metric ({@code best
 * rate}, GB/s) being their mean. {@code best_*_gbs}, {@code avg_*_gbs} (bytes / mean time) and
 * {@code stream_done_ms} (when the last iteration ended; the run's duration if unfinished) are
 * extras; the run should last long enough for the program to end ({@code completed_iterations} =
 * N).
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
          .parameter(
              ParameterSpec.ofInt(
                  "threads",
                  "number of threads; 0 = one per SMT core of the affinity list",
                  0,
                  0,
                  1_000_000))
          .parameter(WorkloadCpus.affinityParameter("the threads"))
          .parameter(
              ParameterSpec.ofChoice(
                  "placement",
                  "pinned: thread i bound to one CPU, cores first; confined: every thread allowed on"
                      + " the whole affinity list, all forked from its first CPU and placed by fork"
                      + " balancing",
                  "confined",
                  "pinned",
                  "confined"))
          .parameter(
              ParameterSpec.ofLong(
                  "array_elements",
                  "elements per array (STREAM_ARRAY_SIZE; STREAM's default)",
                  10_000_000L,
                  1_000L,
                  1_000_000_000_000L))
          .parameter(
              ParameterSpec.ofDouble(
                  "bytes_per_ns",
                  "bytes one thread moves per work unit, i.e. GB/s alone at full speed; assumption,"
                      + " set it to the machine's thread_bandwidth_gbs (15 on most hw models)",
                  15,
                  0.01,
                  10_000))
          .parameter(SpinThenBlockBarrier.spinParameter())
          .parameter(SpinThenBlockBarrier.wakeFanoutParameter())
          .parameter(
              ParameterSpec.ofInt(
                  "ntimes",
                  "STREAM's NTIMES: 0 = the kernels repeat until the run ends (steady state, no"
                      + " start-up); N >= 2 = STREAM's program: team start, first touch, N"
                      + " iterations, best rates over iterations 2..N",
                  0,
                  0,
                  1_000_000))
          .parameter(
              ParameterSpec.ofDuration(
                  "create_cost",
                  "master's CPU time per pthread_create() when it starts the team (ntimes > 0);"
                      + " assumption: 20 us, a thread's create-run-join cost measured on an AMD Rome"
                      + " server (Lemire 2020, 'Cost of a thread in C++ under Linux'), an upper bound",
                  "20us",
                  0,
                  1_000_000_000L))
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
    CpuMask affinity = WorkloadCpus.affinity(ID, context);
    int threads =
        p.getInt("threads") == 0 ? WorkloadCpus.coreCount(topology, affinity) : p.getInt("threads");
    int ntimes = p.getInt("ntimes");
    if (ntimes == 1) {
      throw new IllegalArgumentException(
          ID
              + ": ntimes=1 leaves no timed iteration (STREAM skips the first); allowed: 0 (steady"
              + " state) or 2.."
              + 1_000_000);
    }
    return new Stream(
        topology,
        context.machine(),
        affinity,
        threads,
        p.getString("placement").equals("pinned"),
        p.getLong("array_elements"),
        p.getDouble("bytes_per_ns"),
        p.getLong("spin"),
        ntimes,
        p.getLong("create_cost"),
        p.getInt("wake_fanout"),
        Disturbance.from(ID, p, topology, context.random()));
  }

  private static final class Stream implements Workload, SpinThenBlockBarrier.Phases {
    /** Generations before the kernels with {@code ntimes} > 0: team start, init, timing pass. */
    private static final int PRELUDE = 3;

    private static final int TEAM_START = 0;
    private static final int INIT = 1;
    private static final int INIT_BYTES_PER_ELEMENT = 24;
    private static final int TIMING_PASS_BYTES_PER_ELEMENT = 16;

    private final Topology topology;
    private final MachineFacts facts;
    private final CpuMask affinity;
    private final int threads;
    private final boolean pinned;
    private final long arrayElements;
    private final double elementsPerThread;
    private final double bytesPerNs;
    private final int ntimes;
    private final int prelude;
    private final double createWork;
    private final SpinThenBlockBarrier barrier;
    private final Disturbance noise;
    private final long[] kernelNs = new long[KERNELS.length];
    private final long[] kernelRuns = new long[KERNELS.length];

    /** STREAM's timing over iterations 2..N: fastest and summed time per kernel. */
    private final long[] bestNs = new long[KERNELS.length];

    private final long[] timedNs = new long[KERNELS.length];
    private int timedIterations;
    private double bytes;
    private long lastReleaseNs;
    private long doneNs = -1;
    private int[] order;

    Stream(
        Topology topology,
        MachineFacts facts,
        CpuMask affinity,
        int threads,
        boolean pinned,
        long arrayElements,
        double bytesPerNs,
        long spinNs,
        int ntimes,
        long createCostNs,
        int wakeFanout,
        Disturbance noise) {
      this.topology = topology;
      this.facts = facts;
      this.affinity = affinity;
      this.threads = threads;
      this.pinned = pinned;
      this.arrayElements = arrayElements;
      this.elementsPerThread = arrayElements / (double) threads;
      this.bytesPerNs = bytesPerNs;
      this.ntimes = ntimes;
      this.prelude = ntimes > 0 ? PRELUDE : 0;
      this.createWork = createCostNs;
      this.barrier = new SpinThenBlockBarrier(threads, spinNs, this, wakeFanout);
      this.noise = noise;
      Arrays.fill(bestNs, Long.MAX_VALUE);
    }

    @Override
    public void start(WorkloadHost host) {
      lastReleaseNs = host.nowNs();
      order = WorkloadCpus.spreadOrder(topology, affinity);
      if (ntimes > 0) {
        TeamStart team = new TeamStart(threads, createWork, this::spec, barrier::thread);
        host.spawn(team.masterSpec(), team, order[0]);
      } else {
        for (int i = 0; i < threads; i++) {
          host.spawn(spec(i), barrier.thread(i), pinned ? order[i % order.length] : order[0]);
        }
      }
      noise.start(host, order[0]);
    }

    private TaskSpec spec(int i) {
      CpuMask allowed = pinned ? WorkloadCpus.only(topology, order[i % order.length]) : affinity;
      return new TaskSpec("stream/" + i, SchedPolicy.NORMAL, 0, allowed, WorkClass.MEMORY);
    }

    /** Bytes per element a thread's chunk of generation {@code generation} moves. */
    private int bytesPerElement(long generation) {
      if (generation >= prelude) {
        return BYTES_PER_ELEMENT[kernel(generation)];
      }
      if (generation == TEAM_START) {
        return 0;
      }
      return generation == INIT ? INIT_BYTES_PER_ELEMENT : TIMING_PASS_BYTES_PER_ELEMENT;
    }

    private int kernel(long generation) {
      return (int) ((generation - prelude) % KERNELS.length);
    }

    @Override
    public double work(int thread, long generation) {
      return elementsPerThread * bytesPerElement(generation) / bytesPerNs;
    }

    @Override
    public void chunkDone(int thread, long generation, long nowNs) {
      if (generation >= prelude) {
        bytes += elementsPerThread * bytesPerElement(generation);
      }
    }

    @Override
    public void released(long generation, long nowNs) {
      long took = nowNs - lastReleaseNs;
      lastReleaseNs = nowNs;
      if (generation < prelude) {
        return;
      }
      int kernel = kernel(generation);
      kernelNs[kernel] += took;
      kernelRuns[kernel]++;
      long iteration = (generation - prelude) / KERNELS.length;
      if (ntimes > 0 && iteration >= 1) {
        bestNs[kernel] = Math.min(bestNs[kernel], took);
        timedNs[kernel] += took;
        if (kernel == KERNELS.length - 1) {
          timedIterations++;
        }
      }
      if (finished(generation + 1)) {
        doneNs = nowNs;
      }
    }

    @Override
    public boolean finished(long generation) {
      return ntimes > 0 && generation >= prelude + (long) KERNELS.length * ntimes;
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("threads", (double) threads);
      long kernelGenerations = Math.max(0, barrier.generations() - prelude);
      extra.put("iterations", (double) (kernelGenerations / KERNELS.length));
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
      if (ntimes == 0) {
        double gbs = simulatedNs == 0 ? 0 : bytes / simulatedNs;
        return new WorkloadResult("throughput", gbs, "GB/s", true, extra);
      }
      return streamReport(extra, simulatedNs);
    }

    /** STREAM's own report: best and average rate per kernel over iterations 2..N. */
    private WorkloadResult streamReport(Map<String, Double> extra, long simulatedNs) {
      double sumBest = 0;
      for (int k = 0; k < KERNELS.length; k++) {
        double kernelBytes = (double) arrayElements * BYTES_PER_ELEMENT[k];
        double best = timedIterations == 0 ? 0 : kernelBytes / bestNs[k];
        extra.put("best_" + KERNELS[k] + "_gbs", best);
        extra.put(
            "avg_" + KERNELS[k] + "_gbs",
            timedIterations == 0 ? 0 : kernelBytes * timedIterations / timedNs[k]);
        sumBest += best;
      }
      extra.put(
          "completed_iterations",
          (double)
              Math.min(
                  ntimes,
                  (barrier.generations() - Math.min(barrier.generations(), prelude))
                      / KERNELS.length));
      extra.put("stream_done_ms", (doneNs < 0 ? simulatedNs : doneNs) / 1e6);
      return new WorkloadResult("best rate", sumBest / KERNELS.length, "GB/s", true, extra);
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
