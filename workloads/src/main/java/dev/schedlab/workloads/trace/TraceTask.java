package dev.schedlab.workloads.trace;

/**
 * One traced task (a thread: the kernel's {@code task_struct}, named by its tid) and its program.
 *
 * @param name unique within the trace: {@code COMM-PID}, with {@code .2}, {@code .3} for a reused
 *     pid
 * @param pid its pid (tid) in the recording
 * @param comm its last command name
 * @param prio the kernel's {@code prio} last seen: 100-139 is nice -20..19, below 100 real-time
 * @param pinnedCpu the CPU a per-CPU kernel thread is bound to ({@code ksoftirqd/3}), or -1
 * @param initial whether it existed when the recording began (else a traced task forks it)
 * @param ops its program ({@link TraceOps})
 * @param recorded what it did in the recording
 */
public record TraceTask(
    String name,
    int pid,
    String comm,
    int prio,
    int pinnedCpu,
    boolean initial,
    long[] ops,
    Recorded recorded) {

  /**
   * A task's figures in the recording, for comparing a replay with it.
   *
   * @param cpuNs CPU time (switch-in to switch-out)
   * @param switchIns times it was switched in
   * @param blocked switches out in a sleeping state (voluntary)
   * @param preempted switches out still runnable (involuntary)
   * @param wakeups sleeps ended by a wakeup event
   * @param migrations {@code sched_migrate_task} events of the task
   */
  public record Recorded(
      long cpuNs, long switchIns, long blocked, long preempted, long wakeups, long migrations) {}

  public TraceTask {
    ops = ops.clone();
  }

  @Override
  public long[] ops() {
    return ops.clone();
  }

  /** The program's length, for callers that read it step by step. */
  int length() {
    return ops.length;
  }

  /** Step {@code i}, without copying the program. */
  long op(int i) {
    return ops[i];
  }

  /** The nice value the replay gives the task: real-time and deadline tasks get -20. */
  public int nice() {
    return prio < 100 ? -20 : Math.max(-20, Math.min(19, prio - 120));
  }

  /** Whether the recording ran it in a real-time or deadline class (the replay cannot). */
  public boolean realTime() {
    return prio < 100;
  }
}
