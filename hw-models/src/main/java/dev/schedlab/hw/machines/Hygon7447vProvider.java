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
 * hold 4 dies, each with its own memory controllers, and whose firmware exposes one node per die by
 * default; the EPYC 7451 and 7401 exports in shared/topologies show that shape (8 nodes on 2
 * sockets), and the RFC's explanation (cross-LLC and cross-NUMA pulls on newidle) needs several
 * LLCs and several nodes per machine. One L3 per die is the simpler reading, not the Zen 1 one:
 * those exports hold two L3s per die, one per 4-core CCX, and the C86 7280's {@code lscpu} gives an
 * 8 MB L3, one CCX's; a 24-core die does not split into 4-core CCXs, so the 7447v's L3s are not
 * known ({@code llcs_per_die=2} gives two 12-core L3s per die; a later Hygon generation may have 8
 * L3s per socket with a node per socket: {@code numa=per-socket dies_per_socket=8}).
 *
 * <p>Distances follow a published {@code numactl -H} of a 2-socket Hygon C86 7280 (family 18h,
 * model 1; 8 nodes, a node per die), not AMD's: 16 between dies of one socket, 22 to the one die of
 * the other socket it is linked to (node 0 with 6, 1 with 7, 2 with 4, 3 with 5: die {@code d} with
 * die {@code (d + dies/2) mod dies}) and 28 to the other three. Source: the note "cpu_affinity", a
 * public notes file on GitHub with the {@code lscpu} and {@code numactl -H} output of a Hygon C86
 * 7280 server (found through the project's code search, which did not record the repository). It is
 * an assumption for the 7447v, whose own table is not published, and can be overridden (below).
 * Every cross-socket distance is at most {@code RECLAIM_DISTANCE} (30), so unlike the EPYC 7451's
 * 32 the cross-socket levels keep {@code SD_BALANCE_FORK}, {@code SD_BALANCE_EXEC} and {@code
 * SD_WAKE_AFFINE} ({@code sd_init()}). {@code remote_distance=32 peer_die_distance=32} restores the
 * previous (AMD) table. {@code numa=per-socket} models firmware that interleaves the dies of a
 * socket into one node (then {@code remote_distance} is the only remote distance).
 *
 * <p>Numbers: clock 2.5 GHz, 16 DP FLOP/cycle (two 256-bit FMA pipes), 8 × DDR4-3200 per socket
 * (204.8 GB/s, split evenly between the socket's nodes), 15 GB/s per memory-bound thread, SMT
 * co-run 0.6 / 0.9 — all assumptions.
 */
@AutoService(HardwareModelProvider.class)
public final class Hygon7447vProvider implements HardwareModelProvider {

  static final int LOGICAL_CPUS = 384;
  static final int THREADS = 2;

  private static final Assumptions.Defaults DEFAULTS =
      new Assumptions.Defaults(
          2.5,
          16,
          204.8,
          15,
          0.6,
          0.9,
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
            .source(
                "LKML SMT_BUDDY_ASSIST RFC (seeds-digest §3): 384 logical CPUs, SMT,"
                    + " non-shared L3 between dies, NUMA; layout assumed from the Zen 1 family"
                    + " (EPYC 7451/7401 exports in shared/topologies); SLIT 10/16/22/28 of a"
                    + " published 2-socket Hygon C86 7280 numactl -H");
    b.parameter(ParameterSpec.ofInt("sockets", "packages; 384 CPUs are split evenly", 2, 1, 8));
    b.parameter(
        ParameterSpec.ofInt(
            "dies_per_socket",
            "dies per package, each with private L3; assumption (Zen 1 family: 4)",
            4,
            1,
            16));
    b.parameter(ParameterSpec.ofInt("llcs_per_die", "L3 caches per die; assumption", 1, 1, 8));
    b.parameter(
        ParameterSpec.ofChoice(
            "numa",
            "NUMA layout: a node per die (default, Zen 1 family firmware) or per socket",
            "per-die",
            "per-die",
            "per-socket"));
    b.parameter(
        ParameterSpec.ofInt(
            "same_socket_distance",
            "distance between dies of one socket (per-die layout); Hygon C86 7280 numactl -H",
            16,
            11,
            255));
    b.parameter(
        ParameterSpec.ofInt(
            "peer_die_distance",
            "distance from a die to its linked die on the other socket (per-die layout, 2 sockets:"
                + " die d and die (d + dies/2) mod dies, even die counts); Hygon C86 7280 numactl -H",
            22,
            11,
            255));
    Assumptions.addRemoteDistance(
        b,
        28,
        "between the other dies of different sockets; Hygon C86 7280 numactl -H (AMD EPYC 7451: 32)");
    Assumptions.addParameters(b, DEFAULTS, true, "socket");
    return b.build();
  }

  /**
   * SLIT entry between distinct per-die nodes {@code i} and {@code j} of a 2-socket machine (nodes
   * numbered socket-major): same socket, linked peer die, or another die of the other socket.
   */
  static int distance(int i, int j, int dies, int sameSocket, int peerDie, int remote) {
    if (i / dies == j / dies) {
      return sameSocket;
    }
    return (i % dies + dies / 2) % dies == j % dies ? peerDie : remote;
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
      throw new IllegalArgumentException(
          "hw.hygon-7447v: "
              + sockets
              + " sockets x "
              + dies
              + " dies x "
              + llcs
              + " LLCs = "
              + caches
              + " LLCs do not split the 192 cores evenly");
    }
    boolean perDie = p.getString("numa").equals("per-die");
    RegularMachine shape =
        new RegularMachine(
            "hygon-7447v",
            sockets,
            dies,
            llcs,
            1,
            LOGICAL_CPUS / THREADS / caches,
            THREADS,
            SiblingNumbering.SPLIT,
            perDie ? RegularMachine.NodeScope.DIE : RegularMachine.NodeScope.SOCKET,
            p.getInt("same_socket_distance"),
            p.getInt(Assumptions.REMOTE_DISTANCE),
            cpu -> Topology.SCHED_CAPACITY_SCALE);
    int peer = p.getInt("peer_die_distance");
    Topology topology =
        !perDie || sockets != 2 || dies % 2 != 0
            ? shape.toTopology()
            : shape.toTopology(
                (i, j) ->
                    distance(
                        i, j, dies, shape.sameSocketDistance(), peer, shape.crossSocketDistance()));
    double perNode = p.getDouble(Assumptions.MEMORY) / (perDie ? dies : 1);
    return Assumptions.machine(
        topology,
        p,
        perNode,
        "Hygon 7447v: only 384 CPUs, SMT2, private L3 per die and"
            + " NUMA are given; sockets, dies, nodes, clock, bandwidth and co-run factors are"
            + " assumptions (see hw.hygon-7447v).");
  }
}
