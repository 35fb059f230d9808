package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.spi.view.WorkClass;

/**
 * One simulated task: the parts of {@code struct task_struct} and {@code struct sched_entity} the
 * engine models, plus the state of the workload program driving it. Mutable, owned by the engine;
 * policies see it through {@link TaskView}.
 */
final class Task implements TaskView {

  /**
   * {@code se->exec_start} of a task that has not run on its CPU: {@code __sched_fork()} and {@code
   * enqueue_entity()} with {@code ENQUEUE_MIGRATED} set it to 0, so that {@code task_hot()} does
   * not find a new or just migrated task hot. The kernel's 0 is "long ago" because {@code
   * rq_clock_task()} counts from boot; the simulated clock starts at 0, so the stamp is placed far
   * in the past instead.
   */
  static final long EXEC_START_COLD = Long.MIN_VALUE / 4;

  final int id;
  final String name;
  final SchedPolicy policy;
  final int nice;
  final int weight;
  final ImmutableCpuMask allowed;
  final int nrAllowed;
  final WorkClass workClass;
  final TaskProgram program;

  TaskState state = TaskState.NEW;

  /** {@code task_cpu(p)}. */
  int cpu;

  /** {@code p->se.avg}. */
  final PeltAverage avg = new PeltAverage();

  /** Whether {@link #avg} is currently accounted in its CPU's cfs_rq sums. */
  boolean attached;

  /** {@code p->se.avg.util_est} (the EWMA, without the UNCHANGED flag). */
  long utilEst;

  /** {@code se->vruntime} in weighted ns. */
  long vruntime;

  /** {@code se->deadline}. */
  long deadline;

  /**
   * Under {@link WakeupRule#CFS_6_1}: the vruntime the task had when it left a runqueue (sleep or
   * migration), and that runqueue's CPU (-1: none), from which its place relative to {@code
   * min_vruntime} is taken when it is enqueued again.
   */
  long leftVruntime;

  /** The CPU of {@link #leftVruntime}, -1 when the task has not left a runqueue. */
  int leftCpu = -1;

  /**
   * {@code se->vprot}: the vruntime below which the task, once picked, is protected from wakeup
   * preemption while it stays eligible ({@code set_protect_slice()}).
   */
  long vprot;

  /**
   * {@code se->exec_start}: set when the task starts running and advanced by every {@code
   * update_curr()}, so for a task that is not running it is when it last ran. A migration resets it
   * to {@link #EXEC_START_COLD}, as fork does.
   */
  long execStartNs = EXEC_START_COLD;

  /** {@code se->sum_exec_runtime}. */
  long sumExecNs;

  /** Work units completed over the task's life. */
  double workDone;

  /** Work units left in the current {@code run()} step. */
  double remainingWork;

  /** Whether the program must be asked for its next step when the task next runs. */
  boolean needsStep = true;

  /** A wake that arrived while the task was not blocked, consumed by its next block. */
  boolean pendingWake;

  /**
   * Whether the current step is a {@code TaskControl.spin()} that a wake ends early. A spin is a
   * poll loop on one cache line: compute work whatever the task's class (see {@link
   * #currentWorkClass()}).
   */
  boolean spinning;

  /** Whether the task counts now among its node's running memory-bound tasks. */
  boolean memoryCounted;

  /** Invalidates stale sleep timers. */
  long sleepToken;

  /**
   * Lost work so far by {@link dev.schedlab.spi.LostWork} cause, ns of solo progress ({@code
   * TaskControl.lostWork}).
   */
  final double[] lostWork = new double[dev.schedlab.spi.LostWork.COUNT];

  /** When the task last became runnable and waiting (for {@code run_delay}). */
  long waitStartNs;

  /** When the task was last woken, or -1 once its wakeup latency was recorded. */
  long wakeStampNs = -1;

  /**
   * NUMA node holding the task's memory, see {@code PerfStateView.memoryHomeNode}: set for a
   * memory-bound task when it first runs memory-bound work (first touch; a spin is not), -1 before;
   * pages never move afterwards.
   */
  int memoryHomeNode = -1;

  /** Distance of the last migration, see {@code PerfStateView.lastMigrationDistance}. */
  int lastMigrationDistance;

  /** CPU time since the last migration. */
  long runSinceMigrationNs;

  /** {@code p->recent_used_cpu}. */
  int recentUsedCpu = -1;

  /** {@code p->last_wakee}, a task id or -1. */
  int lastWakee = -1;

  /** {@code p->wakee_flips}. */
  int wakeeFlips;

  /** {@code p->wakee_flip_decay_ts}, jiffies. */
  long wakeeFlipDecayTs;

  Task(
      int id,
      String name,
      SchedPolicy policy,
      int nice,
      ImmutableCpuMask allowed,
      WorkClass workClass,
      TaskProgram program) {
    this.id = id;
    this.name = name;
    this.policy = policy;
    this.nice = nice;
    this.weight = LoadWeights.weightOf(policy, nice);
    this.allowed = allowed;
    this.nrAllowed = allowed.weight();
    this.workClass = workClass;
    this.program = program;
  }

  boolean isOnRq() {
    return state == TaskState.QUEUED || state == TaskState.RUNNING;
  }

  @Override
  public int id() {
    return id;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public SchedPolicy policy() {
    return policy;
  }

  @Override
  public int nice() {
    return nice;
  }

  @Override
  public int weight() {
    return weight;
  }

  @Override
  public CpuMask allowedCpus() {
    return allowed;
  }

  @Override
  public int nrCpusAllowed() {
    return nrAllowed;
  }

  @Override
  public int cpu() {
    return cpu;
  }

  @Override
  public boolean isRunning() {
    return state == TaskState.RUNNING;
  }

  @Override
  public boolean isQueued() {
    return isOnRq();
  }

  @Override
  public int utilAvg() {
    return (int) avg.utilAvg;
  }

  @Override
  public long loadAvg() {
    return avg.loadAvg;
  }

  @Override
  public WorkClass workClass() {
    return workClass;
  }

  /**
   * The class of the work the task does now: {@link WorkClass#COMPUTE} during a spin (a poll loop
   * moves no memory), else its {@link #workClass()}.
   */
  WorkClass currentWorkClass() {
    return spinning ? WorkClass.COMPUTE : workClass;
  }

  @Override
  public String toString() {
    return "task " + id + " (" + name + ", " + state + " on CPU " + cpu + ")";
  }
}
