package dev.schedlab.policies.ext.wake;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicyProvider;

/**
 * Provides {@link RqDepthDistribute}: the alternative a reviewer of the SMT_BUDDY_ASSIST RFC
 * proposed instead of its burst-wakeup threshold (seeds-digest.md §3, after part 5).
 */
@AutoService(WakeupPolicyProvider.class)
public final class RqDepthDistributeProvider implements WakeupPolicyProvider {

  /** The plugin id. */
  public static final String ID = "ext.wake.rq-depth-distribute";

  /** Name of the parameter: how many times the average depth counts as too deep. */
  public static final String MULTIPLE = "multiple";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WAKEUP_POLICY)
          .description(
              "If the chosen CPU's runqueue is deeper than multiple x the root-domain average"
                  + " (sampled by periodic balancing), rotate over the allowed CPUs"
                  + " (cpumask_any_distribute) and reset the CPU's balance interval")
          .source(
              "Reviewer's alternative to part 5 (burst wakeups) of the SMT_BUDDY_ASSIST RFC"
                  + " (6 patches, Hygon 7447v, October 2026 scheduler tree); seeds-digest.md §3")
          .parameter(
              ParameterSpec.ofInt(
                  MULTIPLE,
                  "redistribute when nr_running(chosen) > multiple x average nr_running per"
                      + " active CPU; 3 as the reviewer suggested, range chosen by schedlab",
                  3,
                  2,
                  16))
          .capabilities(Capability.EXPERIMENTAL)
          .build();

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public RqDepthDistributeProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public WakeupPolicy create(PolicyContext context) {
    return new RqDepthDistribute(
        context.parameters().getInt(MULTIPLE), context.counter("distributions"));
  }
}
