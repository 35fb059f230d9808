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
 * {@code hw.altra}: Ampere Altra as in the NOHZ and SCHED_IDLE threads (seeds-digest §4, §5): 80
 * Neoverse-N1 cores, no SMT, one NUMA node.
 *
 * <p>LLC as Linux sees it: Altra's PPTT describes 2-core clusters (a shared snoop-control unit) but
 * no CPU-side shared cache (the 32 MB system-level cache sits in the mesh), so after the 2022 arm64
 * topology fixes the MC level spans the 2-core cluster; {@code llc_cores=80} models the SLC as one
 * LLC instead. From Ampere's Altra product brief: 3.0 GHz (Q80-30), 8 channels of DDR4-3200 (204.8
 * GB/s). Neoverse-N1 has two 128-bit FP/SIMD pipes: 8 DP FLOP per cycle with FMA. 20 GB/s per
 * memory-bound thread is an assumption.
 */
@AutoService(HardwareModelProvider.class)
public final class AltraProvider implements HardwareModelProvider {

  static final int CORES = 80;

  private static final Assumptions.Defaults DEFAULTS =
      new Assumptions.Defaults(
          3.0,
          8,
          204.8,
          20,
          0,
          0,
          new String[] {
            "Ampere Altra Q80-30 product brief",
            "Neoverse-N1: 2 x 128-bit FP pipes with FMA",
            "8 x DDR4-3200 (Ampere product brief)",
            "assumption",
            "",
            ""
          });

  private static final PluginDescriptor DESCRIPTOR = buildDescriptor();

  private static PluginDescriptor buildDescriptor() {
    PluginDescriptor.Builder b =
        PluginDescriptor.builder("hw.altra", PluginKind.HARDWARE_MODEL)
            .description("Ampere Altra, 80 Neoverse-N1 cores, no SMT, one NUMA node")
            .source(
                "LKML NOHZ and SCHED_IDLE threads (seeds-digest §4, §5): 80 cores Neoverse-N1;"
                    + " Ampere Altra product brief: 3.0 GHz, 8 x DDR4-3200");
    b.parameter(
        ParameterSpec.ofInt(
            "llc_cores",
            "cores per last-level cache as the MC level sees it (must divide 80); 2 = the PPTT"
                + " cluster Linux uses, 80 = the system-level cache",
            2,
            1,
            CORES));
    Assumptions.addParameters(b, DEFAULTS, false, "NUMA node");
    return b.build();
  }

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public HardwareModel create(Parameters p) {
    Assumptions.checkFor(DESCRIPTOR, p);
    int llcCores = p.getInt("llc_cores");
    if (CORES % llcCores != 0) {
      throw new IllegalArgumentException(
          "hw.altra: llc_cores=" + llcCores + " does not divide the 80 cores");
    }
    Topology topology =
        new RegularMachine(
                "altra",
                1,
                1,
                CORES / llcCores,
                1,
                llcCores,
                1,
                SiblingNumbering.ADJACENT,
                RegularMachine.NodeScope.MACHINE,
                0,
                0,
                cpu -> Topology.SCHED_CAPACITY_SCALE)
            .toTopology();
    double bandwidth = p.getDouble(Assumptions.MEMORY);
    return Assumptions.machine(
        topology,
        p,
        bandwidth,
        "Ampere Altra Q80-30; LLC span and per-thread bandwidth"
            + " are assumptions (see hw.altra).");
  }
}
