package dev.schedlab.hw.machines;

import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;

/**
 * What the SMT4 and SMT8 POWER-style machines share: adjacent sibling numbering (CPUs {@code
 * 4k..4k+3} are one SMT4 core, as on coral-lassen.xml), a count of sockets and cores, an LLC per
 * group of cores, and a node per socket.
 */
final class PowerMachines {

  private PowerMachines() {}

  static void addLayoutParameters(
      PluginDescriptor.Builder b, int sockets, int cores, int llcCores, String llcSource) {
    b.parameter(ParameterSpec.ofInt("sockets", "packages, one NUMA node each", sockets, 1, 16));
    b.parameter(ParameterSpec.ofInt("cores_per_socket", "SMT cores per package", cores, 1, 64));
    b.parameter(
        ParameterSpec.ofInt(
            "llc_cores",
            "cores per last-level cache (must divide cores_per_socket); " + llcSource,
            llcCores,
            1,
            64));
    Assumptions.addRemoteDistance(b, 40, "as coral-lassen.xml (POWER9 AC922) reports");
  }

  static HardwareModel create(
      PluginDescriptor descriptor, Parameters p, String name, int threads, String notes) {
    Assumptions.checkFor(descriptor, p);
    int sockets = p.getInt("sockets");
    int cores = p.getInt("cores_per_socket");
    int llcCores = p.getInt("llc_cores");
    if (cores % llcCores != 0) {
      throw new IllegalArgumentException(
          descriptor.id()
              + ": llc_cores="
              + llcCores
              + " does not divide cores_per_socket="
              + cores);
    }
    int remote = p.getInt(Assumptions.REMOTE_DISTANCE);
    Topology topology =
        new RegularMachine(
                name,
                sockets,
                1,
                cores / llcCores,
                1,
                llcCores,
                threads,
                SiblingNumbering.ADJACENT,
                RegularMachine.NodeScope.SOCKET,
                remote,
                remote,
                cpu -> Topology.SCHED_CAPACITY_SCALE)
            .toTopology();
    double bandwidth = p.getDouble(Assumptions.MEMORY);
    return Assumptions.machine(topology, p, bandwidth, notes);
  }
}
