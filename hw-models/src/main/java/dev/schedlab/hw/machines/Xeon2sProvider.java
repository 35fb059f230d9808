package dev.schedlab.hw.machines;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;

/**
 * {@code hw.xeon-2s}: the 2-socket Intel Xeon of the SCHED_IDLE thread (seeds-digest §5): 64
 * logical CPUs = 2 sockets × 16 cores × SMT2, x86 numbering (CPU {@code n} and {@code n + 32}
 * siblings), one L3 and one NUMA node per socket.
 *
 * <p>The thread gives only the CPU count. Assumed, as parameters: a 16-core Xeon Scalable of the
 * Cascade Lake generation (e.g. Gold 6226R): 2.9 GHz base clock, two AVX-512 FMA units (32 DP
 * FLOP/cycle), 6 × DDR4-2933 per socket (140.8 GB/s), remote distance 21 (the SLIT such 2-socket
 * boards report), SMT co-run 0.6 / 0.85, 15 GB/s per memory-bound thread.
 */
@AutoService(HardwareModelProvider.class)
public final class Xeon2sProvider implements HardwareModelProvider {

  private static final Assumptions.Defaults DEFAULTS =
      new Assumptions.Defaults(
          2.9,
          32,
          140.8,
          15,
          0.6,
          0.85,
          new String[] {
            "assumption (Xeon Gold 6226R-class base clock)", "assumption (2 x AVX-512 FMA)",
            "assumption (6 x DDR4-2933 per socket)", "assumption",
            "assumption (Hyper-Threading gain of about 20 % for compute-bound code)", "assumption"
          });

  private static final PluginDescriptor DESCRIPTOR = buildDescriptor();

  private static PluginDescriptor buildDescriptor() {
    PluginDescriptor.Builder b =
        PluginDescriptor.builder("hw.xeon-2s", PluginKind.HARDWARE_MODEL)
            .description("Intel Xeon, 2 sockets x 16 cores x SMT2 (64 CPUs), a node per socket")
            .source(
                "LKML SCHED_IDLE thread (seeds-digest §5): Intel Xeon, 2 sockets, 64 logical"
                    + " CPUs; the rest assumed (Cascade Lake-class 16-core part)");
    Assumptions.addRemoteDistance(b, 21, "assumption: typical 2-socket Xeon SLIT");
    Assumptions.addParameters(b, DEFAULTS, true, "NUMA node (socket)");
    return b.build();
  }

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public HardwareModel create(Parameters p) {
    Assumptions.checkFor(DESCRIPTOR, p);
    int remote = p.getInt(Assumptions.REMOTE_DISTANCE);
    Topology topology =
        new RegularMachine(
                "xeon-2s",
                2,
                1,
                1,
                1,
                16,
                2,
                SiblingNumbering.SPLIT,
                RegularMachine.NodeScope.SOCKET,
                remote,
                remote,
                cpu -> Topology.SCHED_CAPACITY_SCALE)
            .toTopology();
    double bandwidth = p.getDouble(Assumptions.MEMORY);
    return Assumptions.machine(
        topology,
        p,
        bandwidth,
        "2-socket Xeon, 64 CPUs as in the SCHED_IDLE thread; the"
            + " part, clock, bandwidth and co-run factors are assumptions (see hw.xeon-2s).");
  }
}
