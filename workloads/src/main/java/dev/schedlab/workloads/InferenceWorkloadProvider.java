package dev.schedlab.workloads;

import com.google.auto.service.AutoService;
import dev.schedlab.cpumask.CpuMask;
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
 * {@value #ID}: token generation as llama-batched-bench drives it, the workload of the Altra
 * measurements in the NOHZ and SCHED_IDLE threads. {@code threads} threads (default one per SMT
 * core) split each decode step's work equally and meet at a spin-then-sleep barrier (ggml's
 * threadpool barrier); each step yields one token per parallel sequence. Optional SCHED_IDLE
 * background threads run forever behind them.
 *
 * <p>The default barrier (spin 50 µs, then sleep) is libgomp's, as an OpenMP build of llama.cpp
 * uses. ggml's own threadpool is different: between the ops of a graph its threads meet at {@code
 * ggml_barrier()}, a pure spin on an atomic counter, and between graphs they poll {@code 1024 × 128
 * × poll} rounds ({@code poll} = 50 by default) before waiting on a condition variable, so in a
 * steady decode no thread sleeps; {@code spin=1s} with a {@code step_work} of one op (for example
 * {@code 4ms}) models that (each "step" is then one op, so the metric counts ops × {@code
 * sequences}: compare such runs only with each other). Optional housekeeping noise ({@code
 * noise_*}, see {@link Disturbance}) displaces threads; none by default.
 *
 * <p>With {@code create_cost} &gt; 0 the pool starts as {@code ggml_threadpool_new()} starts it
 * (see {@link TeamStart}): thread 0 creates the others one after another, each placed by the fork
 * path and waiting for the whole pool (spin, then sleep) before the first step. With 0 (the
 * default) every thread is forked at the first instant.
 *
 * <p>Metric {@code throughput} in tokens/s: completed steps × {@code sequences} / simulated
 * seconds.
 */
@AutoService(WorkloadProvider.class)
public final class InferenceWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.inference";

  private static final double BACKGROUND_CHUNK = 1_000_000;

  private static final PluginDescriptor DESCRIPTOR =
      Disturbance.addParameters(
              PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
                  .description(
                      "llama-batched-bench-like decode: threads split each token step's work equally"
                          + " and meet at a barrier, optional SCHED_IDLE background; tokens/s")
                  .source(
                      "llama-batched-bench runs on Ampere Altra in the NOHZ and SCHED_IDLE threads"
                          + " (seeds-digest §4, §5); step work is an assumption")
                  .parameter(
                      ParameterSpec.ofInt(
                          "threads",
                          "number of threads (-t); 0 = one per SMT core of the affinity list",
                          0,
                          0,
                          1_000_000))
                  .parameter(WorkloadCpus.affinityParameter("the threads"))
                  .parameter(
                      ParameterSpec.ofDuration(
                          "step_work",
                          "work of one decode step summed over threads, as time alone on a full CPU;"
                              + " assumption",
                          "40ms",
                          1_000,
                          100_000_000_000L))
                  .parameter(
                      ParameterSpec.ofInt(
                          "sequences",
                          "parallel sequences (-npl): tokens produced per step",
                          8,
                          1,
                          65_536))
                  .parameter(SpinThenBlockBarrier.spinParameter())
                  .parameter(WorkloadCpus.policyParameter("the inference threads"))
                  .parameter(
                      ParameterSpec.ofChoice(
                          "work_class",
                          "what limits the threads: compute, or memory bandwidth (decode of a"
                              + " large model)",
                          "compute",
                          "compute",
                          "memory"))
                  .parameter(
                      ParameterSpec.ofInt(
                          "background",
                          "SCHED_IDLE threads that never sleep, allowed on every CPU",
                          0,
                          0,
                          1_000_000))
                  .parameter(
                      ParameterSpec.ofDuration(
                          "create_cost",
                          "thread 0's CPU time per pthread_create() when it starts the pool one thread after"
                              + " another; 0 = all threads forked at the first instant. Assumption when set:"
                              + " 200us is a thread's create-run-join cost measured on an Ampere server"
                              + " (Lemire 2020, 'Cost of a thread in C++ under Linux')",
                          "0",
                          0,
                          1_000_000_000L)))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public InferenceWorkloadProvider() {}

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
    return new Inference(
        topology,
        affinity,
        threads,
        p.getLong("step_work") / (double) threads,
        p.getInt("sequences"),
        p.getLong("spin"),
        WorkloadCpus.policy(p.getString("policy")),
        p.getString("work_class").equals("memory") ? WorkClass.MEMORY : WorkClass.COMPUTE,
        new BackgroundLoad(p.getInt("background"), BACKGROUND_CHUNK, 0),
        Disturbance.from(ID, p, topology, context.random()),
        p.getLong("create_cost"));
  }

  private static final class Inference implements Workload, SpinThenBlockBarrier.Phases {
    private final Topology topology;
    private final CpuMask affinity;
    private final int threads;
    private final double workPerThread;
    private final int sequences;
    private final SchedPolicy policy;
    private final WorkClass workClass;
    private final BackgroundLoad background;
    private final Disturbance noise;
    private final SpinThenBlockBarrier barrier;
    private final double createWork;

    /** Generations before the first step: 1 (the pool start) with a team start, else 0. */
    private final int prelude;

    Inference(
        Topology topology,
        CpuMask affinity,
        int threads,
        double workPerThread,
        int sequences,
        long spinNs,
        SchedPolicy policy,
        WorkClass workClass,
        BackgroundLoad background,
        Disturbance noise,
        long createCostNs) {
      this.topology = topology;
      this.affinity = affinity;
      this.threads = threads;
      this.workPerThread = workPerThread;
      this.sequences = sequences;
      this.policy = policy;
      this.workClass = workClass;
      this.background = background;
      this.noise = noise;
      this.barrier = new SpinThenBlockBarrier(threads, spinNs, this);
      this.createWork = createCostNs;
      this.prelude = createCostNs > 0 ? 1 : 0;
    }

    @Override
    public void start(WorkloadHost host) {
      int[] order = WorkloadCpus.spreadOrder(topology, affinity);
      background.start(host, "idle-bg", SchedPolicy.IDLE, 0, null, order[0]);
      if (prelude > 0) {
        TeamStart team = new TeamStart(threads, createWork, this::spec, barrier::thread);
        host.spawn(team.masterSpec(), team, order[0]);
      } else {
        for (int i = 0; i < threads; i++) {
          host.spawn(spec(i), barrier.thread(i), order[0]);
        }
      }
      noise.start(host, order[0]);
    }

    private TaskSpec spec(int i) {
      return new TaskSpec("llama/" + i, policy, 0, affinity, workClass);
    }

    @Override
    public double work(int thread, long generation) {
      return generation < prelude ? 0 : workPerThread;
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      double seconds = simulatedNs / 1e9;
      long steps = Math.max(0, barrier.generations() - prelude);
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("threads", (double) threads);
      extra.put("steps", (double) steps);
      extra.put("step_mean_ms", steps == 0 ? 0 : simulatedNs / 1e6 / steps);
      extra.put("background_threads", (double) background.count());
      extra.put("background_cpu_s", background.workDone() / 1e9);
      extra.put("noise_tasks", (double) noise.count());
      extra.put("noise_bursts", (double) noise.bursts());
      barrier.putStatistics(extra, simulatedNs);
      double tokens = seconds == 0 ? 0 : steps * (double) sequences / seconds;
      return new WorkloadResult("throughput", tokens, "tokens/s", true, extra);
    }
  }
}
