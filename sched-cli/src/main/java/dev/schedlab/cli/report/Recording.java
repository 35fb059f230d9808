package dev.schedlab.cli.report;

import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.balance.BalanceOutcome;
import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The timeline of one run, recorded through the engine's {@link SimulationListener}: per-CPU busy
 * time in fixed time buckets (for the HTML heat map) and, when asked, an event log ({@link
 * Detail}): for the Chrome trace CPU slices (task, balancing, ILB pass), ILB kicks, migrations,
 * {@code nr_running} and the NOHZ idle mask weight; for the Perfetto trace the same without task
 * slices, plus context switches with the previous task's state, wakeups and every {@code
 * sched_balance_rq()} attempt, and the task names. The log is capped at {@link #maxEvents}; past
 * it, events are dropped and {@link #truncatedAtNs()} says from when. Not thread-safe: one run, one
 * thread.
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
  static final int SWITCH = 7;
  static final int WAKEUP = 8;
  static final int BALANCE_ATTEMPT = 9;

  /** What a recording logs besides the heat map. */
  public enum Detail {
    /** Nothing: the heat map only. */
    HEAT_MAP,
    /** CPU slices, ILB kicks, migrations and counters: the Chrome trace. */
    SLICES,
    /**
     * Balancing slices, ILB kicks, migrations, counters, context switches, wakeups, balancing
     * attempts and task names: the Perfetto trace.
     */
    SCHED
  }

  /** A switched-out task's state in {@link #SWITCH}: still runnable (preempted). */
  static final int PREV_RUNNABLE = 0;

  /** ... sleeping or blocked. */
  static final int PREV_SLEEPING = 1;

  /** ... exited. */
  static final int PREV_EXITED = 2;

  /** Default cap on logged events per run, about 30 MB of memory and 100 MB of JSON. */
  public static final int DEFAULT_MAX_EVENTS = 1_000_000;

  /** Heat-map columns. */
  public static final int BUCKETS = 100;

  private static final IdleType[] IDLE_TYPES = IdleType.values();
  private static final BalanceOutcome[] OUTCOMES = BalanceOutcome.values();

  private final int nrCpuIds;
  private final long durationNs;
  private final long bucketNs;
  private final boolean logEvents;
  private final boolean logSched;
  private final int maxEvents;

  /** Written by the run's thread only; see {@link #latestNs()}. */
  private long latestNs;

  private final long[] busyNs;
  private final int[] activity;
  private final int[] task;
  private final long[] since;
  private final long[] ilbPassAt;
  private final boolean[] ilbSlice;

  /** For {@link Detail#SCHED}: the task each CPU last ran (-1: idle), as sched_switch sees it. */
  private final int[] lastTask;

  /** For {@link Detail#SCHED}: task names by id, and each task's {@code PREV_*} state. */
  private final List<String> names = new ArrayList<>();

  private int[] taskState = new int[64];

  /** For {@link Detail#SCHED}: each task's nice value. */
  private int[] nice = new int[64];

  /** For {@link Detail#SCHED}: the CPU whose {@link #lastTask} each task is (-1: none). */
  private int[] lastCpuOf = new int[64];

  /** For {@link Detail#SCHED}: CPUs switched away from a task early (see {@link #leave}). */
  private final boolean[] leftEarly;

  private long splitSwitches;
  private long earlyLeaves;

  /** For {@link Detail#SCHED}: the run's sched domains, set by {@link #run}. */
  private SchedDomains domains;

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
   * @param detail what to keep in the event log besides the heat map
   * @param maxEvents cap on the log
   */
  public Recording(Topology topology, long durationNs, Detail detail, int maxEvents) {
    this.nrCpuIds = topology.nrCpuIds();
    this.durationNs = durationNs;
    this.bucketNs = Math.max(1, (durationNs + BUCKETS - 1) / BUCKETS);
    this.logEvents = detail != Detail.HEAT_MAP;
    this.logSched = detail == Detail.SCHED;
    this.maxEvents = maxEvents;
    this.lastTask = new int[logSched ? nrCpuIds : 0];
    this.leftEarly = new boolean[logSched ? nrCpuIds : 0];
    Arrays.fill(lastTask, -1);
    Arrays.fill(lastCpuOf, -1);
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
    if (logSched) {
      // The run's own domains, for naming the levels of balancing attempts.
      domains = SchedDomains.build(config.hardware().topology(), config.setup().domainOptions());
    }
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
  public void taskCreated(long nowNs, int taskId, TaskSpec spec) {
    if (!logSched) {
      return;
    }
    while (names.size() <= taskId) {
      names.add(null);
    }
    names.set(taskId, spec.name());
    if (taskId >= taskState.length) {
      int n = Math.max(taskId + 1, taskState.length * 2);
      int old = lastCpuOf.length;
      taskState = Arrays.copyOf(taskState, n);
      nice = Arrays.copyOf(nice, n);
      lastCpuOf = Arrays.copyOf(lastCpuOf, n);
      Arrays.fill(lastCpuOf, old, n, -1);
    }
    nice[taskId] = spec.nice();
  }

  @Override
  public void cpuActivity(long nowNs, int cpu, CpuActivity newActivity, int taskId) {
    latestNs = nowNs;
    if (logSched) {
      contextSwitch(nowNs, cpu, newActivity, taskId);
    }
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
    if (logSched && lastCpuOf[taskId] == fromCpu) {
      leave(nowNs, fromCpu);
    }
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

  @Override
  public void taskWakeup(
      long nowNs, int taskId, int wakingCpu, int prevCpu, int targetCpu, boolean fork) {
    if (!logSched) {
      return;
    }
    int last = lastCpuOf[taskId];
    if (last >= 0 && last != targetCpu) {
      leave(nowNs, last);
    }
    taskState[taskId] = PREV_RUNNABLE;
    // end carries the previous CPU and the fork flag.
    log(WAKEUP, nowNs, (fork ? 1L << 32 : 0) | prevCpu, wakingCpu, taskId, targetCpu);
  }

  @Override
  public void taskDequeued(long nowNs, int cpu, int taskId, boolean exited) {
    if (logSched) {
      taskState[taskId] = exited ? PREV_EXITED : PREV_SLEEPING;
    }
  }

  @Override
  public void balanceAttempt(
      long nowNs,
      int cpu,
      int dstCpu,
      int level,
      IdleType idle,
      BalanceOutcome outcome,
      int moved,
      int srcCpu) {
    if (!logSched) {
      return;
    }
    // end carries the level, idle type, outcome and moved count, 16 bits each.
    long packed =
        (long) Math.min(moved, 0xffff) << 48
            | (long) outcome.ordinal() << 32
            | (long) idle.ordinal() << 16
            | level;
    log(BALANCE_ATTEMPT, nowNs, packed, cpu, dstCpu, srcCpu);
  }

  /**
   * A {@code sched_switch} where the CPU's task changes (balancing phases in between are not
   * switches: the kernel runs them in the context of the task that was current).
   */
  private void contextSwitch(long nowNs, int cpu, CpuActivity newActivity, int taskId) {
    int prev = lastTask[cpu];
    int next =
        switch (newActivity) {
          case TASK -> taskId;
          case IDLE -> -1;
          default -> prev;
        };
    if (newActivity != CpuActivity.BALANCING) {
      if (leftEarly[cpu] && prev < 0 && next >= 0) {
        splitSwitches++;
      }
      leftEarly[cpu] = false;
    }
    if (next != prev) {
      switchTo(nowNs, cpu, next);
    }
  }

  private void switchTo(long nowNs, int cpu, int next) {
    int prev = lastTask[cpu];
    lastTask[cpu] = next;
    if (prev >= 0) {
      lastCpuOf[prev] = -1;
    }
    if (next >= 0) {
      lastCpuOf[next] = cpu;
    }
    log(SWITCH, nowNs, prev < 0 ? PREV_RUNNABLE : taskState[prev], cpu, next, prev);
  }

  /**
   * The task {@code cpu} last ran is about to be queued or run elsewhere while {@code cpu} has not
   * switched away from it yet: it switches to idle now. The kernel balances newidle inside {@code
   * __schedule()} with the previous task still current, and a wakeup of that task waits for the
   * switch to finish ({@code p->on_cpu}); the simulator lets the wakeup go first, so the switch is
   * moved up to it. Likewise the stopper of {@code active_load_balance_cpu_stop()} puts the running
   * task back and pushes it away before its CPU reschedules.
   */
  private void leave(long nowNs, int cpu) {
    leftEarly[cpu] = true;
    earlyLeaves++;
    switchTo(nowNs, cpu, -1);
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
      if (sliceKind != SLICE_TASK || !logSched) {
        log(sliceKind, start, nowNs, c, task[c], 0);
      }
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

  /**
   * Task id of a slice, chosen CPU of a kick, target of a migration, a counter's value, the next
   * task of a switch (-1 idle), the task of a wakeup, or the CPU a balancing attempt was for.
   */
  int value(int i) {
    return value[i];
  }

  /**
   * Task id of a migration, the previous task of a switch (-1 idle), the chosen CPU of a wakeup, or
   * the source CPU of a balancing attempt (-1 none).
   */
  int other(int i) {
    return other[i];
  }

  /** The switched-out task's {@code PREV_*} state of a switch. */
  int prevState(int i) {
    return (int) end[i];
  }

  /** The CPU a woken task last ran on (a fork: its parent's). */
  int wakeupPrevCpu(int i) {
    return (int) end[i];
  }

  /** Whether a wakeup is a fork's {@code wake_up_new_task()}. */
  boolean wakeupIsFork(int i) {
    return (end[i] >>> 32) != 0;
  }

  /** The domain level of a balancing attempt. */
  int attemptLevel(int i) {
    return (int) (end[i] & 0xffff);
  }

  IdleType attemptIdle(int i) {
    return IDLE_TYPES[(int) (end[i] >>> 16 & 0xffff)];
  }

  BalanceOutcome attemptOutcome(int i) {
    return OUTCOMES[(int) (end[i] >>> 32 & 0xffff)];
  }

  /** Tasks a balancing attempt moved (at most 65535). */
  int attemptMoved(int i) {
    return (int) (end[i] >>> 48);
  }

  /** {@code sd->name} of {@code cpu}'s domain at {@code level}, or {@code domain<level>}. */
  String domainName(int cpu, int level) {
    List<SchedDomain> chain = domains == null ? List.of() : domains.domains(cpu);
    return level < chain.size() ? chain.get(level).name() : "domain" + level;
  }

  /** The nice value of task {@code taskId} (0 unless {@link Detail#SCHED}). */
  int nice(int taskId) {
    return nice[taskId];
  }

  /** The tasks created, by id (empty unless {@link Detail#SCHED}). */
  List<String> taskNames() {
    return names;
  }

  /**
   * Switches that an early switch to idle ({@link #leave}) split in two: the CPU went from its old
   * task to idle early, then from idle to its next task, where a trace without the early switch has
   * one switch from the old task to the next.
   */
  public long splitSwitches() {
    return splitSwitches;
  }

  /** Early switches to idle ({@link #leave}). */
  public long earlyLeaves() {
    return earlyLeaves;
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
