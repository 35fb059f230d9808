package dev.schedlab.workloads;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import java.util.random.RandomGenerator;

/**
 * The housekeeping noise of a real machine beside a benchmark: {@code noise_tasks} ordinary
 * (SCHED_NORMAL, nice 0) tasks that each sleep for an exponentially distributed time of mean {@code
 * noise_period}, run {@code noise_work}, and sleep again, forever. They stand for what a machine
 * runs besides the benchmark — daemons, unbound kworkers, timer callbacks deferred to task context,
 * the benchmark's own helper threads — and they are placed by the scheduler like any task: a noise
 * task that wakes on a CPU whose cluster is busy lands on a benchmark thread's CPU and displaces it
 * for {@code noise_work}. The rate ({@code noise_tasks / noise_period} wakeups per second) and the
 * burst length are assumptions, not measurements; the default is no noise, so a workload without
 * these parameters behaves as before.
 *
 * <p>Per-CPU kthreads (pinned) are not modelled separately. An unbound noise task placed on a busy
 * CPU has the same first effect (the displaced thread waits behind it), but balancing may move the
 * noise task itself, which it cannot do with a pinned kthread. The exponential sleeps draw from the
 * workload's random stream, so runs are deterministic per seed.
 */
final class Disturbance {

  /** Parameter names. */
  static final String TASKS = "noise_tasks";

  static final String PERIOD = "noise_period";
  static final String WORK = "noise_work";
  static final String AFFINITY = "noise_affinity";

  private final Noise[] tasks;
  private final CpuMask allowed;

  private Disturbance(
      int count, long periodNs, double work, CpuMask allowed, RandomGenerator random) {
    this.tasks = new Noise[count];
    this.allowed = allowed;
    for (int i = 0; i < count; i++) {
      tasks[i] = new Noise(periodNs, work, random);
    }
  }

  /** Adds the four parameters to a workload's descriptor. */
  static PluginDescriptor.Builder addParameters(PluginDescriptor.Builder builder) {
    for (ParameterSpec spec : parameters()) {
      builder.parameter(spec);
    }
    return builder;
  }

  private static ParameterSpec[] parameters() {
    return new ParameterSpec[] {
      ParameterSpec.ofInt(
          TASKS,
          "housekeeping noise: unbound SCHED_NORMAL tasks that wake at random and run"
              + " briefly (0 = none)",
          0,
          0,
          100_000),
      ParameterSpec.ofDuration(
          PERIOD,
          "mean sleep of a noise task between bursts (exponential); assumption",
          "10ms",
          1_000,
          100_000_000_000L),
      ParameterSpec.ofDuration(
          WORK,
          "CPU work of one noise burst, as time alone on a full CPU; assumption",
          "50us",
          1,
          1_000_000_000L),
      ParameterSpec.ofCpuList(
          AFFINITY, "CPU list the noise tasks may run on (empty = every online CPU)", ""),
    };
  }

  /** The noise a workload's resolved parameters ask for, drawing from {@code random}. */
  static Disturbance from(
      String workloadId, Parameters p, Topology topology, RandomGenerator random) {
    CpuMask allowed =
        WorkloadCpus.affinity(
            workloadId, AFFINITY, p.getString(AFFINITY), topology, topology.onlineMask());
    return new Disturbance(p.getInt(TASKS), p.getLong(PERIOD), p.getLong(WORK), allowed, random);
  }

  /** Forks the noise tasks from {@code parentCpu}, named {@code noise/i}. */
  void start(WorkloadHost host, int parentCpu) {
    for (int i = 0; i < tasks.length; i++) {
      host.spawn(
          new TaskSpec("noise/" + i, SchedPolicy.NORMAL, 0, allowed, WorkClass.COMPUTE),
          tasks[i],
          parentCpu);
    }
  }

  int count() {
    return tasks.length;
  }

  /** Bursts completed by all noise tasks. */
  long bursts() {
    long sum = 0;
    for (Noise task : tasks) {
      sum += task.bursts;
    }
    return sum;
  }

  /** One noise task: sleep Exp(mean period), run the burst, again; it starts asleep. */
  private static final class Noise implements TaskProgram {
    private final long periodNs;
    private final double work;
    private final RandomGenerator random;
    private boolean sleeping;
    private boolean started;
    private long bursts;

    Noise(long periodNs, double work, RandomGenerator random) {
      this.periodNs = periodNs;
      this.work = work;
      this.random = random;
    }

    @Override
    public void next(TaskControl control) {
      if (sleeping) {
        sleeping = false;
        control.run(work);
        return;
      }
      if (started) {
        bursts++;
      }
      started = true;
      sleeping = true;
      control.sleep(Math.max(1, (long) (-Math.log(1 - random.nextDouble()) * periodNs)));
    }
  }
}
