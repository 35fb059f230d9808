package dev.schedlab.topology;

import dev.schedlab.cpumask.CpuMask;
import java.util.ArrayList;
import java.util.List;

/**
 * How the sched-domain code sees node distances: {@code arch_sched_node_distance(from, to)}, which
 * {@code sched_init_numa()} uses instead of {@code node_distance()}. Most machines use the SLIT as
 * it is; x86 rewrites it for Intel Granite Rapids and Clearwater Forest in SNC-3 mode.
 */
public enum SchedNodeDistance {
  /** The SLIT as it is: the weak default {@code arch_sched_node_distance()}. */
  SLIT,

  /**
   * Intel Granite Rapids X and Clearwater Forest X ({@code INTEL_GRANITERAPIDS_X}, {@code
   * INTEL_ATOM_DARKMONT_X}) with several packages and at least 3 nodes per package (SNC-3): the
   * distance between nodes of different packages is the mean over both packages' node pairs, both
   * directions, rounded down, so that every remote node is equally far and the remote package forms
   * one group (x86's {@code arch_sched_node_distance()}, commit 4d6dd05d07d0, refined to the
   * per-package-pair mean of {@code slit_cluster_distance()} by 528d89a4707e). Nodes of one package
   * keep their SLIT distance. The kernel also validates the SLIT's form first; this model assumes a
   * valid table.
   */
  INTEL_SNC_PACKAGE_MEAN;

  /** The distance the domain builder uses between two nodes with CPUs. */
  public int distance(Topology topology, int nodeA, int nodeB) {
    int slit = topology.distance(nodeA, nodeB);
    if (this == SLIT || nodeA == nodeB) {
      return slit;
    }
    int packages = topology.packageCount();
    if (packages < 2 || topology.nodeCount() / packages < 3) {
      return slit;
    }
    int packageA = packageOf(topology, nodeA);
    int packageB = packageOf(topology, nodeB);
    if (packageA < 0 || packageB < 0 || packageA == packageB) {
      return slit;
    }
    List<Integer> nodesA = nodesOf(topology, packageA);
    List<Integer> nodesB = nodesOf(topology, packageB);
    long sum = 0;
    for (int x : nodesA) {
      for (int y : nodesB) {
        sum += topology.distance(x, y) + topology.distance(y, x);
      }
    }
    return (int) (sum / (2L * nodesA.size() * nodesB.size()));
  }

  private static int packageOf(Topology topology, int node) {
    CpuMask cpus = topology.nodeMask(node);
    int first = cpus.first();
    return first == CpuMask.NO_CPU ? -1 : topology.packageId(first);
  }

  private static List<Integer> nodesOf(Topology topology, int packageId) {
    List<Integer> out = new ArrayList<>();
    for (int node : topology.nodes()) {
      if (packageOf(topology, node) == packageId) {
        out.add(node);
      }
    }
    return out;
  }
}
