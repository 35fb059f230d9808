package dev.schedlab.hw.machines;

import dev.schedlab.hw.perf.StandardPerformanceModel;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.Parameters;
import java.util.Map;

/** Test shortcuts for creating machines. */
final class Machines {

  private Machines() {}

  static HardwareModel create(HardwareModelProvider provider, Map<String, String> overrides) {
    return provider.create(Parameters.resolve(provider.descriptor(), overrides));
  }

  static HardwareModel create(HardwareModelProvider provider) {
    return create(provider, Map.of());
  }

  static StandardPerformanceModel model(HardwareModel machine) {
    return (StandardPerformanceModel) machine.performanceModel();
  }
}
