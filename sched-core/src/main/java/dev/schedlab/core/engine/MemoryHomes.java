package dev.schedlab.core.engine;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;

/**
 * Running memory-bound tasks grouped by the NUMA node that holds their memory (their home node,
 * set at first run): per node, how many run now and on which CPUs. A task moved to another node
 * keeps loading its home node's memory controllers, so the performance model charges it there.
 * Indexes are the scheduler's dense node indexes. Allocation-free after construction.
 */
final class MemoryHomes {

  private final int[] running;
  private final MutableCpuMask[] cpus;

  MemoryHomes(int nodes, int nrCpuIds) {
    this.running = new int[nodes];
    this.cpus = new MutableCpuMask[nodes];
    for (int i = 0; i < nodes; i++) {
      cpus[i] = CpuMasks.mutable(nrCpuIds);
    }
  }

  /** A task homed on node index {@code home} starts ({@code +1}) or stops running on {@code cpu}. */
  void changed(int home, int cpu, int delta) {
    running[home] += delta;
    if (delta > 0) {
      cpus[home].set(cpu);
    } else {
      cpus[home].clear(cpu);
    }
  }

  /** How many memory-bound tasks homed on node index {@code home} run now. */
  int running(int home) {
    return running[home];
  }

  /** The CPUs running them (live view; do not keep). */
  CpuMask cpusHomedOn(int home) {
    return cpus[home];
  }
}
