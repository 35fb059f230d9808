package dev.schedlab.oracle.guest;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.SchedNodeDistance;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The {@link GuestShape} of a simulator machine, when QEMU can express it: an x86 guest has
 * packages of equal dies, dies of equal cores with the L3 shared by the die (QEMU's x86 cache
 * model), one L2 per core (no clusters), cores of equal SMT width, CPUs of one capacity, every CPU
 * online, and NUMA nodes that each hold a contiguous run of whole cores of one package. Anything
 * else is refused in one line naming what QEMU lacks.
 *
 * <p>The guest numbers its CPUs thread-innermost (QEMU's MADT order), which may differ from the
 * machine's numbering; the oracle compares against the guest's own sysfs, so only the shape must
 * match.
 */
public final class MachineShape {

  private MachineShape() {}

  /**
   * The guest shape of {@code topology}.
   *
   * @param label the machine as the user named it, for messages ({@code hw.xeon-2s})
   * @throws IllegalArgumentException naming what QEMU cannot express
   */
  public static GuestShape of(String label, Topology topology) {
    String prefix = label + " cannot boot in QEMU: ";
    require(
        topology.cpuCount() == topology.nrCpuIds(),
        prefix
            + "it has "
            + (topology.nrCpuIds() - topology.cpuCount())
            + " offline CPUs (QEMU boots every vCPU)");
    require(
        !topology.isAsymmetricCapacity(),
        prefix + "its CPUs have different capacities" + " (QEMU's x86 vCPUs are all alike)");
    require(
        topology.schedNodeDistance() == SchedNodeDistance.SLIT,
        prefix
            + "its sched-domain"
            + " distances rewrite the SLIT ("
            + topology.schedNodeDistance()
            + "), which QEMU's vCPU"
            + " model does not trigger");
    require(
        topology.clusterCount() == topology.coreCount(),
        prefix
            + "cores share L2 clusters"
            + " (QEMU's x86 guest has one L2 per core, no CLS level)");
    require(
        topology.cpuCount() <= GuestShape.MAX_CPUS,
        prefix
            + topology.cpuCount()
            + " CPUs, QEMU's pc machine takes at most "
            + GuestShape.MAX_CPUS);
    require(
        topology.distanceNodes().length == topology.nodeCount(),
        prefix + "it has" + " memory-only NUMA nodes");
    int cpus = topology.cpuCount();
    int packages = topology.packageCount();
    int threads = topology.smtWidth();
    require(
        topology.dieCount() % packages == 0 && topology.coreCount() % topology.dieCount() == 0,
        prefix + "its packages or dies are not alike");
    int dies = topology.dieCount() / packages;
    int cores = topology.coreCount() / topology.dieCount();
    require(
        packages * dies * cores * threads == cpus,
        prefix
            + "its packages, dies or cores are"
            + " not alike (QEMU's -smp takes one count per level)");
    for (int cpu = 0; cpu < cpus; cpu++) {
      require(
          topology.smtSiblings(cpu).weight() == threads,
          prefix + "its cores have different" + " numbers of threads");
      require(
          topology.dieMask(cpu).weight() == cpus / packages / dies
              && topology.packageMask(cpu).weight() == cpus / packages,
          prefix
              + "its packages or"
              + " dies are not alike (QEMU's -smp takes one count per level)");
      require(
          topology.llcMask(cpu).equals(topology.dieMask(cpu)),
          prefix
              + "its last-level cache"
              + " spans "
              + topology.llcMask(cpu).weight()
              + " CPUs, not its die's "
              + topology.dieMask(cpu).weight()
              + " (QEMU's x86 guest shares the L3 by die)");
    }
    int nodes = topology.nodeCount();
    require(
        nodes % packages == 0,
        prefix
            + nodes
            + " NUMA nodes do not split evenly into "
            + packages
            + " packages (a QEMU node belongs to one package here)");
    int perPackage = nodes / packages;
    // Each package's cores in (die, core) order: QEMU gives node k of a package the k-th run.
    List<Integer> guestNodes = new ArrayList<>();
    for (int pkg = 0; pkg < packages; pkg++) {
      TreeSet<Integer> coreFirstCpus =
          new TreeSet<>(
              Comparator.comparingInt((Integer c) -> topology.dieId(c))
                  .thenComparingInt(topology::coreId));
      for (int cpu = 0; cpu < cpus; cpu++) {
        if (topology.packageId(cpu) == pkg) {
          coreFirstCpus.add(topology.smtSiblings(cpu).first());
        }
      }
      List<Integer> ordered = new ArrayList<>(coreFirstCpus);
      int run = ordered.size() / perPackage;
      for (int k = 0; k < perPackage; k++) {
        int node = topology.nodeOf(ordered.get(k * run));
        for (int i = k * run; i < (k + 1) * run; i++) {
          CpuMask core = topology.smtSiblings(ordered.get(i));
          for (int c = core.first(); c != CpuMask.NO_CPU; c = core.next(c)) {
            require(
                topology.nodeOf(c) == node,
                prefix
                    + "NUMA node "
                    + topology.nodeOf(c)
                    + " is not a run of whole cores of one package (QEMU's -numa node cpus=)");
          }
        }
        require(
            topology.nodeMask(node).weight() == run * threads,
            prefix
                + "NUMA node "
                + node
                + " is not a run of whole cores of one package (QEMU's -numa node cpus=)");
        guestNodes.add(node);
      }
    }
    int[][] distances = new int[nodes][nodes];
    for (int a = 0; a < nodes; a++) {
      for (int b = 0; b < nodes; b++) {
        distances[a][b] = topology.distance(guestNodes.get(a), guestNodes.get(b));
      }
    }
    try {
      return new GuestShape(packages, dies, cores, threads, perPackage, distances);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(prefix + e.getMessage(), e);
    }
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }
}
