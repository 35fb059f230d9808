package dev.schedlab.workloads;

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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * {@value #ID}: {@code make -j N}, the kernel build of the SCHED_IDLE thread. A make task forks
 * compile jobs, paying {@code fork_work} per fork, and keeps {@code j} of them in flight; it blocks
 * while {@code j} run and is woken by each job's exit (SIGCHLD). Make and its jobs share {@code
 * policy} and {@code nice}. Optional {@code background_load} SCHED_NORMAL threads, busy {@code
 * background_duty} of every {@code background_period}, compete for the same CPUs, so that a
 * SCHED_IDLE build has something to yield to.
 *
 * <p>With {@code pipeline} (the default) a job is the process tree of one Kbuild compile with
 * {@code gcc -pipe}. That is an assumption about the thread's build: arch/x86/Makefile passed
 * {@code -pipe} until commit 437e88ab8f9e ("x86/build: Remove -pipe from KBUILD_CFLAGS", 2020) and
 * several other architectures still do; a current x86 build runs {@code cc1} and {@code as} one
 * after the other unless the user adds {@code -pipe}. The job: a driver (the recipe's shell and the
 * gcc driver, {@code driver_work} of CPU) forks {@code cc1} and {@code as} connected by a pipe and
 * waits for both. {@code cc1} compiles for a lognormal amount of work (median {@code job_median},
 * log-space deviation {@code job_sigma}, drawn from the run's random stream in fork order, so every
 * variant builds the same jobs): {@code front_share} of it before its first output, then {@code
 * asm_writes} equal pieces, each followed by one write of assembly into the pipe. {@code as} reads
 * the writes one at a time, {@code as_share × work / asm_writes} of CPU each, and exits at end of
 * file. The pipe holds {@code pipe_buffers} writes; a write to a full pipe blocks {@code cc1} until
 * {@code as} reads. The pipe's wakeups are synchronous ({@code WF_SYNC}), as {@code pipe_write()}
 * and {@code pipe_read()} make them: a write into an empty pipe wakes a waiting {@code as}, a read
 * from a full pipe wakes a waiting {@code cc1} ({@code pipe_sync=false} makes them plain wakeups,
 * to isolate the mechanism). Exit notifications ({@code cc1}, {@code as} to the driver, the driver
 * to make) are plain wakeups: {@code select_task_rq_fair()} drops {@code WF_SYNC} for an exiting
 * waker. Without {@code pipeline} a job is one task that runs its work and exits (the model before
 * pipelines).
 *
 * <p>Simplifications: make is one process (Kbuild's recursive makes and their jobserver pipe are
 * not modelled), the shell and {@code fixdep} are folded into the driver's work, and {@code cc1}'s
 * output is spread evenly over its back end.
 *
 * <p>Metric {@code time} in s (lower is better): from the start until make has reaped the last job.
 * If the run ends first, the metric is {@code throughput} in jobs/s and extra {@code completed} is
 * 0. Extras count the pipe's behaviour: {@code as_sync_wakeups} (writes that woke {@code as}),
 * {@code as_wake_to_run_us_mean} (from such a write until {@code as} ran), {@code
 * cc1_full_pipe_blocks} and {@code job_ms_mean} (fork of the driver to its exit).
 */
@AutoService(WorkloadProvider.class)
public final class BuildWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.build";

  private static final int JOBS_PER_SLOT = 20;

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "make -j N: a parent forking compile jobs (gcc -pipe: driver, cc1 | as over a pipe"
                  + " with sync wakeups), N in flight, optionally SCHED_IDLE or niced, optionally"
                  + " against foreground load; build wall time")
          .source(
              "kernel build under SCHED_IDLE on a 2-socket Xeon and nice 19 make -j80 on Altra in"
                  + " the SCHED_IDLE-wakee thread (seeds-digest §5); pipe wakeups sync as in"
                  + " fs/pipe.c; gcc -pipe (x86 Kbuild dropped it in 437e88ab8f9e), job sizes and"
                  + " shares are assumptions")
          .parameter(
              ParameterSpec.ofInt(
                  "j",
                  "jobs in flight (-j); 0 = one per CPU of the affinity list",
                  0,
                  0,
                  1_000_000))
          .parameter(
              ParameterSpec.ofInt(
                  "jobs", "compile jobs in the build; 0 = 20 per job slot", 0, 0, 100_000_000))
          .parameter(
              ParameterSpec.ofDuration(
                  "job_median",
                  "median work of a job's compiler (cc1; the whole job without pipeline), as time"
                      + " alone on a full CPU; assumption, scaled down about 50x from ~1 s compiles",
                  "20ms",
                  1_000,
                  1_000_000_000_000L))
          .parameter(
              ParameterSpec.ofDouble(
                  "job_sigma",
                  "standard deviation of ln(job work); 0 = every job the median",
                  0.5,
                  0,
                  3))
          .parameter(
              ParameterSpec.ofDuration(
                  "fork_work",
                  "make's CPU work per job forked; 0 = free. Assumption: ~100 µs per fork against"
                      + " ~1 s compiles, scaled like the jobs, so one make keeps thousands in flight",
                  "10us",
                  0,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofBoolean(
                  "pipeline",
                  "jobs are gcc -pipe process trees (driver, cc1 | as); false = one task per job."
                      + " Assumption: x86 Kbuild passed -pipe until 437e88ab8f9e (2020)",
                  true))
          .parameter(
              ParameterSpec.ofDuration(
                  "driver_work",
                  "CPU work of the recipe's shell and the gcc driver per job before cc1 and as start;"
                      + " assumption: ~5 ms against ~1 s compiles, scaled like the jobs",
                  "100us",
                  1,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofDouble(
                  "as_share",
                  "as's CPU work as a share of cc1's; assumption (about a tenth; `gcc -pipe -time`"
                      + " prints both per file)",
                  0.1,
                  0.0001,
                  10))
          .parameter(
              ParameterSpec.ofDouble(
                  "front_share",
                  "share of cc1's work before its first output (parsing and whole-unit passes);"
                      + " assumption",
                  0.3,
                  0,
                  0.99))
          .parameter(
              ParameterSpec.ofInt(
                  "asm_writes",
                  "pipe writes of assembly per job; assumption: ~256 KiB of assembly written in 4 KiB"
                      + " stdio buffers",
                  64,
                  1,
                  1_000_000))
          .parameter(
              ParameterSpec.ofBoolean(
                  "pipe_sync",
                  "pipe wakeups are WF_SYNC, as pipe_write() and pipe_read() make them; false ="
                      + " plain wakeups (to isolate the sync mechanism)",
                  true))
          .parameter(
              ParameterSpec.ofInt(
                  "pipe_buffers",
                  "writes the pipe holds before a write blocks; default pipe of 16 pages, one 4 KiB"
                      + " write per page",
                  16,
                  1,
                  1_000_000))
          .parameter(WorkloadCpus.policyParameter("make and its jobs"))
          .parameter(ParameterSpec.ofInt("nice", "nice of make and its jobs", 0, -20, 19))
          .parameter(
              ParameterSpec.ofInt(
                  "background_load", "competing SCHED_NORMAL nice-0 threads", 0, 0, 1_000_000))
          .parameter(
              ParameterSpec.ofDouble(
                  "background_duty", "busy share of each competing thread's period", 0.5, 0.01, 1))
          .parameter(
              ParameterSpec.ofDuration(
                  "background_period",
                  "period of each competing thread: busy, then asleep",
                  "2ms",
                  10_000,
                  1_000_000_000L))
          .parameter(WorkloadCpus.affinityParameter("make, its jobs and the competing threads"))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public BuildWorkloadProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  /** The shape of one pipelined job. */
  private record PipelineShape(
      double driverWork,
      double asShare,
      double frontShare,
      int asmWrites,
      int pipeBuffers,
      boolean pipeSync) {}

  @Override
  public Workload create(WorkloadContext context) {
    Parameters p = context.parameters();
    CpuMask affinity = WorkloadCpus.affinity(ID, context);
    int slots = p.getInt("j") == 0 ? affinity.weight() : p.getInt("j");
    long jobs = p.getInt("jobs") == 0 ? (long) JOBS_PER_SLOT * slots : p.getInt("jobs");
    double period = p.getLong("background_period");
    double busy = Math.max(1, period * p.getDouble("background_duty"));
    long idle = Math.round(period - busy);
    PipelineShape shape =
        p.getBoolean("pipeline")
            ? new PipelineShape(
                p.getLong("driver_work"),
                p.getDouble("as_share"),
                p.getDouble("front_share"),
                p.getInt("asm_writes"),
                p.getInt("pipe_buffers"),
                p.getBoolean("pipe_sync"))
            : null;
    return new Build(
        affinity,
        slots,
        jobs,
        p.getLong("job_median"),
        p.getDouble("job_sigma"),
        p.getLong("fork_work"),
        shape,
        WorkloadCpus.policy(p.getString("policy")),
        p.getInt("nice"),
        new BackgroundLoad(p.getInt("background_load"), busy, idle),
        context.random());
  }

  private static final class Build implements Workload {
    private final CpuMask affinity;
    private final int slots;
    private final long jobs;
    private final double medianWork;
    private final double sigma;
    private final double forkWork;
    private final PipelineShape shape;
    private final SchedPolicy policy;
    private final int nice;
    private final BackgroundLoad background;
    private final RandomGenerator random;

    // Single-task job programs of exited jobs, reused by the next forks.
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

    // Pipe statistics.
    private long asSyncWakeups;
    private long asWakeToRunNs;
    private long asWakeToRunCount;
    private long cc1FullPipeBlocks;
    private double jobNsSum;

    Build(
        CpuMask affinity,
        int slots,
        long jobs,
        double medianWork,
        double sigma,
        double forkWork,
        PipelineShape shape,
        SchedPolicy policy,
        int nice,
        BackgroundLoad background,
        RandomGenerator random) {
      this.affinity = affinity;
      this.slots = slots;
      this.jobs = jobs;
      this.medianWork = medianWork;
      this.sigma = sigma;
      this.forkWork = forkWork;
      this.shape = shape;
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
      host.spawn(
          new TaskSpec("make", policy, nice, affinity, WorkClass.COMPUTE), new Make(), parentCpu);
    }

    private void inFlightChanges(long now, int delta) {
      inFlightNsIntegral += inFlight * (double) (now - lastChangeNs);
      lastChangeNs = now;
      inFlight += delta;
      maxInFlight = Math.max(maxInFlight, inFlight);
    }

    private TaskSpec spec(String name) {
      return new TaskSpec(name, policy, nice, affinity, WorkClass.COMPUTE);
    }

    /** A job is done: count it, tell make (SIGCHLD from an exiting task: not sync). */
    private void jobDone(TaskControl control, long forkedNs) {
      completed++;
      jobNsSum += control.nowNs() - forkedNs;
      inFlightChanges(control.nowNs(), -1);
      control.wake(makeTask, false);
    }

    /** Forks jobs until {@code j} are in flight; sleeps until one exits; exits when all did. */
    private final class Make implements TaskProgram {
      @Override
      public void next(TaskControl control) {
        // Its first step may run inside start()'s spawn(), before spawn() returns the id.
        makeTask = control.taskId();
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
        double work = Math.max(1, medianWork * Math.exp(sigma * random.nextGaussian()));
        int name = jobNames++;
        started++;
        inFlightChanges(control.nowNs(), 1);
        if (shape != null) {
          Pipeline job = new Pipeline(name, work, control.nowNs());
          job.driverTask = control.spawn(spec("gcc/" + name), job.driver);
          return;
        }
        Job job = nrFreeJobs > 0 ? freeJobs[--nrFreeJobs] : new Job(spec("cc/" + name));
        job.work = work;
        job.ran = false;
        job.forkedNs = control.nowNs();
        control.spawn(job.spec, job);
      }
    }

    /** One compile as a single task: run, then tell make and exit. */
    private final class Job implements TaskProgram {
      private final TaskSpec spec;
      private double work;
      private boolean ran;
      private long forkedNs;

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
        freeJobs[nrFreeJobs++] = this;
        jobDone(control, forkedNs);
        control.exit();
      }
    }

    /**
     * One compile as {@code gcc -pipe}: the driver, {@code cc1} and {@code as}, and the pipe
     * between the two.
     */
    private final class Pipeline {
      private final int name;
      private final double cc1Work;
      private final long forkedNs;
      final TaskProgram driver = new Driver();
      private final Cc1 cc1 = new Cc1();
      private final As as = new As();
      private int driverTask;
      private int cc1Task;
      private int asTask;

      // The pipe: writes not yet read, whether a reader or writer sleeps on it, end of file.
      private int queued;
      private boolean readerWaiting;
      private boolean writerWaiting;
      private boolean writeEndClosed;
      private long readerWokenNs = -1;

      Pipeline(int name, double cc1Work, long forkedNs) {
        this.name = name;
        this.cc1Work = cc1Work;
        this.forkedNs = forkedNs;
      }

      /** Shell and gcc driver: work, fork cc1 and as, reap both, exit. */
      private final class Driver implements TaskProgram {
        private boolean ran;
        private boolean forked;
        private int reaped;

        @Override
        public void next(TaskControl control) {
          if (!ran) {
            ran = true;
            control.run(shape.driverWork());
            return;
          }
          if (!forked) {
            forked = true;
            cc1Task = control.spawn(spec("cc1/" + name), cc1);
            asTask = control.spawn(spec("as/" + name), as);
            control.block();
            return;
          }
          // Woken by a child's exit (a wake that arrives while running is remembered).
          if (cc1.exited && as.exited && reaped == 0) {
            reaped = 2;
            jobDone(control, forkedNs);
            control.exit();
            return;
          }
          control.block();
        }
      }

      /** The compiler: front end, then per piece compile and write it into the pipe. */
      private final class Cc1 implements TaskProgram {
        private int written;
        private boolean computed;
        boolean exited;

        @Override
        public void next(TaskControl control) {
          if (!computed) {
            computed = true;
            double piece = cc1Work * (1 - shape.frontShare()) / shape.asmWrites();
            control.run(written == 0 ? cc1Work * shape.frontShare() + piece : piece);
            return;
          }
          if (queued == shape.pipeBuffers()) {
            // pipe_write() on a full pipe: sleep until the reader makes room.
            cc1FullPipeBlocks++;
            writerWaiting = true;
            control.block();
            return;
          }
          queued++;
          written++;
          computed = false;
          if (readerWaiting) {
            readerWaiting = false;
            readerWokenNs = control.nowNs();
            asSyncWakeups++;
            control.wake(asTask, shape.pipeSync());
          }
          if (written == shape.asmWrites()) {
            // Exit closes the write end (as, woken by this last write if it waited, sees end of
            // file after the data) and notifies the driver.
            exited = true;
            writeEndClosed = true;
            control.wake(driverTask, false);
            control.exit();
            return;
          }
          next(control);
        }
      }

      /** The assembler: read a write, assemble it; exit at end of file. */
      private final class As implements TaskProgram {
        boolean exited;

        @Override
        public void next(TaskControl control) {
          if (readerWokenNs >= 0) {
            asWakeToRunNs += control.nowNs() - readerWokenNs;
            asWakeToRunCount++;
            readerWokenNs = -1;
          }
          if (queued > 0) {
            queued--;
            if (writerWaiting) {
              // pipe_read() from a full pipe wakes the writer, synchronously.
              writerWaiting = false;
              control.wake(cc1Task, shape.pipeSync());
            }
            control.run(cc1Work * shape.asShare() / shape.asmWrites());
            return;
          }
          if (writeEndClosed) {
            exited = true;
            control.wake(driverTask, false);
            control.exit();
            return;
          }
          readerWaiting = true;
          control.block();
        }
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
      extra.put("job_ms_mean", completed == 0 ? 0 : jobNsSum / completed / 1e6);
      extra.put("as_sync_wakeups", (double) asSyncWakeups);
      extra.put(
          "as_wake_to_run_us_mean",
          asWakeToRunCount == 0 ? 0 : asWakeToRunNs / 1e3 / asWakeToRunCount);
      extra.put("cc1_full_pipe_blocks", (double) cc1FullPipeBlocks);
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
