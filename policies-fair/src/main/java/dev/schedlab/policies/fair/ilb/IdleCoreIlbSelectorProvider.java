package dev.schedlab.policies.fair.ilb;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/**
 * Provides {@link IdleCoreIlbSelector}: {@value #ID}, with parameter {@value #PRUNING} ({@code
 * v2|v3|v4}, default {@code v4}) choosing the review revision's sibling pruning.
 */
@AutoService(IlbSelectorProvider.class)
public final class IdleCoreIlbSelectorProvider implements IlbSelectorProvider {

  /** The plugin id. */
  public static final String ID = "fair.ilb.idle-core";

  /** The parameter choosing the pruning revision. */
  public static final String PRUNING = "pruning";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.ILB_SELECTOR)
          .description(
              "NOHZ idle load balancer = first idle housekeeping CPU on a fully idle SMT core,"
                  + " else the first idle one (merged for Linux 7.3)")
          .source(
              "find_new_ilb() in kernel/sched/fair.c@293f9611ae73, \"sched/fair: Prefer fully"
                  + " idle cores for NOHZ balancing\", tip sched/core 2026-08-07, 7.3 merge window"
                  + " (kernel-facts §3.5, seeds-digest §1)")
          .parameter(
              ParameterSpec.ofChoice(
                  PRUNING,
                  "SMT-sibling pruning of the walk by patch revision: v2 prunes the siblings of a"
                      + " partially busy core, v3 also those of a busy CPU once a fallback exists,"
                      + " v4 (merged) as v3 without the explicit kicker skip; all choose the same"
                      + " CPU, later ones examine fewer",
                  IlbPruning.V4.parameterValue(),
                  IlbPruning.V2.parameterValue(),
                  IlbPruning.V3.parameterValue(),
                  IlbPruning.V4.parameterValue()))
          .capabilities(Capability.MAINLINE)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public IdleCoreIlbSelectorProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public IlbSelector create(PolicyContext context) {
    return new IdleCoreIlbSelector(
        context.topology(),
        context.scratchMasks(),
        IlbPruning.fromParameter(context.parameters().getString(PRUNING)));
  }
}
