package dev.schedlab.hw.machines;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;

/**
 * {@code hw.hygon-7447v}: the Hygon 7447v (Model 7) machine of the SMT_BUDDY_ASSIST RFC
 * (seeds-digest §3): 384 logical CPUs, SMT2, several dies whose L3 is not shared between them,
 * NUMA.
 *
 * <p>The RFC gives only those facts. Assumed layout (every count a parameter): 2 sockets, 4 dies
 * per socket, one L3 per die, one NUMA node per die, 24 cores per die, x86 sibling numbering (CPU
 * {@code n} and {@code n + 192}). Why: Hygon's server CPUs descend from AMD Zen 1, whose packages
 * hold 4 dies, each with its own memory controllers, and whose firmware exposes one node per die
 * by default; the EPYC 7451 and 7401 exports in shared/topologies show exactly that (8 nodes on 2
 * sockets, distances 10/16/32), and the RFC's explanation (cross-LLC and cross-NUMA pulls on
 * newidle) needs several LLCs and several nodes per machine. Distances 16 within a socket and 32
 * across follow epyc-corona.xml. {@code numa=per-socket} models firmware that interleaves the
 * dies of a socket into one node.
 *
 * <p>Numbers: clock 2.5 GHz, 16 DP FLOP/cycle (two 256-bit FMA pipes), 8 × DDR4-3200 per
 * socket (204.8 GB/s, split evenly between the socket's nodes), 15 GB/s per memory-bound
 * thread, SMT co-run 0.6 / 0.9 — all assumptions.
 */
@AutoService(HardwareModelProvider.class)
public final class Hygon7447vProvider implements HardwareModelProvider {

  static final int LOGICAL_CPUS = 384;
  static final int THREADS = 2;

  private static final Assumptions.Defaults DEFAULTS = new Assumptions.Defaults(
      2.5, 16, 204.8, 15, 0.6, 0.9,
      new String[] {
        "assumption", "assumption (two 256-bit FMA pipes)",
        "assumption (8 x DDR4-3200), shared evenly by the socket's nodes", "assumption",
        "assumption (typical x86 SMT2 gain of about 20 %)", "assumption"
      });

  private static final PluginDescriptor DESCRIPTOR = buildDescriptor();

  private static PluginDescriptor buildDescriptor() {
    PluginDescriptor.Builder b =
        PluginDescriptor.builder("hw.hygon-7447v", PluginKind.HARDWARE_MODEL)
            .description("Hygon 7447v, 384 CPUs SMT2, dies with private L3, NUMA per die")
            .source("LKML SMT_BUDDY_ASSIST RFC (seeds-digest §3): 384 logical CPUs, SMT,"
                + " non-shared L3 between dies, NUMA; layout assumed from the Zen 1 family"
                + " (EPYC 7451/7401 exports in shared/topologies)");
    b.parameter(ParameterSpec.ofInt("sockets", "packages; 384 CPUs are split evenly", 2, 1, 8));
    b.parameter(ParameterSpec.ofInt("dies_per_socket",
        "dies per package, each with private L3; assumption (Zen 1 family: 4)", 4, 1, 16));
    b.parameter(ParameterSpec.ofInt("llcs_per_die", "L3 caches per die; assumption", 1, 1, 8));
    b.parameter(ParameterSpec.ofChoice("numa",
        "NUMA layout: a node per die (default, Zen 1 family firmware) or per socket",
        "per-die", "per-die", "per-socket"));
    b.parameter(ParameterSpec.ofInt("same_socket_distance",
        "distance between dies of one socket (per-die layout); as epyc-corona.xml", 16, 11, 255));
    Assumptions.addRemoteDistance(b, 32, "between sockets; as epyc-corona.xml");
    Assumptions.addParameters(b, DEFAULTS, true, "socket");
    return b.build();
  }

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public HardwareModel create(Parameters p) {
    Assumptions.checkFor(DESCRIPTOR, p);
    int sockets = p.getInt("sockets");
    int dies = p.getInt("dies_per_socket");
    int llcs = p.getInt("llcs_per_die");
    int caches = sockets * dies * llcs;
    if ((LOGICAL_CPUS / THREADS) % caches != 0) {
      throw new IllegalArgumentException("hw.hygon-7447v: " + sockets + " sockets x " + dies
          + " dies x " + llcs + " LLCs = " + caches + " LLCs do not split the 192 cores evenly");
    }
    boolean perDie = p.getString("numa").equals("per-die");
    RegularMachine shape = new RegularMachine(
        "hygon-7447v", sockets, dies, llcs, 1, LOGICAL_CPUS / THREADS / caches, THREADS,
        SiblingNumbering.SPLIT,
        perDie ? RegularMachine.NodeScope.DIE : RegularMachine.NodeScope.SOCKET,
        p.getInt("same_socket_distance"), p.getInt(Assumptions.REMOTE_DISTANCE),
        cpu -> Topology.SCHED_CAPACITY_SCALE);
    Topology topology = shape.toTopology();
    double perNode = p.getDouble(Assumptions.MEMORY) / (perDie ? dies : 1);
    return Assumptions.machine(topology, p, perNode,
        "Hygon 7447v: only 384 CPUs, SMT2, private L3 per die and"
            + " NUMA are given; sockets, dies, nodes, clock, bandwidth and co-run factors are"
            + " assumptions (see hw.hygon-7447v).");
  }
}
