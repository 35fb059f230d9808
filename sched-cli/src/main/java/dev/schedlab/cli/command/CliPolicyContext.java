package dev.schedlab.cli.command;

import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.Counter;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The context a policy gets when the command line runs it outside a simulation ({@code
 * explain-ilb}): a frozen state, a fixed-seed random stream, and a scratch-mask pool that throws on
 * misuse so a faulty plugin fails loudly.
 */
final class CliPolicyContext implements PolicyContext {

  private final Topology topology;
  private final SchedDomains domains;
  private final Parameters parameters;
  private final CpuStateView state;
  private final ScratchMaskPool scratchMasks;

  CliPolicyContext(
      Topology topology, SchedDomains domains, Parameters parameters, CpuStateView state) {
    this.topology = topology;
    this.domains = domains;
    this.parameters = parameters;
    this.state = state;
    this.scratchMasks =
        new ScratchMaskPool(topology.nrCpuIds(), ScratchMaskPool.MisusePolicy.THROW);
  }

  @Override
  public Topology topology() {
    return topology;
  }

  @Override
  public SchedDomains domains() {
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
    return new SplittableRandom(1);
  }

  @Override
  public ScratchMaskPool scratchMasks() {
    return scratchMasks;
  }

  @Override
  public Counter counter(String name) {
    return new Counter(parameters.pluginId() + "." + name);
  }
}
