package dev.schedlab.core.engine;

import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.random.RandomGenerator;

/** The {@link PolicyContext} the engine hands one plugin when creating it. */
record EnginePolicyContext(
    String pluginId,
    Topology topology,
    SchedDomains domains,
    Parameters parameters,
    CpuStateView state,
    RandomGenerator random,
    ScratchMaskPool scratchMasks,
    CounterRegistry counters)
    implements PolicyContext {

  @Override
  public Counter counter(String name) {
    return counters.counter(pluginId + "." + name);
  }
}
