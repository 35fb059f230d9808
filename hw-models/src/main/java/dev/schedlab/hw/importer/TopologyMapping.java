package dev.schedlab.hw.importer;

import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;

/**
 * Turns an {@link ImportedTopology} into a {@link Topology}; the rules are stated on {@link
 * ImportedTopology#toTopology()}.
 */
final class TopologyMapping {

  private TopologyMapping() {}

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
          builder.cpu(r.cpu())
              .packageId(r.packageId())
              .dieId(r.dieId())
              .llcId(r.llcId())
              .clusterId(r.clusterId())
              .coreId(r.coreId())
              .node(r.node() >= 0 ? r.node() : fallbackNode)
              .capacity(r.capacity());
        } else {
          builder.cpu(r.cpu())
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
      return builder.build();
    } catch (TopologyImportException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new TopologyImportException(imported.source(), e.getMessage(), e);
    }
  }
}
