package dev.schedlab.hw.machines;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;

/**
 * {@code hw.power-smt4}: the "small SMT4 system" on which a reviewer of the ILB patch saw no change
 * (seeds-digest §1), modelled as a POWER9-style machine: 1 socket × 8 cores × SMT4 (32 CPUs),
 * siblings adjacent, L3 shared by core pairs (as coral-lassen.xml shows for POWER9).
 *
 * <p>Assumptions, as parameters: 3.8 GHz, 8 DP FLOP/cycle (two 128-bit VSX FMA pipes per SMT4
 * core), 170 GB/s per socket (8 × DDR4-2666), SMT co-run 0.7 (POWER cores are built for SMT and
 * lose less per thread than x86 SMT2) / 0.9, 15 GB/s per memory-bound thread.
 */
@AutoService(HardwareModelProvider.class)
public final class PowerSmt4Provider implements HardwareModelProvider {

  private static final Assumptions.Defaults DEFAULTS =
      new Assumptions.Defaults(
          3.8,
          8,
          170,
          15,
          0.7,
          0.9,
          new String[] {
            "assumption (POWER9 scale-out range)", "assumption (2 x 128-bit VSX FMA per SMT4 core)",
            "assumption (8 x DDR4-2666)", "assumption",
            "assumption (POWER SMT gains more than x86 SMT2)", "assumption"
          });

  private static final PluginDescriptor DESCRIPTOR = buildDescriptor();

  private static PluginDescriptor buildDescriptor() {
    PluginDescriptor.Builder b =
        PluginDescriptor.builder("hw.power-smt4", PluginKind.HARDWARE_MODEL)
            .description("POWER9-style SMT4 machine, 1 x 8 cores x SMT4 (32 CPUs)")
            .source(
                "LKML ILB thread (seeds-digest §1): a small SMT4 system; layout after"
                    + " coral-lassen.xml (POWER9: SMT4, adjacent siblings, L3 per core pair)");
    PowerMachines.addLayoutParameters(b, 1, 8, 2, "POWER9 shares L2/L3 by core pairs");
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
        "power-smt4",
        4,
        "POWER9-style SMT4 machine; the size, clock, bandwidth and co-run factors are"
            + " assumptions (see hw.power-smt4).");
  }
}
