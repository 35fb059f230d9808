package dev.schedlab.spi.view;

import dev.schedlab.cpumask.CpuMask;

/** What a policy may read about one task. */
public interface TaskView {

  /** Dense task id, stable for the run. */
  int id();

  /** Human name (workload role and index). */
  String name();

  /** Scheduling policy. */
  SchedPolicy policy();

  /** Nice value, -20..19. */
  int nice();

  /** Load weight: {@code sched_prio_to_weight[nice + 20]}, or 3 for SCHED_IDLE. */
  int weight();

  /** Equivalent of {@code p->cpus_ptr}: the CPUs the task may run on. */
  CpuMask allowedCpus();

  /** Equivalent of {@code p->nr_cpus_allowed}. */
  default int nrCpusAllowed() {
    return allowedCpus().weight();
  }

  /** Equivalent of {@code task_cpu(p)}: the CPU whose runqueue holds (or last held) the task. */
  int cpu();

  /** Whether the task is currently running on its CPU ({@code task_on_cpu()}). */
  boolean isRunning();

  /** Whether the task is queued on a runqueue (running or waiting). */
  boolean isQueued();

  /** PELT {@code util_avg} of the task, 0..1024. */
  int utilAvg();

  /** PELT {@code load_avg} of the task ({@code task_h_load} without cgroups). */
  long loadAvg();

  /** What limits the task's progress (for the performance model). */
  WorkClass workClass();
}
