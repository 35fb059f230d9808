package dev.schedlab.core.stats;

/**
 * Where one CPU's time went.
 *
 * @param cpu the CPU
 * @param taskNs running tasks, minus softirq and stopper time stolen from them
 * @param overheadNs balancing: newidle, softirq and ILB work, including time stolen from tasks
 * @param idleNs idle
 */
public record CpuTime(int cpu, long taskNs, long overheadNs, long idleNs) {

  /** Busy time: tasks plus overhead. */
  public long busyNs() {
    return taskNs + overheadNs;
  }
}
