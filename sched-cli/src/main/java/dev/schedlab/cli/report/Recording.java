package dev.schedlab.cli.report;

import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.topology.Topology;
import java.util.Arrays;

/**
 * The timeline of one run, recorded through the engine's {@link SimulationListener}: per-CPU busy
 * time in fixed time buckets (for the HTML heat map) and, when asked, an event log for the Chrome
 * trace: CPU slices (task, balancing, ILB pass), ILB kicks, migrations, {@code nr_running} and the
 * NOHZ idle mask weight. The log is capped at {@link #maxEvents}; past it, events are dropped and
 * {@link #truncatedAtNs()} says from when. Not thread-safe: one run, one thread.
 */
public final class Recording implements SimulationListener {

  /** Event kinds in the log. */
  static final int SLICE_TASK = 0;

  static final int SLICE_BALANCE = 1;
  static final int SLICE_ILB = 2;
  static final int KICK = 3;
  static final int MIGRATION = 4;
  static final int NR_RUNNING = 5;
  static final int NOHZ_WEIGHT = 6;

  /** Default cap on logged events per run, about 30 MB of memory and 100 MB of JSON. */
  public static final int DEFAULT_MAX_EVENTS = 1_000_000;

  /** Heat-map columns. */
  public static final int BUCKETS = 100;

  private final int nrCpuIds;
  private final long durationNs;
  private final long bucketNs;
  private final boolean logEvents;
  private final int maxEvents;

  /** Written by the run's thread only; see {@link #latestNs()}. */
  private long latestNs;

  private final long[] busyNs;
  private final int[] activity;
  private final int[] task;
  private final long[] since;
  private final long[] ilbPassAt;
  private final boolean[] ilbSlice;

  private int size;
  private long[] time = new long[1024];
  private long[] end = new long[1024];
  private int[] kind = new int[1024];
  private int[] cpu = new int[1024];
  private int[] value = new int[1024];
  private int[] other = new int[1024];
  private long truncatedAtNs = -1;

  /**
   * @param topology the machine
   * @param durationNs the run's simulated time
   * @param logEvents whether to keep the event log (for a trace) or only the heat map
   * @param maxEvents cap on the log
   */
  public Recording(Topology topology, long durationNs, boolean logEvents, int maxEvents) {
    this.nrCpuIds = topology.nrCpuIds();
    this.durationNs = durationNs;
    this.bucketNs = Math.max(1, (durationNs + BUCKETS - 1) / BUCKETS);
    this.logEvents = logEvents;
    this.maxEvents = maxEvents;
    this.busyNs = new long[nrCpuIds * BUCKETS];
    this.activity = new int[nrCpuIds];
    this.task = new int[nrCpuIds];
    this.since = new long[nrCpuIds];
    this.ilbPassAt = new long[nrCpuIds];
    this.ilbSlice = new boolean[nrCpuIds];
    Arrays.fill(task, -1);
    Arrays.fill(ilbPassAt, -1);
  }

  /** Runs {@code config} with this recording attached and closes the open slices at the end. */
  public SimulationResult run(SimulationConfig config) {
    SimulationResult result = Simulations.run(config, this);
    long endNs = result.simulatedNs();
    for (int c = 0; c < nrCpuIds; c++) {
      close(c, endNs);
    }
    return result;
  }

  /**
   * The simulated time of the latest CPU activity change, for progress; read racily from another
   * thread (a stale value only delays the display).
   */
  public long latestNs() {
    return latestNs;
  }

  @Override
  public void cpuActivity(long nowNs, int cpu, CpuActivity newActivity, int taskId) {
    latestNs = nowNs;
    close(cpu, nowNs);
    activity[cpu] = newActivity.ordinal();
    task[cpu] = taskId;
    since[cpu] = nowNs;
    // The engine reports an ILB pass just before the balancing phase it occupies.
    ilbSlice[cpu] = newActivity == CpuActivity.BALANCING && ilbPassAt[cpu] == nowNs;
  }

  @Override
  public void ilbKick(long nowNs, int kickerCpu, int ilbCpu) {
    log(KICK, nowNs, nowNs, kickerCpu, ilbCpu, 0);
  }

  @Override
  public void ilbRun(long nowNs, int cpu, long durationNs) {
    ilbPassAt[cpu] = nowNs;
  }

  @Override
  public void migration(long nowNs, int taskId, int fromCpu, int toCpu) {
    log(MIGRATION, nowNs, nowNs, fromCpu, toCpu, taskId);
  }

  @Override
  public void nrRunning(long nowNs, int cpu, int nrRunning) {
    log(NR_RUNNING, nowNs, nowNs, cpu, nrRunning, 0);
  }

  @Override
  public void nohzIdleMask(long nowNs, int weight) {
    log(NOHZ_WEIGHT, nowNs, nowNs, -1, weight, 0);
  }

  private void close(int c, long nowNs) {
    long start = since[c];
    if (nowNs <= start) {
      return;
    }
    int current = activity[c];
    if (current != CpuActivity.IDLE.ordinal()) {
      addBusy(c, start, nowNs);
      int sliceKind =
          current == CpuActivity.TASK.ordinal()
              ? SLICE_TASK
              : ilbSlice[c] ? SLICE_ILB : SLICE_BALANCE;
      log(sliceKind, start, nowNs, c, task[c], 0);
    }
    since[c] = nowNs;
  }

  private void addBusy(int c, long from, long to) {
    long t = from;
    while (t < to) {
      int bucket = (int) Math.min(BUCKETS - 1, t / bucketNs);
      long bucketEnd = bucket == BUCKETS - 1 ? Long.MAX_VALUE : (bucket + 1) * bucketNs;
      long until = Math.min(to, bucketEnd);
      busyNs[c * BUCKETS + bucket] += until - t;
      t = until;
    }
  }

  private void log(int k, long startNs, long endNs, int c, int v, int o) {
    if (!logEvents) {
      return;
    }
    if (size == maxEvents) {
      if (truncatedAtNs < 0) {
        truncatedAtNs = startNs;
      }
      return;
    }
    if (size == time.length) {
      int n = Math.min(maxEvents, size * 2);
      time = Arrays.copyOf(time, n);
      end = Arrays.copyOf(end, n);
      kind = Arrays.copyOf(kind, n);
      cpu = Arrays.copyOf(cpu, n);
      value = Arrays.copyOf(value, n);
      other = Arrays.copyOf(other, n);
    }
    time[size] = startNs;
    end[size] = endNs;
    kind[size] = k;
    cpu[size] = c;
    value[size] = v;
    other[size] = o;
    size++;
  }

  /** Number of logged events. */
  int size() {
    return size;
  }

  long time(int i) {
    return time[i];
  }

  long end(int i) {
    return end[i];
  }

  int kind(int i) {
    return kind[i];
  }

  int cpu(int i) {
    return cpu[i];
  }

  /** Task id of a slice, chosen CPU of a kick, target of a migration, or a counter's value. */
  int value(int i) {
    return value[i];
  }

  /** Task id of a migration. */
  int other(int i) {
    return other[i];
  }

  /** When the log hit its cap, or -1 if it never did. */
  public long truncatedAtNs() {
    return truncatedAtNs;
  }

  /** The cap on the log. */
  public int maxEvents() {
    return maxEvents;
  }

  /** Fraction of bucket {@code bucket} that {@code cpu} was busy (task or balancing). */
  double busyFraction(int cpu, int bucket) {
    long start = bucket * bucketNs;
    long width = Math.min(durationNs, start + bucketNs) - start;
    return width <= 0 ? 0 : Math.min(1.0, (double) busyNs[cpu * BUCKETS + bucket] / width);
  }

  /** Number of buckets holding simulated time. */
  int bucketCount() {
    return (int) Math.min(BUCKETS, (durationNs + bucketNs - 1) / bucketNs);
  }
}
