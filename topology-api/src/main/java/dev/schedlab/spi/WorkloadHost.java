package dev.schedlab.spi;

/** What a {@link Workload} may do when it starts: create its initial tasks. */
public interface WorkloadHost {

  /** Current simulated time in ns. */
  long nowNs();

  /**
   * Creates a task (as if forked by an init task on {@code parentCpu}); returns its id. The new
   * task may run its first steps, and those of tasks it wakes, before this returns: a program that
   * needs its own id takes it from {@link TaskControl#taskId()}, not from this return value.
   */
  int spawn(TaskSpec spec, TaskProgram program, int parentCpu);
}
