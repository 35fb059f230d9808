package dev.schedlab.policies.fair.testing;

import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Regular SMT machines for tests, built with the fluent builder so the ILB tests depend only on
 * {@code cpu_smt_mask()}: {@code nodes} NUMA nodes of one package and one LLC each, {@code
 * coresPerNode} cores per node, {@code threads} threads per core, numbered {@link
 * SiblingNumbering#ADJACENT} or {@link SiblingNumbering#SPLIT} machine-wide. Cached, since 8192-CPU
 * topologies take a while to build.
 */
public final class Machines {

  private static final Map<String, Topology> CACHE = new ConcurrentHashMap<>();

  private Machines() {}

  /** The machine; CPU count is {@code nodes * coresPerNode * threads}. */
  public static Topology smt(int nodes, int coresPerNode, int threads, SiblingNumbering numbering) {
    String key = nodes + "n" + coresPerNode + "c" + threads + "t" + numbering;
    return CACHE.computeIfAbsent(key, k -> build(nodes, coresPerNode, threads, numbering));
  }

  /** {@code cpus} CPUs in {@code cpus / threads} cores on one node. */
  public static Topology smt(int cpus, int threads, SiblingNumbering numbering) {
    return smt(1, cpus / threads, threads, numbering);
  }

  /**
   * An irregular machine of {@code cpus} CPUs on one node: cores of 1 to 4 threads (drawn from
   * {@code seed}) over a random permutation of the CPU numbers, so no constant-offset SMT numbering
   * exists (a hybrid machine or an import with odd sibling sets).
   */
  public static Topology irregular(int cpus, long seed) {
    String key = "irregular" + cpus + "s" + seed;
    return CACHE.computeIfAbsent(
        key,
        k -> {
          java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
          int[] order = new int[cpus];
          for (int i = 0; i < cpus; i++) {
            order[i] = i;
          }
          for (int i = cpus - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
          }
          TopologyBuilder builder = Topology.builder(cpus).name("irregular" + cpus);
          int core = 0;
          int i = 0;
          while (i < cpus) {
            int width = Math.min(cpus - i, 1 + random.nextInt(4));
            for (int t = 0; t < width; t++) {
              builder.addCpu(order[i++], 0, 0, 0, TopologyBuilder.UNKNOWN, core, 0);
            }
            core++;
          }
          return builder.build();
        });
  }

  private static Topology build(
      int nodes, int coresPerNode, int threads, SiblingNumbering numbering) {
    int cores = nodes * coresPerNode;
    int cpus = cores * threads;
    TopologyBuilder builder =
        Topology.builder(cpus).name(nodes + "n1l" + coresPerNode + "c" + threads + "t");
    for (int core = 0; core < cores; core++) {
      int node = core / coresPerNode;
      for (int thread = 0; thread < threads; thread++) {
        int cpu =
            numbering == SiblingNumbering.ADJACENT
                ? core * threads + thread
                : core + thread * cores;
        builder.addCpu(cpu, node, 0, 0, TopologyBuilder.UNKNOWN, core, node);
      }
    }
    return builder.build();
  }
}
