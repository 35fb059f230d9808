package dev.schedlab.hw.machines;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.Locale;

/**
 * {@code hw.shape}: any regular machine written as a ktstr-style shape string ({@code 2n4l8c2t} = 2
 * nodes × 4 LLCs per node × 8 cores per LLC × 2 threads; see {@link Shape#GRAMMAR}), with distances
 * 10/20 and capacity 1024. The performance numbers are generic assumptions of a current server core
 * (2.5 GHz, 16 DP FLOP/cycle, 100 GB/s per node, SMT co-run 0.6 / 0.9); the SMT factors are unused
 * when the shape has one thread per core.
 */
@AutoService(HardwareModelProvider.class)
public final class ShapeProvider implements HardwareModelProvider {

  private static final Assumptions.Defaults DEFAULTS =
      new Assumptions.Defaults(
          2.5,
          16,
          100,
          15,
          0.6,
          0.9,
          new String[] {
            "generic assumption",
            "generic assumption (two 256-bit FMA pipes)",
            "generic assumption",
            "generic assumption",
            "generic assumption (SMT2 gain ~20 %)",
            "generic assumption"
          });

  private static final PluginDescriptor DESCRIPTOR = buildDescriptor();

  private static PluginDescriptor buildDescriptor() {
    PluginDescriptor.Builder b =
        PluginDescriptor.builder("hw.shape", PluginKind.HARDWARE_MODEL)
            .description("a regular machine from a shape string such as 2n4l8c2t")
            .source("ktstr topology notation; distances 10/20, capacity 1024");
    b.parameter(ParameterSpec.ofString("shape", "the shape: " + Shape.GRAMMAR, "2n2l8c2t"));
    b.parameter(
        ParameterSpec.ofChoice(
            "numbering",
            "SMT sibling numbering: split (CPU n and n+cores, as x86 and Vera) or adjacent (POWER)",
            "split",
            "split",
            "adjacent"));
    Assumptions.addParameters(b, DEFAULTS, true, "NUMA node");
    return b.build();
  }

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public HardwareModel create(Parameters p) {
    Assumptions.checkFor(DESCRIPTOR, p);
    Shape shape;
    try {
      shape = Shape.parse(p.getString("shape"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("hw.shape: " + e.getMessage(), e);
    }
    Topology topology =
        shape.toTopology(
            SiblingNumbering.valueOf(p.getString("numbering").toUpperCase(Locale.ROOT)));
    double bandwidth = p.getDouble(Assumptions.MEMORY);
    return Assumptions.machine(
        topology,
        p,
        bandwidth,
        "Shape "
            + shape
            + "; every performance number is a"
            + " generic assumption (see hw.shape).");
  }
}
