package dev.schedlab.hw.importer;

import dev.schedlab.topology.SchedNodeDistance;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;

/**
 * Turns an {@link ImportedTopology} into a {@link Topology}; the rules are stated on {@link
 * ImportedTopology#toTopology()}.
 */
final class TopologyMapping {

  /** {@code INTEL_GRANITERAPIDS_X} and {@code INTEL_ATOM_DARKMONT_X}: family 6, these models. */
  private static final java.util.Set<String> SNC_SLIT_MODELS = java.util.Set.of("173", "221");

  private TopologyMapping() {}

  /**
   * Whether the source names an Intel CPU whose SLIT x86 rewrites for sched domains (Granite Rapids
   * X, Clearwater Forest X), from hwloc's {@code CPUVendor}, {@code CPUFamilyNumber} and {@code
   * CPUModelNumber} info attributes; whether the rewrite applies (several packages, SNC-3) is
   * {@link SchedNodeDistance#INTEL_SNC_PACKAGE_MEAN}'s to decide.
   */
  static boolean snc3Model(ImportedTopology imported) {
    java.util.Map<String, String> info = imported.info();
    return "GenuineIntel".equals(info.get("CPUVendor"))
        && "6".equals(info.get("CPUFamilyNumber"))
        && SNC_SLIT_MODELS.contains(info.get("CPUModelNumber"));
  }

  static Topology toTopology(ImportedTopology imported) {
    int fallbackNode = Integer.MAX_VALUE;
    for (CpuRecord r : imported.cpus()) {
      if (r.online() && r.node() >= 0) {
        fallbackNode = Math.min(fallbackNode, r.node());
      }
    }
    if (fallbackNode == Integer.MAX_VALUE) {
      int[] nodes = imported.nodes();
      fallbackNode = nodes.length > 0 ? nodes[0] : 0;
    }
    CpuRecord first = imported.onlineCpus().get(0);
    try {
      TopologyBuilder builder = Topology.builder(imported.nrCpuIds()).name(imported.name());
      for (CpuRecord r : imported.cpus()) {
        if (r.online()) {
          builder
              .cpu(r.cpu())
              .packageId(r.packageId())
              .dieId(r.dieId())
              .llcId(r.llcId())
              .clusterId(r.clusterId())
              .coreId(r.coreId())
              .node(r.node() >= 0 ? r.node() : fallbackNode)
              .capacity(r.capacity());
        } else {
          builder
              .cpu(r.cpu())
              .packageId(first.packageId())
              .dieId(first.dieId())
              .llcId(first.llcId())
              .node(fallbackNode)
              .capacity(r.capacity())
              .offline();
        }
      }
      if (imported.hasDistances()) {
        int[] nodes = imported.nodes();
        int[][] table = new int[nodes.length][nodes.length];
        for (int i = 0; i < nodes.length; i++) {
          for (int j = 0; j < nodes.length; j++) {
            table[i][j] = imported.distance(nodes[i], nodes[j]);
          }
        }
        builder.distances(nodes, table);
      }
      Topology topology = builder.build();
      return snc3Model(imported)
          ? topology.withSchedNodeDistance(SchedNodeDistance.INTEL_SNC_PACKAGE_MEAN)
          : topology;
    } catch (TopologyImportException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new TopologyImportException(imported.source(), e.getMessage(), e);
    }
  }
}
