package dev.schedlab.hw.perf;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.topology.Topology;

/**
 * What a performance model needs to know about the machine, flattened into arrays so that answering
 * a speed query allocates nothing: each CPU's capacity, its SMT siblings (itself excluded) and its
 * NUMA node. The siblings of all CPUs share one array, CPU {@code c}'s at {@code
 * siblingStart[c]..siblingStart[c + 1]}: a speed query on a wide machine then reads two dense int
 * arrays instead of a separate small array per CPU (a cache miss each at 8192 CPUs).
 */
public final class CpuLayout {

  private final int[] capacity;
  private final int[] siblingStart;
  private final int[] siblingCpus;
  private final int[] node;

  private CpuLayout(int[] capacity, int[][] siblings, int[] node) {
    this.capacity = capacity;
    this.node = node;
    this.siblingStart = new int[siblings.length + 1];
    int total = 0;
    for (int cpu = 0; cpu < siblings.length; cpu++) {
      siblingStart[cpu] = total;
      total += siblings[cpu].length;
    }
    siblingStart[siblings.length] = total;
    this.siblingCpus = new int[total];
    for (int cpu = 0; cpu < siblings.length; cpu++) {
      System.arraycopy(siblings[cpu], 0, siblingCpus, siblingStart[cpu], siblings[cpu].length);
    }
  }

  /** The layout of {@code topology}'s possible CPUs; other CPU numbers get capacity 0. */
  public static CpuLayout of(Topology topology) {
    int n = topology.nrCpuIds();
    int[] capacity = new int[n];
    int[][] siblings = new int[n][];
    int[] node = new int[n];
    ImmutableCpuMask possible = topology.possibleMask();
    for (int cpu = 0; cpu < n; cpu++) {
      if (!possible.test(cpu)) {
        siblings[cpu] = new int[0];
        node[cpu] = -1;
        continue;
      }
      capacity[cpu] = topology.capacity(cpu);
      node[cpu] = topology.nodeOf(cpu);
      ImmutableCpuMask smt = topology.smtSiblings(cpu);
      int[] others = new int[smt.weight() - 1];
      int i = 0;
      for (int s = smt.first(); s != CpuMask.NO_CPU; s = smt.next(s)) {
        if (s != cpu) {
          others[i++] = s;
        }
      }
      siblings[cpu] = others;
    }
    return new CpuLayout(capacity, siblings, node);
  }

  /**
   * A layout given directly (for tests and synthetic machines).
   *
   * @param capacity capacity per CPU, 1..1024
   * @param siblings for each CPU, its SMT siblings without itself; must be symmetric
   * @param node NUMA node per CPU
   */
  public static CpuLayout of(int[] capacity, int[][] siblings, int[] node) {
    if (capacity.length != siblings.length || capacity.length != node.length) {
      throw new IllegalArgumentException("capacity, siblings and node arrays differ in length");
    }
    int[][] copy = new int[siblings.length][];
    for (int cpu = 0; cpu < siblings.length; cpu++) {
      copy[cpu] = siblings[cpu].clone();
      for (int s : copy[cpu]) {
        if (s == cpu || s < 0 || s >= siblings.length) {
          throw new IllegalArgumentException("CPU " + cpu + " lists sibling " + s);
        }
        boolean symmetric = false;
        for (int back : siblings[s]) {
          symmetric |= back == cpu;
        }
        if (!symmetric) {
          throw new IllegalArgumentException(
              "CPU " + cpu + " lists sibling " + s + " but not the other way round");
        }
      }
    }
    return new CpuLayout(capacity.clone(), copy, node.clone());
  }

  /** Number of CPU ids. */
  public int size() {
    return capacity.length;
  }

  /** {@code arch_scale_cpu_capacity(cpu)}. */
  public int capacity(int cpu) {
    return capacity[cpu];
  }

  /** How many SMT siblings the CPU has besides itself. */
  public int siblingCount(int cpu) {
    return siblingStart[cpu + 1] - siblingStart[cpu];
  }

  /** The {@code i}-th SMT sibling of {@code cpu} (itself excluded). */
  public int sibling(int cpu, int i) {
    if (i < 0 || i >= siblingCount(cpu)) {
      throw new IndexOutOfBoundsException("sibling " + i + " of CPU " + cpu);
    }
    return siblingCpus[siblingStart[cpu] + i];
  }

  /** The CPU's NUMA node. */
  public int node(int cpu) {
    return node[cpu];
  }

  /** The widest core: 1 + the most siblings any CPU has. */
  public int maxThreadsPerCore() {
    int max = 0;
    for (int cpu = 0; cpu < size(); cpu++) {
      max = Math.max(max, siblingCount(cpu));
    }
    return max + 1;
  }
}
