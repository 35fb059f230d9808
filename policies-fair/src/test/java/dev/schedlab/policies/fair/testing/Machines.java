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
 * SiblingNumbering#ADJACENT} or {@link SiblingNumbering#SPLIT} machine-wide. Cached, since
 * 8192-CPU topologies take a while to build.
 */
public final class Machines {

  private static final Map<String, Topology> CACHE = new ConcurrentHashMap<>();

  private Machines() {}

  /** The machine; CPU count is {@code nodes * coresPerNode * threads}. */
  public static Topology smt(
      int nodes, int coresPerNode, int threads, SiblingNumbering numbering) {
    String key = nodes + "n" + coresPerNode + "c" + threads + "t" + numbering;
    return CACHE.computeIfAbsent(key, k -> build(nodes, coresPerNode, threads, numbering));
  }

  /** {@code cpus} CPUs in {@code cpus / threads} cores on one node. */
  public static Topology smt(int cpus, int threads, SiblingNumbering numbering) {
    return smt(1, cpus / threads, threads, numbering);
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
