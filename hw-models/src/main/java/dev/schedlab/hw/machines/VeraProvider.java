package dev.schedlab.hw.machines;

import com.google.auto.service.AutoService;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.hw.Machine;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.function.IntUnaryOperator;

/**
 * {@code hw.vera}: the NVIDIA Vera machine of the ILB thread (seeds-digest §1): 352 CPUs = 2
 * sockets × 88 Olympus cores × SMT2, CPU {@code n} and {@code n + 176} siblings, NUMA node 0 = CPUs
 * 0-87 and 176-263, node 1 = the rest; the Olympus idle-qualification rule on.
 *
 * <p>From the thread: core, thread and node counts, the sibling numbering, the 10 Ki-cycle
 * qualification interval, and that the default firmware exposes asymmetric capacity
 * (SD_ASYM_CPUCAPACITY) while another firmware exposes equal capacity. From NVIDIA's Vera
 * announcement: 1.2 TB/s LPDDR5X per CPU (one CPU per node here). From a third-party report of the
 * Olympus core (6 × 128-bit SVE2 pipes): 24 double-precision FLOP per cycle (6 pipes × 2 lanes × 2
 * for FMA). Assumptions, all parameters:
 *
 * <ul>
 *   <li>clock 3.0 GHz: not published in the sources we have;
 *   <li>one L3 per socket shared by its 88 cores: Vera is one die with a unified L3 on its scalable
 *       coherency fabric, as Grace has;
 *   <li>remote node distance 40: what {@code numactl -H} reports on a Grace CPU Superchip;
 *   <li>asymmetric firmware: the odd-numbered cores (and their siblings) at capacity 973 (95 %),
 *       the others at 1024 — the thread says only that capacities differ; NVIDIA's asym-SMT series
 *       says the firmware exposes "small frequency variations (+/-~5%)", so {@code capacity_levels}
 *       = N &gt; 2 spreads the cores over N evenly spaced capacities from 1024 down to {@code
 *       reduced_capacity} instead (core c at level c mod N);
 *   <li>SMT co-run 0.6 for compute-bound threads: with spatial multithreading a thread gets about
 *       half the core's pipes while its sibling is active; 0.6 leaves room for latency hiding and
 *       stays below the bound 6.2/9.4 ≈ 0.66 that the thread's TFLOP/s figures imply if the
 *       slowdown had applied all the time; 0.9 for memory-bound threads;
 *   <li>30 GB/s per memory-bound thread alone (NVIDIA quotes 13.6 GB/s per core at full load).
 * </ul>
 */
@AutoService(HardwareModelProvider.class)
public final class VeraProvider implements HardwareModelProvider {

  static final int CORES_PER_SOCKET = 88;
  static final int SOCKETS = 2;
  static final int CORES = CORES_PER_SOCKET * SOCKETS;

  private static final Assumptions.Defaults DEFAULTS =
      new Assumptions.Defaults(
          3.0,
          24,
          1200,
          30,
          0.6,
          0.9,
          new String[] {
            "assumption (not in the sources)",
            "6 x 128-bit SVE2 FMA pipes per Olympus core (third-party report)",
            "NVIDIA: up to 1.2 TB/s LPDDR5X per Vera CPU, one CPU per node",
            "assumption (NVIDIA quotes 13.6 GB/s per core at full load)",
            "assumption (spatial multithreading halves the pipes; <= 6.2/9.4 from the thread)",
            "assumption"
          });

  private static final PluginDescriptor DESCRIPTOR = buildDescriptor();

  private static PluginDescriptor buildDescriptor() {
    PluginDescriptor.Builder b =
        PluginDescriptor.builder("hw.vera", PluginKind.HARDWARE_MODEL)
            .description("NVIDIA Vera, 2 x 88 Olympus cores x SMT2 (352 CPUs), 2 NUMA nodes")
            .source(
                "LKML ILB thread (seeds-digest §1): 352 CPUs, siblings n/n+176, node 0 ="
                    + " 0-87,176-263, 10 Ki-cycle idle qualification, asymmetric and equal capacity"
                    + " firmware; NVIDIA Vera announcement: 1.2 TB/s memory per CPU");
    b.parameter(
        ParameterSpec.ofChoice(
            "capacity",
            "firmware variant: asymmetric (default firmware, SD_ASYM_CPUCAPACITY) or equal",
            "asymmetric",
            "asymmetric",
            "equal"));
    b.parameter(
        ParameterSpec.ofInt(
            "reduced_capacity",
            "capacity of reduced_capacity_cpus in the asymmetric variant; assumption",
            973,
            1,
            1023));
    b.parameter(
        ParameterSpec.ofCpuList(
            "reduced_capacity_cpus",
            "CPUs at reduced_capacity in the asymmetric variant (both siblings of a core);"
                + " assumption: the odd-numbered cores",
            "1-175:1/2,177-351:1/2"));
    b.parameter(
        ParameterSpec.ofInt(
            "capacity_levels",
            "asymmetric variant: 2 = reduced_capacity_cpus at reduced_capacity, the rest at 1024;"
                + " N > 2 = core c at level c mod N of N capacities evenly spaced from 1024 down to"
                + " reduced_capacity (reduced_capacity_cpus unused); assumption",
            2,
            2,
            88));
    b.parameter(
        ParameterSpec.ofInt(
            "llcs_per_socket",
            "last-level caches per socket (must divide 88); assumption: one unified L3",
            1,
            1,
            88));
    Assumptions.addRemoteDistance(b, 40, "assumption: as a Grace CPU Superchip reports");
    Assumptions.addQualificationParameters(b);
    Assumptions.addParameters(b, DEFAULTS, true, "NUMA node (one Vera CPU)");
    return b.build();
  }

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public HardwareModel create(Parameters p) {
    Assumptions.checkFor(DESCRIPTOR, p);
    int llcs = p.getInt("llcs_per_socket");
    if (CORES_PER_SOCKET % llcs != 0) {
      throw new IllegalArgumentException(
          "hw.vera: llcs_per_socket=" + llcs + " does not divide the 88 cores of a socket");
    }
    boolean asymmetric = p.getString("capacity").equals("asymmetric");
    int reducedCapacity = p.getInt("reduced_capacity");
    int levels = p.getInt("capacity_levels");
    IntUnaryOperator capacity;
    if (!asymmetric) {
      capacity = cpu -> Topology.SCHED_CAPACITY_SCALE;
    } else if (levels > 2) {
      int span = Topology.SCHED_CAPACITY_SCALE - reducedCapacity;
      capacity =
          cpu ->
              Topology.SCHED_CAPACITY_SCALE
                  - Math.round(span * (float) ((cpu % CORES) % levels) / (levels - 1));
    } else {
      ImmutableCpuMask reduced = parseReduced(p.getString("reduced_capacity_cpus"));
      capacity = cpu -> reduced.test(cpu) ? reducedCapacity : Topology.SCHED_CAPACITY_SCALE;
    }
    RegularMachine shape =
        new RegularMachine(
            asymmetric ? "vera" : "vera/equal-capacity",
            SOCKETS,
            1,
            llcs,
            1,
            CORES_PER_SOCKET / llcs,
            2,
            SiblingNumbering.SPLIT,
            RegularMachine.NodeScope.SOCKET,
            p.getInt(Assumptions.REMOTE_DISTANCE),
            p.getInt(Assumptions.REMOTE_DISTANCE),
            capacity);
    Topology topology = shape.toTopology();
    double bandwidth = p.getDouble(Assumptions.MEMORY);
    return new Machine(
        topology,
        Assumptions.model(topology, p, bandwidth, true),
        Assumptions.facts(
            p,
            bandwidth,
            "NVIDIA Vera as in the ILB thread; clock, LLC layout, co-run factors, capacities of"
                + " the asymmetric firmware and migration costs are assumptions (see hw.vera)."));
  }

  private static ImmutableCpuMask parseReduced(String list) {
    ImmutableCpuMask mask;
    try {
      mask = CpuMasks.parseCpuList(list, CORES * 2);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("hw.vera: reduced_capacity_cpus: " + e.getMessage(), e);
    }
    for (int cpu = mask.first(); cpu >= 0; cpu = mask.next(cpu)) {
      int sibling = cpu < CORES ? cpu + CORES : cpu - CORES;
      if (!mask.test(sibling)) {
        throw new IllegalArgumentException(
            "hw.vera: reduced_capacity_cpus has CPU "
                + cpu
                + " but not its SMT sibling "
                + sibling
                + "; siblings share a core's capacity");
      }
    }
    if (mask.isEmpty() || mask.isFull()) {
      throw new IllegalArgumentException(
          "hw.vera: reduced_capacity_cpus="
              + list
              + " must name some but not all CPUs for capacities to differ; use capacity=equal");
    }
    return mask;
  }
}
