package dev.schedlab.spi;

/** What a {@link Workload} may do when it starts: create its initial tasks. */
public interface WorkloadHost {

  /** Current simulated time in ns. */
  long nowNs();

  /** Creates a task (as if forked by an init task on {@code parentCpu}); returns its id. */
  int spawn(TaskSpec spec, TaskProgram program, int parentCpu);
}
