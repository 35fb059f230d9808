package dev.schedlab.policies.fair.testing;

import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * A {@link PolicyContext} for unit tests: a topology, a provider's parameters resolved from
 * overrides, a state view, a scratch-mask pool with the {@link ScratchMaskPool.MisusePolicy#THROW}
 * policy (misuse fails the test), a fixed-seed random stream and in-memory counters. Sched domains
 * are not built: no plugin of this module reads them.
 */
public final class FakePolicyContext implements PolicyContext {

  private final Topology topology;
  private final Parameters parameters;
  private final CpuStateView state;
  private final ScratchMaskPool scratchMasks;
  private final RandomGenerator random = new SplittableRandom(42);
  private final Map<String, Counter> counters = new LinkedHashMap<>();

  /** A context whose scratch pool is new, with the THROW policy. */
  public FakePolicyContext(
      Topology topology,
      PluginProvider provider,
      Map<String, String> overrides,
      CpuStateView state) {
    this(
        topology,
        provider,
        overrides,
        state,
        new ScratchMaskPool(topology.nrCpuIds(), ScratchMaskPool.MisusePolicy.THROW));
  }

  /** A context sharing {@code scratchMasks} (large pools are costly to build). */
  public FakePolicyContext(
      Topology topology,
      PluginProvider provider,
      Map<String, String> overrides,
      CpuStateView state,
      ScratchMaskPool scratchMasks) {
    this.topology = topology;
    this.parameters = provider.descriptor().resolve(overrides);
    this.state = state;
    this.scratchMasks = scratchMasks;
  }

  @Override
  public Topology topology() {
    return topology;
  }

  @Override
  public SchedDomains domains() {
    throw new UnsupportedOperationException("this test context builds no sched domains");
  }

  @Override
  public Parameters parameters() {
    return parameters;
  }

  @Override
  public CpuStateView state() {
    return state;
  }

  @Override
  public RandomGenerator random() {
    return random;
  }

  @Override
  public ScratchMaskPool scratchMasks() {
    return scratchMasks;
  }

  @Override
  public Counter counter(String name) {
    return counters.computeIfAbsent(name, Counter::new);
  }
}
