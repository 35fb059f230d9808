package dev.schedlab.workloads;

import com.google.auto.service.AutoService;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
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
import java.util.function.IntFunction;

/**
 * {@value #ID}: the workload of the ILB thread's Vera measurement, {@code OMP_NUM_THREADS=88
 * OPENBLAS_LOOPS=10 OPENBLAS_PARAM_M=N=K=16384 ./benchmark/sgemm.goto}. {@code threads}
 * compute-bound threads (default one per SMT core of {@code affinity}).
 *
 * <p>By default ({@code wait=spin}) and with {@code wait=openmp} the threads run OpenBLAS's
 * threaded GEMM ({@link OpenBlasGemm}: the {@code gemm_driver()} grid of {@code
 * driver/level3/level3_thread.c}, a panel synchronisation per k-step, the call end of {@code
 * exec_blas()} in {@code driver/others/blas_server.c}); {@code wait=barrier} keeps the earlier
 * model, equal {@code chunk}s between {@link SpinThenBlockBarrier spin-then-sleep barriers}.
 *
 * <p>Metric {@code throughput} in FLOP/s: the FLOP of completed k-steps (or chunks × chunk (ns) ×
 * {@code clockHz} / 1e9 × {@code flopPerCycle}) over simulated seconds. One work unit is one ns of
 * a thread alone on a full CPU, so it is worth {@code clockHz} / 1e9 × {@code flopPerCycle} FLOP;
 * work still in progress at the end is not counted.
 */
@AutoService(WorkloadProvider.class)
public final class GemmWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.gemm";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "OpenBLAS sgemm calls back to back (sgemm.goto), one thread per SMT core of a node"
                  + " by default: an M x N thread grid, a panel sync per k-step, the call end"
                  + " waiting for the slowest thread; FLOP/s")
          .source(
              "the Vera GEMM run of the ILB thread (seeds-digest §1); OpenBLAS"
                  + " driver/level3/level3_thread.c (gemm_driver grid, inner_thread k-step"
                  + " flags), driver/others/blas_server.c (exec_blas, thread server),"
                  + " common_arm64.h (YIELDING: NOPs); wait=barrier: libgomp's"
                  + " gomp_barrier_wait")
          .parameter(
              ParameterSpec.ofInt(
                  "threads",
                  "number of threads; 0 = one per SMT core of the affinity list",
                  0,
                  0,
                  1_000_000))
          .parameter(
              ParameterSpec.ofCpuList(
                  WorkloadCpus.AFFINITY,
                  "CPUs the threads may use; empty = every CPU of the lowest NUMA node"
                      + " (0-87,176-263 on hw.vera)",
                  ""))
          .parameter(
              ParameterSpec.ofChoice(
                  "placement",
                  "pinned: thread i bound to one CPU, cores first (OMP_PROC_BIND=spread);"
                      + " confined: every thread allowed on the whole affinity list, all forked from"
                      + " its first CPU (as an OpenMP master forks its team) and placed by fork"
                      + " balancing",
                  "confined",
                  "pinned",
                  "confined"))
          .parameter(
              ParameterSpec.ofChoice(
                  "wait",
                  "spin: OpenBLAS pthreads build on arm64, every wait a spin (YIELDING is NOPs, no"
                      + " system call); openmp: OpenMP build, k-step waits spin, the call end spins"
                      + " gomp_spin then sleeps on a futex (libgomp); barrier: the earlier model,"
                      + " equal chunks between spin-then-sleep barriers (chunk, spin, wake_fanout)",
                  "spin",
                  "spin",
                  "openmp",
                  "barrier"))
          .parameter(ParameterSpec.ofLong("m", "OPENBLAS_PARAM_M: rows of C", 16384, 1, 1L << 30))
          .parameter(
              ParameterSpec.ofLong("n", "OPENBLAS_PARAM_N: columns of C", 16384, 1, 1L << 30))
          .parameter(
              ParameterSpec.ofLong(
                  "k", "OPENBLAS_PARAM_K: the inner dimension", 16384, 1, 1L << 30))
          .parameter(
              ParameterSpec.ofLong(
                  "gemm_q",
                  "GEMM_Q, the K blocking: K per k-step, each ending in a panel sync. Assumption:"
                      + " 512, giving 32 k-steps for K=16384 (the thread's analysis: 26-47)",
                  512,
                  1,
                  1L << 30))
          .parameter(
              ParameterSpec.ofDuration(
                  "gomp_spin",
                  "wait=openmp: libgomp's spin before the futex sleep at the call end. Assumption:"
                      + " 200us (GOMP_SPINCOUNT 300000 iterations, roughly 0.1-0.3 ms on aarch64)",
                  "200us",
                  0,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofDuration(
                  "chunk",
                  "wait=barrier: work per thread between barriers, as time alone on a full"
                      + " CPU",
                  "2ms",
                  1_000,
                  10_000_000_000L))
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
    CpuMask affinity =
        WorkloadCpus.affinity(
            ID,
            WorkloadCpus.AFFINITY,
            p.getString(WorkloadCpus.AFFINITY),
            topology,
            WorkloadCpus.firstNode(topology));
    int threads =
        p.getInt("threads") == 0 ? WorkloadCpus.coreCount(topology, affinity) : p.getInt("threads");
    boolean pinned = p.getString("placement").equals("pinned");
    String wait = p.getString("wait");
    if (wait.equals("barrier")) {
      return new Gemm(
          topology,
          context.machine(),
          affinity,
          threads,
          pinned,
          p.getLong("chunk"),
          p.getLong("spin"),
          p.getInt("wake_fanout"));
    }
    MachineFacts facts = context.machine();
    double flopPerWorkUnit = facts.clockHz() / 1e9 * facts.flopPerCycle();
    OpenBlasGemm gemm =
        new OpenBlasGemm(
            threads,
            p.getLong("m"),
            p.getLong("n"),
            p.getLong("k"),
            p.getLong("gemm_q"),
            flopPerWorkUnit,
            wait.equals("openmp") ? OpenBlasGemm.Wait.OPENMP : OpenBlasGemm.Wait.SPIN,
            p.getLong("gomp_spin"));
    return new Team(topology, affinity, threads, pinned, gemm);
  }

  /** Spawns the team, as {@link Gemm} does (the master's CPU first), around an OpenBLAS GEMM. */
  private static final class Team implements Workload {
    private final Topology topology;
    private final CpuMask affinity;
    private final int threads;
    private final boolean pinned;
    private final OpenBlasGemm gemm;

    Team(Topology topology, CpuMask affinity, int threads, boolean pinned, OpenBlasGemm gemm) {
      this.topology = topology;
      this.affinity = affinity;
      this.threads = threads;
      this.pinned = pinned;
      this.gemm = gemm;
    }

    @Override
    public void start(WorkloadHost host) {
      spawnTeam(host, topology, affinity, threads, pinned, gemm::thread);
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      double seconds = simulatedNs / 1e9;
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("threads", (double) threads);
      gemm.putStatistics(extra, simulatedNs);
      return new WorkloadResult(
          "throughput", seconds == 0 ? 0 : gemm.flopDone() / seconds, "FLOP/s", true, extra);
    }
  }

  private static void spawnTeam(
      WorkloadHost host,
      Topology topology,
      CpuMask affinity,
      int threads,
      boolean pinned,
      IntFunction<TaskProgram> program) {
    int[] order = WorkloadCpus.spreadOrder(topology, affinity);
    for (int i = 0; i < threads; i++) {
      int cpu = order[i % order.length];
      CpuMask allowed = pinned ? WorkloadCpus.only(topology, cpu) : affinity;
      host.spawn(
          new TaskSpec("gemm/" + i, SchedPolicy.NORMAL, 0, allowed, WorkClass.COMPUTE),
          program.apply(i),
          pinned ? cpu : order[0]);
    }
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
        Topology topology,
        MachineFacts facts,
        CpuMask affinity,
        int threads,
        boolean pinned,
        long chunkNs,
        long spinNs,
        int wakeFanout) {
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
      spawnTeam(host, topology, affinity, threads, pinned, barrier::thread);
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
