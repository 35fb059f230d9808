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
import dev.schedlab.topology.Topology;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@value #ID}: schbench, the wakeup-latency workload of the SMT_BUDDY_ASSIST and SCHED_IDLE
 * threads. Each of {@code message_threads} message threads serves {@code workers} workers. A worker
 * posts itself to its message thread (waking it if it sleeps) and sleeps; the message thread wakes
 * every posted worker, stamping the time, then sleeps. A woken worker records its wakeup latency
 * (stamp to running again), sleeps {@code sleep} ("simulated networking"), runs {@code
 * request_work} and records its request latency (start of the sleep to end of the work), then posts
 * again. Latencies before {@code warmup} are not recorded. Message threads and workers share {@code
 * policy}: {@code idle} runs the benchmark under SCHED_IDLE ({@code chrt -i 0 schbench}), so that
 * every wakee is an idle-policy task and {@code choose_sched_idle_rq()} decides whether a CPU
 * running only SCHED_IDLE work counts as idle for it. That is one reading of the SCHED_IDLE-wakee
 * thread's schbench runs on Altra; the digest does not say which tasks ran under SCHED_IDLE there.
 *
 * <p>Metric {@code p99_wakeup_latency} in µs (lower is better); extras: wakeup and request latency
 * p50/p99/p99.9 in µs, requests/s after the warm-up.
 */
@AutoService(WorkloadProvider.class)
public final class SchbenchWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.schbench";

  private static final long HIGHEST_LATENCY_NS = 1_000_000_000_000L;

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "schbench-like message threads waking workers that sleep, then compute a request;"
                  + " p99 wakeup latency")
          .source(
              "schbench (Chris Mason) worker/message thread loop; run on Hygon and Altra in the"
                  + " SMT_BUDDY_ASSIST and SCHED_IDLE threads (seeds-digest §3, §5); request work"
                  + " is an assumption")
          .parameter(ParameterSpec.ofInt("message_threads", "message threads (-m)", 2, 1, 100_000))
          .parameter(
              ParameterSpec.ofInt("workers", "workers per message thread (-t)", 8, 1, 1_000_000))
          .parameter(
              ParameterSpec.ofDuration(
                  "request_work",
                  "CPU work of one request, as time alone on a full CPU; assumption",
                  "100us",
                  1,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofDuration(
                  "sleep",
                  "sleep before each request (-s, schbench's default 100us); 0 = none",
                  "100us",
                  0,
                  1_000_000_000L))
          .parameter(
              ParameterSpec.ofDuration(
                  "warmup",
                  "latencies and requests before this time are not counted",
                  "0",
                  0,
                  1_000_000_000_000L))
          .parameter(WorkloadCpus.policyParameter("message threads and workers"))
          .parameter(WorkloadCpus.affinityParameter("message threads and workers"))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public SchbenchWorkloadProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    Parameters p = context.parameters();
    Topology topology = context.topology();
    CpuMask affinity = WorkloadCpus.affinity(ID, context);
    long tasks = (long) p.getInt("message_threads") * (p.getInt("workers") + 1);
    if (tasks > 10_000_000) {
      throw new IllegalArgumentException(
          ID + ": message_threads × (workers + 1) = " + tasks + " tasks; allowed at most 10000000");
    }
    return new Schbench(
        topology,
        affinity,
        p.getInt("message_threads"),
        p.getInt("workers"),
        p.getLong("request_work"),
        p.getLong("sleep"),
        p.getLong("warmup"),
        WorkloadCpus.policy(p.getString("policy")));
  }

  private static final class Schbench implements Workload {
    private final Topology topology;
    private final CpuMask affinity;
    private final int messageThreads;
    private final int workers;
    private final double requestWork;
    private final long sleepNs;
    private final long warmupNs;
    private final SchedPolicy policy;

    // Per message thread m: its task, whether it sleeps, and the workers posted to it.
    private final int[] messageTask;
    private final boolean[] messageSleeping;
    private final int[][] posted;
    private final int[] postedCount;
    // Per worker w = m × workers + index: its task and when its message thread woke it.
    private final int[] workerTask;
    private final long[] wokenAtNs;

    private final Histogram wakeupLatency = new Histogram(HIGHEST_LATENCY_NS, 3);
    private final Histogram requestLatency = new Histogram(HIGHEST_LATENCY_NS, 3);
    private long requests;
    private long startNs;

    Schbench(
        Topology topology,
        CpuMask affinity,
        int messageThreads,
        int workers,
        double requestWork,
        long sleepNs,
        long warmupNs,
        SchedPolicy policy) {
      this.topology = topology;
      this.affinity = affinity;
      this.messageThreads = messageThreads;
      this.workers = workers;
      this.requestWork = requestWork;
      this.sleepNs = sleepNs;
      this.warmupNs = warmupNs;
      this.policy = policy;
      this.messageTask = new int[messageThreads];
      this.messageSleeping = new boolean[messageThreads];
      this.posted = new int[messageThreads][workers];
      this.postedCount = new int[messageThreads];
      this.workerTask = new int[messageThreads * workers];
      this.wokenAtNs = new long[messageThreads * workers];
    }

    @Override
    public void start(WorkloadHost host) {
      startNs = host.nowNs();
      int[] order = WorkloadCpus.spreadOrder(topology, affinity);
      for (int m = 0; m < messageThreads; m++) {
        int parentCpu = order[m % order.length];
        messageTask[m] =
            host.spawn(
                new TaskSpec("schbench/msg/" + m, policy, 0, affinity, WorkClass.COMPUTE),
                new MessageThread(m),
                parentCpu);
        for (int i = 0; i < workers; i++) {
          int w = m * workers + i;
          host.spawn(
              new TaskSpec("schbench/worker/" + w, policy, 0, affinity, WorkClass.COMPUTE),
              new Worker(m, w),
              parentCpu);
        }
      }
    }

    private void record(Histogram histogram, long now, long latencyNs) {
      if (now >= warmupNs) {
        histogram.recordValue(Math.min(Math.max(latencyNs, 0), HIGHEST_LATENCY_NS));
      }
    }

    /** Wakes every worker posted to it, then sleeps until a worker posts again. */
    private final class MessageThread implements TaskProgram {
      private final int m;

      MessageThread(int m) {
        this.m = m;
      }

      @Override
      public void next(TaskControl control) {
        // The engine may run a new task's first step inside spawn(), before spawn() returns its
        // id to start(): each program records its own id.
        messageTask[m] = control.taskId();
        long now = control.nowNs();
        int[] list = posted[m];
        for (int i = 0; i < postedCount[m]; i++) {
          wokenAtNs[list[i]] = now;
          control.wake(workerTask[list[i]]);
        }
        postedCount[m] = 0;
        messageSleeping[m] = true;
        control.block();
      }
    }

    /** Post, wait, sleep, compute, record; forever. */
    private final class Worker implements TaskProgram {
      private static final int STARTING = 0;
      private static final int WAITING = 1;
      private static final int SLEEPING = 2;
      private static final int COMPUTING = 3;

      private final int m;
      private final int w;
      private int state = STARTING;
      private long requestStartNs;

      Worker(int m, int w) {
        this.m = m;
        this.w = w;
      }

      @Override
      public void next(TaskControl control) {
        workerTask[w] = control.taskId();
        long now = control.nowNs();
        switch (state) {
          case WAITING -> {
            record(wakeupLatency, now, now - wokenAtNs[w]);
            requestStartNs = now;
            if (sleepNs > 0) {
              state = SLEEPING;
              control.sleep(sleepNs);
            } else {
              compute(control);
            }
          }
          case SLEEPING -> compute(control);
          case COMPUTING -> {
            if (now >= warmupNs) {
              requests++;
            }
            record(requestLatency, now, now - requestStartNs);
            post(control);
          }
          default -> post(control);
        }
      }

      private void compute(TaskControl control) {
        state = COMPUTING;
        control.run(requestWork);
      }

      private void post(TaskControl control) {
        posted[m][postedCount[m]++] = w;
        if (messageSleeping[m]) {
          messageSleeping[m] = false;
          control.wake(messageTask[m]);
        }
        state = WAITING;
        control.block();
      }
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      long measuredNs = simulatedNs - Math.max(startNs, warmupNs);
      Map<String, Double> extra = new LinkedHashMap<>();
      putPercentiles(extra, "wakeup", wakeupLatency);
      putPercentiles(extra, "request", requestLatency);
      extra.put("requests_per_s", measuredNs <= 0 ? 0 : requests * 1e9 / measuredNs);
      extra.put("wakeups", (double) wakeupLatency.getTotalCount());
      extra.put("tasks", (double) messageThreads * (workers + 1));
      return new WorkloadResult(
          "p99_wakeup_latency", percentileUs(wakeupLatency, 99), "us", false, extra);
    }

    private static void putPercentiles(Map<String, Double> extra, String name, Histogram h) {
      extra.put(name + "_p50_us", percentileUs(h, 50));
      extra.put(name + "_p99_us", percentileUs(h, 99));
      extra.put(name + "_p999_us", percentileUs(h, 99.9));
    }

    private static double percentileUs(Histogram histogram, double percentile) {
      return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1e3;
    }
  }
}
