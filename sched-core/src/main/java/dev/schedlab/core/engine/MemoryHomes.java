package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.Counter;

/**
 * Running memory-bound tasks grouped by the NUMA node that holds their memory (their home node, set
 * at first run): per node, how many run now and on which CPUs. A task moved to another node keeps
 * loading its home node's memory controllers, so the performance model charges it there. Indexes
 * are the scheduler's dense node indexes. Allocation-free after construction, except that the two
 * run-time counters are registered on the first memory-bound run.
 *
 * <p>Counters (in the run's counters, as {@code engine.memory_home_us} and {@code
 * engine.memory_remote_us}): CPU time, µs, that memory-bound tasks ran on their home node and away
 * from it.
 */
final class MemoryHomes {

  private final int[] running;

  /** Running homed tasks by [home index][running node index]. */
  private final int[][] runningOn;

  private final MutableCpuMask[] cpus;
  private final long[] startNs;
  private final CounterRegistry registry;
  private Counter homeUs;
  private Counter remoteUs;
  private long homeNs;
  private long remoteNs;

  MemoryHomes(int nodes, int nrCpuIds, CounterRegistry registry) {
    this.registry = registry;
    this.startNs = new long[nrCpuIds];
    this.running = new int[nodes];
    this.runningOn = new int[nodes][nodes];
    this.cpus = new MutableCpuMask[nodes];
    for (int i = 0; i < nodes; i++) {
      cpus[i] = CpuMasks.mutable(nrCpuIds);
    }
  }

  /**
   * A task homed on node index {@code home} starts ({@code +1}) or stops running on {@code cpu},
   * which is on node index {@code node}, at {@code nowNs}.
   */
  void changed(int home, int node, int cpu, int delta, long nowNs) {
    boolean away = home != node;
    running[home] += delta;
    runningOn[home][node] += delta;
    if (delta > 0) {
      cpus[home].set(cpu);
      startNs[cpu] = nowNs;
      if (homeUs == null) {
        homeUs = registry.counter("engine.memory_home_us");
        remoteUs = registry.counter("engine.memory_remote_us");
      }
      return;
    }
    cpus[home].clear(cpu);
    long ran = nowNs - startNs[cpu];
    // Counted in ns, published in whole µs.
    if (away) {
      remoteNs += ran;
      remoteUs.add(remoteNs / 1000 - remoteUs.get());
    } else {
      homeNs += ran;
      homeUs.add(homeNs / 1000 - homeUs.get());
    }
  }

  /**
   * At the end of the run: counts the time of the runs still open up to {@code nowNs} (the running
   * tasks stay counted as running).
   */
  void flush(long nowNs, int[] nodeIndexOfCpu) {
    for (int home = 0; home < cpus.length; home++) {
      MutableCpuMask mask = cpus[home];
      for (int cpu = mask.first(); cpu != CpuMask.NO_CPU; cpu = mask.next(cpu)) {
        long ran = nowNs - startNs[cpu];
        startNs[cpu] = nowNs;
        if (nodeIndexOfCpu[cpu] != home) {
          remoteNs += ran;
          remoteUs.add(remoteNs / 1000 - remoteUs.get());
        } else {
          homeNs += ran;
          homeUs.add(homeNs / 1000 - homeUs.get());
        }
      }
    }
  }

  /** How many memory-bound tasks homed on node index {@code home} run now. */
  int running(int home) {
    return running[home];
  }

  /**
   * How many memory-bound tasks homed on node index {@code home} run on node index {@code node}.
   */
  int running(int home, int node) {
    return runningOn[home][node];
  }

  /** The CPUs running them (live view; do not keep). */
  CpuMask cpusHomedOn(int home) {
    return cpus[home];
  }
}
