package dev.schedlab.hw.machines;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;

/**
 * {@code hw.power-smt8}: a POWER10-style SMT8 machine, 1 socket × 8 cores × SMT8 (64 CPUs),
 * siblings adjacent, one LLC per core (POWER10 reports its L3 per core), one node.
 *
 * <p>Not from the threads: it exists to see whether the ILB rule and the SMT push matter when a
 * core has eight threads. Assumptions, as parameters: 3.5 GHz, 16 DP FLOP/cycle (four 128-bit FMA
 * pipes per SMT8 core), 400 GB/s per socket (OMI memory), SMT co-run 0.7 / 0.9, 15 GB/s per
 * memory-bound thread.
 */
@AutoService(HardwareModelProvider.class)
public final class PowerSmt8Provider implements HardwareModelProvider {

  private static final Assumptions.Defaults DEFAULTS =
      new Assumptions.Defaults(
          3.5,
          16,
          400,
          15,
          0.7,
          0.9,
          new String[] {
            "assumption (POWER10 range)", "assumption (4 x 128-bit FMA per SMT8 core)",
            "assumption (OMI-attached DDR4)", "assumption",
            "assumption (POWER SMT gains more than x86 SMT2)", "assumption"
          });

  private static final PluginDescriptor DESCRIPTOR = buildDescriptor();

  private static PluginDescriptor buildDescriptor() {
    PluginDescriptor.Builder b =
        PluginDescriptor.builder("hw.power-smt8", PluginKind.HARDWARE_MODEL)
            .description("POWER10-style SMT8 machine, 1 x 8 cores x SMT8 (64 CPUs)")
            .source("Not in the threads; POWER10 SMT8 layout (adjacent siblings, L3 per core)");
    PowerMachines.addLayoutParameters(b, 1, 8, 1, "POWER10 reports its L3 per core");
    Assumptions.addParameters(b, DEFAULTS, true, "NUMA node (socket)");
    return b.build();
  }

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public HardwareModel create(Parameters p) {
    return PowerMachines.create(
        DESCRIPTOR,
        p,
        "power-smt8",
        8,
        "POWER10-style SMT8 machine; every number is an assumption (see hw.power-smt8).");
  }
}
