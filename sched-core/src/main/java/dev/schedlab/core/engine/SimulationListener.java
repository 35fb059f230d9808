package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceOutcome;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.IdleType;

/**
 * Receives what happens during a run, for timelines and traces (the command line's {@code --trace}
 * and HTML heat map). Called on the simulation's own thread at the simulated instant {@code nowNs};
 * a listener must not change the simulation and should be cheap. Every method defaults to doing
 * nothing, and {@link #NONE} is what a run without a listener uses.
 */
public interface SimulationListener {

  /** A listener that ignores everything. */
  SimulationListener NONE = new SimulationListener() {};

  /** What a CPU spends its time on, as the per-CPU time accounting splits it. */
  enum CpuActivity {
    /** In the idle loop. */
    IDLE,
    /** Running a task. */
    TASK,
    /** Balancing without a task: newidle balancing, or softirq work (ILB) from the idle loop. */
    BALANCING
  }

  /** Task {@code taskId} was created with {@code name} (its {@code TaskSpec}'s). */
  default void taskCreated(long nowNs, int taskId, String name) {}

  /**
   * Task {@code taskId} was created from {@code spec} (name, policy, nice, affinity); what the
   * engine calls. The default passes the name on to {@link #taskCreated(long, int, String)}.
   */
  default void taskCreated(long nowNs, int taskId, TaskSpec spec) {
    taskCreated(nowNs, taskId, spec.name());
  }

  /**
   * The CPU switched to {@code activity}; {@code taskId} is the task it now runs, or -1 when {@code
   * activity} is not {@link CpuActivity#TASK}.
   */
  default void cpuActivity(long nowNs, int cpu, CpuActivity activity, int taskId) {}

  /** A busy CPU's {@code kick_ilb()} chose {@code ilbCpu} (-1: no idle CPU to kick). */
  default void ilbKick(long nowNs, int kickerCpu, int ilbCpu) {}

  /** {@code cpu} ran a kick-driven {@code _nohz_idle_balance()} pass lasting {@code durationNs}. */
  default void ilbRun(long nowNs, int cpu, long durationNs) {}

  /** Task {@code taskId} moved from {@code fromCpu}'s runqueue to {@code toCpu}'s. */
  default void migration(long nowNs, int taskId, int fromCpu, int toCpu) {}

  /** {@code rq->nr_running} of {@code cpu} changed to {@code nrRunning}. */
  default void nrRunning(long nowNs, int cpu, int nrRunning) {}

  /** {@code nohz.idle_cpus_mask} changed; it now holds {@code weight} CPUs. */
  default void nohzIdleMask(long nowNs, int weight) {}

  /**
   * {@code try_to_wake_up()} running on {@code wakingCpu} woke {@code taskId}, which last ran on
   * {@code prevCpu}, and queued it on {@code targetCpu}; with {@code fork} it is {@code
   * wake_up_new_task()} placing a new task ({@code prevCpu} is then its parent's CPU). Wakes that
   * only end a busy-wait are no wakeups.
   */
  default void taskWakeup(
      long nowNs, int taskId, int wakingCpu, int prevCpu, int targetCpu, boolean fork) {}

  /**
   * The running task {@code taskId} left {@code cpu}'s runqueue: it sleeps or blocks ({@code
   * exited} false) or exits ({@code dequeue_task()} with {@code DEQUEUE_SLEEP}). The CPU's switch
   * away from it follows.
   */
  default void taskDequeued(long nowNs, int cpu, int taskId, boolean exited) {}

  /**
   * One {@code sched_balance_rq()} attempt, run on {@code cpu} for {@code dstCpu} (another CPU in a
   * NOHZ idle balancing pass) on its domain of {@code level}, ended with {@code outcome} after
   * moving {@code moved} tasks from {@code srcCpu} (-1: no busiest runqueue found). Balancing is
   * instantaneous: the CPU time it costs starts at {@code nowNs}.
   */
  default void balanceAttempt(
      long nowNs,
      int cpu,
      int dstCpu,
      int level,
      IdleType idle,
      BalanceOutcome outcome,
      int moved,
      int srcCpu) {}
}
