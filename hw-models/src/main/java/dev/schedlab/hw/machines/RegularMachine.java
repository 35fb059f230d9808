package dev.schedlab.hw.machines;

import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;

/**
 * A machine made of identical parts: sockets × dies × LLCs × clusters × cores × threads, with NUMA
 * nodes per machine, socket or die, two remote distances (same socket, other socket) and a capacity
 * per CPU. Cores are numbered socket-major; threads follow the {@link SiblingNumbering}: {@code
 * SPLIT} puts thread {@code t} of core {@code c} at CPU {@code c + t × cores} (x86, Vera: CPU n and
 * n+176 are siblings), {@code ADJACENT} at {@code c × threads + t} (POWER).
 *
 * @param name topology name
 * @param sockets packages
 * @param diesPerSocket dies per package
 * @param llcsPerDie last-level caches per die
 * @param clustersPerLlc clusters per LLC (1 = no clusters)
 * @param coresPerLlc cores per LLC
 * @param threads hardware threads per core
 * @param numbering how sibling threads are numbered
 * @param nodeScope what a NUMA node spans
 * @param sameSocketDistance distance between nodes of one socket
 * @param crossSocketDistance distance between nodes of different sockets
 * @param capacity capacity of each CPU (1..1024)
 */
record RegularMachine(
    String name,
    int sockets,
    int diesPerSocket,
    int llcsPerDie,
    int clustersPerLlc,
    int coresPerLlc,
    int threads,
    SiblingNumbering numbering,
    NodeScope nodeScope,
    int sameSocketDistance,
    int crossSocketDistance,
    IntUnaryOperator capacity) {

  /** What one NUMA node covers. */
  enum NodeScope {
    MACHINE,
    SOCKET,
    DIE
  }

  RegularMachine {
    if (sockets < 1
        || diesPerSocket < 1
        || llcsPerDie < 1
        || clustersPerLlc < 1
        || coresPerLlc < 1
        || threads < 1) {
      throw new IllegalArgumentException(name + ": every count must be at least 1");
    }
    if (coresPerLlc % clustersPerLlc != 0) {
      throw new IllegalArgumentException(
          name
              + ": "
              + coresPerLlc
              + " cores per LLC do not split into "
              + clustersPerLlc
              + " clusters");
    }
  }

  int cores() {
    return sockets * diesPerSocket * llcsPerDie * coresPerLlc;
  }

  int cpus() {
    return cores() * threads;
  }

  int nodes() {
    switch (nodeScope) {
      case MACHINE:
        return 1;
      case SOCKET:
        return sockets;
      default:
        return sockets * diesPerSocket;
    }
  }

  /** CPU number of thread {@code t} of global core {@code core}. */
  int cpuOf(int core, int t) {
    return numbering == SiblingNumbering.ADJACENT ? core * threads + t : core + t * cores();
  }

  /** The topology with the two-distance rule: same socket or other socket. */
  Topology toTopology() {
    return toTopology(
        (i, j) -> {
          int nodesPerSocket = nodes() / sockets;
          return i / nodesPerSocket == j / nodesPerSocket
              ? sameSocketDistance
              : crossSocketDistance;
        });
  }

  /**
   * The topology with a SLIT given per pair of distinct nodes ({@code nodeDistance(i, j)}, nodes
   * numbered socket-major); the diagonal is {@link Topology#LOCAL_DISTANCE}.
   */
  Topology toTopology(IntBinaryOperator nodeDistance) {
    TopologyBuilder b = Topology.builder(cpus()).name(name);
    int coresPerCluster = coresPerLlc / clustersPerLlc;
    int core = 0;
    for (int s = 0; s < sockets; s++) {
      for (int d = 0; d < diesPerSocket; d++) {
        int node =
            nodeScope == NodeScope.MACHINE
                ? 0
                : nodeScope == NodeScope.SOCKET ? s : s * diesPerSocket + d;
        for (int l = 0; l < llcsPerDie; l++) {
          int llc = (s * diesPerSocket + d) * llcsPerDie + l;
          for (int c = 0; c < coresPerLlc; c++, core++) {
            int cluster =
                clustersPerLlc == 1
                    ? TopologyBuilder.UNKNOWN
                    : llc * clustersPerLlc + c / coresPerCluster;
            for (int t = 0; t < threads; t++) {
              int cpu = cpuOf(core, t);
              b.cpu(cpu)
                  .packageId(s)
                  .dieId(d)
                  .llcId(llc)
                  .clusterId(cluster)
                  .coreId(core)
                  .node(node)
                  .capacity(capacity.applyAsInt(cpu));
            }
          }
        }
      }
    }
    int n = nodes();
    if (n > 1) {
      int[][] table = new int[n][n];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          table[i][j] = i == j ? Topology.LOCAL_DISTANCE : nodeDistance.applyAsInt(i, j);
        }
      }
      b.distances(table);
    }
    return b.build();
  }
}
