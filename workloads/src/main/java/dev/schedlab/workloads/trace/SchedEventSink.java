package dev.schedlab.workloads.trace;

/**
 * Receives a trace's scheduler events in file (time) order, as {@link SchedTraceParser} reads them.
 * Times are ns of the trace's clock; {@code cpu} is the CPU that logged the event and {@code
 * currentPid} the task running there at that moment (the line's task column; 0 is the idle task);
 * {@code inInterrupt} says the line's irq-info flags put the event in hard or soft interrupt
 * context (false when the trace has no such column).
 */
interface SchedEventSink {

  /** How a task left its CPU ({@code prev_state} of {@code sched_switch}). */
  enum LeaveState {
    /** {@code R} or {@code R+}: still runnable, preempted. */
    PREEMPTED,
    /** {@code S}, {@code D}, {@code I}, {@code T}, ...: blocked or sleeping. */
    BLOCKED,
    /** {@code X} or {@code Z}: exiting, its last switch. */
    DEAD
  }

  /** {@code sched_switch}: {@code __schedule()} switched from prev to next. */
  void schedSwitch(
      int line,
      long timeNs,
      int cpu,
      int prevPid,
      String prevComm,
      int prevPrio,
      LeaveState prevState,
      int nextPid,
      String nextComm,
      int nextPrio);

  /**
   * {@code sched_waking} ({@code waking} true, logged by the waker in {@code try_to_wake_up()}) or
   * {@code sched_wakeup} (logged where the wakeup completed, on some kernels the target CPU).
   */
  void wakeup(
      int line,
      long timeNs,
      int cpu,
      int currentPid,
      boolean inInterrupt,
      int pid,
      String comm,
      int prio,
      boolean waking);

  /** {@code sched_wakeup_new}: {@code wake_up_new_task()} made a forked task runnable. */
  void wakeupNew(int line, long timeNs, int cpu, int pid, String comm, int prio);

  /** {@code sched_process_fork}: {@code copy_process()} created {@code childPid}. */
  void fork(
      int line,
      long timeNs,
      int cpu,
      int parentPid,
      String parentComm,
      int childPid,
      String childComm);

  /** {@code sched_process_exec}: {@code pid} ran {@code execve()} of {@code filename}. */
  void exec(int line, long timeNs, int cpu, int pid, String filename);

  /** {@code sched_process_exit}: {@code do_exit()} of {@code pid}. */
  void exit(int line, long timeNs, int cpu, int pid, String comm);

  /** {@code sched_migrate_task}: {@code set_task_cpu()} moved {@code pid}. */
  void migrate(int line, long timeNs, int pid, int origCpu, int destCpu);

  /**
   * Events of {@code cpu} are missing from here on until its next event: the ring buffer lost them
   * ({@code [LOST n EVENTS]}) or began only now ({@code ##### CPU n buffer started}).
   */
  void gap(int line, int cpu);
}
