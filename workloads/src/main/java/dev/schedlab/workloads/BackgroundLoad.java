package dev.schedlab.workloads;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;

/**
 * Competing threads beside a workload's own: each runs {@code runWork} units, sleeps {@code
 * sleepNs} (not at all when 0), forever. Used for the foreground load a SCHED_IDLE build competes
 * with and for SCHED_IDLE background threads behind inference.
 */
final class BackgroundLoad {

  private final Cycle[] threads;
  private final double runWork;

  /**
   * @param count number of threads
   * @param runWork work units per busy period; positive
   * @param sleepNs sleep after each busy period; 0 for none
   */
  BackgroundLoad(int count, double runWork, long sleepNs) {
    this.threads = new Cycle[count];
    this.runWork = runWork;
    for (int i = 0; i < count; i++) {
      threads[i] = new Cycle(runWork, sleepNs);
    }
  }

  /**
   * Forks the threads, named {@code name/i}, with {@code policy} and {@code nice}, allowed on
   * {@code allowed} (null: every CPU).
   */
  void start(
      WorkloadHost host,
      String name,
      SchedPolicy policy,
      int nice,
      CpuMask allowed,
      int parentCpu) {
    for (int i = 0; i < threads.length; i++) {
      host.spawn(
          new TaskSpec(name + "/" + i, policy, nice, allowed, WorkClass.COMPUTE),
          threads[i],
          parentCpu);
    }
  }

  int count() {
    return threads.length;
  }

  /** Work units of the busy periods completed so far. */
  double workDone() {
    long periods = 0;
    for (Cycle thread : threads) {
      periods += thread.periods;
    }
    return periods * runWork;
  }

  /** One thread: run, sleep, run, ... */
  private static final class Cycle implements TaskProgram {
    private final double runWork;
    private final long sleepNs;
    private boolean ran;
    private long periods;

    Cycle(double runWork, long sleepNs) {
      this.runWork = runWork;
      this.sleepNs = sleepNs;
    }

    @Override
    public void next(TaskControl control) {
      if (ran) {
        periods++;
        ran = false;
        if (sleepNs > 0) {
          control.sleep(sleepNs);
          return;
        }
      }
      ran = true;
      control.run(runWork);
    }
  }
}
