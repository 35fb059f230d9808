package dev.schedlab.testkit.fakes;

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
 * The creation context of one plugin: the machine and its sched domains (built on first use), the
 * plugin's parameters resolved through its own descriptor (so validation is the real one), a
 * fixed-seed random stream, scratch masks that throw on misuse ({@link
 * ScratchMaskPool.MisusePolicy#THROW}: misuse fails the test), and counters the test can read back.
 */
public final class FakePolicyContext implements PolicyContext {

  private final Topology topology;
  private final Parameters parameters;
  private final CpuStateView state;
  private final ScratchMaskPool scratchMasks;
  private final RandomGenerator random = new SplittableRandom(42);
  private final Map<String, Counter> counters = new LinkedHashMap<>();
  private SchedDomains domains;

  private FakePolicyContext(
      Topology topology, Parameters parameters, CpuStateView state, ScratchMaskPool scratchMasks) {
    this.topology = topology;
    this.parameters = parameters;
    this.state = state;
    this.scratchMasks = scratchMasks;
  }

  /** A context for {@code provider} with its default parameters. */
  public static FakePolicyContext of(
      PluginProvider provider, Topology topology, CpuStateView state) {
    return of(provider, topology, state, Map.of());
  }

  /** A context for {@code provider} with {@code overrides} applied to its parameters. */
  public static FakePolicyContext of(
      PluginProvider provider,
      Topology topology,
      CpuStateView state,
      Map<String, String> overrides) {
    return of(
        provider,
        topology,
        state,
        overrides,
        new ScratchMaskPool(topology.nrCpuIds(), ScratchMaskPool.MisusePolicy.THROW));
  }

  /**
   * As above, sharing {@code scratchMasks} between contexts: a pool for thousands of CPUs is costly
   * to build once per case of a sweep.
   */
  public static FakePolicyContext of(
      PluginProvider provider,
      Topology topology,
      CpuStateView state,
      Map<String, String> overrides,
      ScratchMaskPool scratchMasks) {
    return new FakePolicyContext(
        topology, provider.descriptor().resolve(overrides), state, scratchMasks);
  }

  @Override
  public Topology topology() {
    return topology;
  }

  @Override
  public SchedDomains domains() {
    if (domains == null) {
      domains = SchedDomains.build(topology);
    }
    return domains;
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

  /** The value of counter {@code name}; 0 if the plugin never asked for it. */
  public long counterValue(String name) {
    Counter counter = counters.get(name);
    return counter == null ? 0 : counter.get();
  }
}
