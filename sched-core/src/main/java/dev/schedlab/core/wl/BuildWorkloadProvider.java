package dev.schedlab.core.wl;

import com.google.auto.service.AutoService;
import dev.schedlab.cpumask.CpuMask;
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
import java.util.random.RandomGenerator;

/**
 * {@value #ID}: {@code make -j N}, the kernel build of the SCHED_IDLE thread. A make task forks
 * compile jobs, paying {@code fork_work} per fork, and keeps {@code j} of them in flight; it sleeps
 * while {@code j} run and is woken by each job's exit (SIGCHLD). A job runs a lognormal amount of
 * work (median {@code job_median}, log-space deviation {@code job_sigma}, drawn from the run's
 * random stream in fork order, so every variant builds the same jobs) and exits. Make and its jobs
 * share {@code policy} and {@code nice}. Optional {@code background_load} SCHED_NORMAL threads,
 * busy {@code background_duty} of every {@code background_period}, compete for the same CPUs, so
 * that a SCHED_IDLE build has something to yield to.
 *
 * <p>Metric {@code time} in s (lower is better): from the start until make has reaped the last job.
 * If the run ends first, the metric is {@code throughput} in jobs/s and extra {@code completed} is
 * 0.
 */
@AutoService(WorkloadProvider.class)
public final class BuildWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.build";

  private static final int JOBS_PER_SLOT = 20;

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "make -j N: a parent forking short compile jobs, N in flight, optionally SCHED_IDLE"
                  + " or niced, optionally against foreground load; build wall time")
          .source(
              "kernel build under SCHED_IDLE on a 2-socket Xeon and nice 19 make -j80 on Altra in"
                  + " the SCHED_IDLE-wakee thread (seeds-digest §5); job sizes are an assumption")
          .parameter(ParameterSpec.ofInt(
              "j", "jobs in flight (-j); 0 = one per CPU of the affinity list", 0, 0, 1_000_000))
          .parameter(ParameterSpec.ofInt(
              "jobs", "compile jobs in the build; 0 = 20 per job slot", 0, 0, 100_000_000))
          .parameter(ParameterSpec.ofDuration(
              "job_median", "median work of a job, as time alone on a full CPU; assumption",
              "20ms", 1_000, 1_000_000_000_000L))
          .parameter(ParameterSpec.ofDouble(
              "job_sigma", "standard deviation of ln(job work); 0 = every job the median", 0.5,
              0, 3))
          .parameter(ParameterSpec.ofDuration(
              "fork_work",
              "make's CPU work per job forked; 0 = free. Assumption: ~100 µs per fork against"
                  + " ~1 s compiles, scaled like the jobs, so one make keeps thousands in flight",
              "10us", 0, 1_000_000_000L))
          .parameter(WorkloadCpus.policyParameter("make and its jobs"))
          .parameter(ParameterSpec.ofInt("nice", "nice of make and its jobs", 0, -20, 19))
          .parameter(ParameterSpec.ofInt(
              "background_load", "competing SCHED_NORMAL nice-0 threads", 0, 0, 1_000_000))
          .parameter(ParameterSpec.ofDouble(
              "background_duty", "busy share of each competing thread's period", 0.5, 0.01, 1))
          .parameter(ParameterSpec.ofDuration(
              "background_period", "period of each competing thread: busy, then asleep", "2ms",
              10_000, 1_000_000_000L))
          .parameter(WorkloadCpus.affinityParameter("make, its jobs and the competing threads"))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public BuildWorkloadProvider() {}

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
    int slots = p.getInt("j") == 0 ? affinity.weight() : p.getInt("j");
    long jobs = p.getInt("jobs") == 0 ? (long) JOBS_PER_SLOT * slots : p.getInt("jobs");
    double period = p.getLong("background_period");
    double busy = Math.max(1, period * p.getDouble("background_duty"));
    long idle = Math.round(period - busy);
    return new Build(
        affinity, slots, jobs, p.getLong("job_median"), p.getDouble("job_sigma"),
        p.getLong("fork_work"), WorkloadCpus.policy(p.getString("policy")), p.getInt("nice"),
        new BackgroundLoad(p.getInt("background_load"), busy, idle), context.random());
  }

  private static final class Build implements Workload {
    private final CpuMask affinity;
    private final int slots;
    private final long jobs;
    private final double medianWork;
    private final double sigma;
    private final double forkWork;
    private final SchedPolicy policy;
    private final int nice;
    private final BackgroundLoad background;
    private final RandomGenerator random;

    // Job programs of exited jobs, reused by the next forks.
    private final Job[] freeJobs;
    private int nrFreeJobs;
    private int jobNames;

    private int makeTask;
    private long started;
    private long completed;
    private int inFlight;
    private int maxInFlight;
    private double inFlightNsIntegral;
    private long lastChangeNs;
    private long startNs;
    private long finishNs = -1;

    Build(
        CpuMask affinity, int slots, long jobs, double medianWork, double sigma,
        double forkWork, SchedPolicy policy, int nice, BackgroundLoad background,
        RandomGenerator random) {
      this.affinity = affinity;
      this.slots = slots;
      this.jobs = jobs;
      this.medianWork = medianWork;
      this.sigma = sigma;
      this.forkWork = forkWork;
      this.policy = policy;
      this.nice = nice;
      this.background = background;
      this.random = random;
      this.freeJobs = new Job[slots + 1];
    }

    @Override
    public void start(WorkloadHost host) {
      startNs = host.nowNs();
      lastChangeNs = startNs;
      int parentCpu = affinity.first();
      background.start(host, "fg-load", SchedPolicy.NORMAL, 0, affinity, parentCpu);
      makeTask = host.spawn(
          new TaskSpec("make", policy, nice, affinity, WorkClass.COMPUTE), new Make(), parentCpu);
    }

    private void inFlightChanges(long now, int delta) {
      inFlightNsIntegral += inFlight * (double) (now - lastChangeNs);
      lastChangeNs = now;
      inFlight += delta;
      maxInFlight = Math.max(maxInFlight, inFlight);
    }

    /** Forks jobs until {@code j} are in flight; sleeps until one exits; exits when all did. */
    private final class Make implements TaskProgram {
      @Override
      public void next(TaskControl control) {
        if (completed == jobs) {
          finishNs = control.nowNs();
          control.exit();
          return;
        }
        boolean forked = false;
        while (inFlight < slots && started < jobs) {
          fork(control);
          forked = true;
          if (forkWork > 0) {
            break;
          }
        }
        if (forked && forkWork > 0) {
          control.run(forkWork);
        } else {
          control.block();
        }
      }

      private void fork(TaskControl control) {
        Job job = nrFreeJobs > 0
            ? freeJobs[--nrFreeJobs]
            : new Job(new TaskSpec("cc/" + jobNames++, policy, nice, affinity, WorkClass.COMPUTE));
        job.work = Math.max(1, medianWork * Math.exp(sigma * random.nextGaussian()));
        job.ran = false;
        started++;
        inFlightChanges(control.nowNs(), 1);
        control.spawn(job.spec, job);
      }
    }

    /** One compile: run, then tell make and exit. */
    private final class Job implements TaskProgram {
      private final TaskSpec spec;
      private double work;
      private boolean ran;

      Job(TaskSpec spec) {
        this.spec = spec;
      }

      @Override
      public void next(TaskControl control) {
        if (!ran) {
          ran = true;
          control.run(work);
          return;
        }
        completed++;
        inFlightChanges(control.nowNs(), -1);
        freeJobs[nrFreeJobs++] = this;
        control.wake(makeTask);
        control.exit();
      }
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      boolean done = finishNs >= 0;
      long endNs = done ? finishNs : simulatedNs;
      long elapsedNs = endNs - startNs;
      double integral = inFlightNsIntegral + inFlight * (double) Math.max(0, endNs - lastChangeNs);
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("completed", done ? 1.0 : 0.0);
      extra.put("j", (double) slots);
      extra.put("jobs", (double) jobs);
      extra.put("jobs_done", (double) completed);
      extra.put("mean_jobs_in_flight", elapsedNs <= 0 ? 0 : integral / elapsedNs);
      extra.put("max_jobs_in_flight", (double) maxInFlight);
      extra.put("background_threads", (double) background.count());
      extra.put("background_cpu_s", background.workDone() / 1e9);
      if (done) {
        return new WorkloadResult("time", elapsedNs / 1e9, "s", false, extra);
      }
      double jobsPerSecond = elapsedNs <= 0 ? 0 : completed * 1e9 / elapsedNs;
      return new WorkloadResult("throughput", jobsPerSecond, "jobs/s", true, extra);
    }
  }
}
