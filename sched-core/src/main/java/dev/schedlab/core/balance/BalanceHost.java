package dev.schedlab.core.balance;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.random.RandomGenerator;

/**
 * What the load balancer needs from the engine: runqueue and task state, and the few mutations
 * balancing performs. The engine implements it; tests implement it with small fakes. Every method
 * is O(1) unless stated and allocates nothing.
 *
 * <p>Contract between {@code dev.schedlab.core.balance} (the balancer) and the engine: the balancer
 * owns per-domain state ({@code balance_interval}, {@code nr_balance_failed}, {@code last_balance},
 * {@code max_newidle_lb_cost}, newidle statistics), per-rq {@code next_balance} and {@code
 * max_idle_balance_cost}, {@code rd->overloaded}, and the schedstat lb counters; the engine owns
 * everything else (runqueues, PELT, {@code avg_idle}, idle state, NOHZ state).
 */
public interface BalanceHost {

  /** Current simulated time, ns. */
  long nowNs();

  /** Current jiffies ({@code nowNs / (1e9 / hz)}). */
  long jiffies();

  /** Tick rate. */
  int hz();

  /** The machine. */
  Topology topology();

  /** Its sched domains. */
  SchedDomains domains();

  /** Live CPU state: idle, nr_running, h_nr_runnable, PELT averages, capacity, activity. */
  CpuStateView state();

  /**
   * Equivalent of {@code cpu_active_mask}: the CPUs for which {@link CpuStateView#isActive} holds.
   * Fixed for a run (no hotplug during a simulation), so a pass can copy it word by word.
   */
  CpuMask activeMask();

  /** Equivalent of {@code rq->misfit_task_load} (0 on symmetric machines). */
  long misfitTaskLoad(int cpu);

  /** Equivalent of {@code rq->ttwu_pending}. */
  boolean ttwuPending(int cpu);

  /** Equivalent of {@code rq->avg_idle}, ns. */
  long avgIdleNs(int cpu);

  /** Number of fair tasks on {@code cpu}'s {@code cfs_tasks} list (running one included). */
  int cfsTaskCount(int cpu);

  /**
   * The task at position {@code indexFromTail} of {@code cpu}'s {@code cfs_tasks} list, counted
   * from the tail (0 = least recently run); {@code detach_tasks()} scans in this order.
   */
  int cfsTaskFromTail(int cpu, int indexFromTail);

  /** Moves a task to the head of its CPU's {@code cfs_tasks} list ({@code list_move()}). */
  void rotateToHead(int cpu, int taskId);

  /** Read-only view of a task. */
  TaskView task(int taskId);

  /** Equivalent of {@code p->se.exec_start}: when the task last started running, ns. */
  long execStartNs(int taskId);

  /** Equivalent of {@code task_h_load(p)}. */
  long taskHLoad(int taskId);

  /** Equivalent of {@code task_util_est(p)}. */
  long taskUtilEst(int taskId);

  /**
   * Detaches a queued, not running task from its runqueue and attaches it to {@code dstCpu} ({@code
   * detach_task()} + {@code attach_task()}), with migration accounting; {@code level} is the
   * sched-domain level whose balancing moved it (for per-level migration statistics).
   */
  void migrateTask(int taskId, int dstCpu, int level);

  /**
   * Queues {@code active_load_balance_cpu_stop} on {@code busiestCpu} pushing to {@code targetCpu};
   * the engine later calls {@link LoadBalancer#activeLoadBalanceCpuStop}. Returns false if one is
   * already pending on that CPU ({@code busiest->active_balance}).
   */
  boolean requestActiveBalance(int busiestCpu, int targetCpu);

  /** Equivalent of {@code sched_balance_update_blocked_averages(cpu)}. */
  void updateBlockedAverages(int cpu);

  /** Equivalent of the per-CPU {@code sched_rng()} stream (NI_RANDOM). */
  RandomGenerator random(int cpu);

  /**
   * One {@code sched_balance_rq()} attempt for {@code dstCpu} on {@code sd} ended with {@code
   * outcome}, having moved {@code moved} tasks from {@code srcCpu} ({@link
   * dev.schedlab.cpumask.CpuMask#NO_CPU} when it found no busiest runqueue). For timelines; the
   * default ignores it.
   */
  default void balanceAttempt(
      int dstCpu, SchedDomain sd, IdleType idle, BalanceOutcome outcome, int moved, int srcCpu) {}
}
