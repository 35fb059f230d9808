package dev.schedlab.policies.ext.wake;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicyProvider;

/** Provides {@link StableIdleCore}: {@value #ID}. */
@AutoService(WakeupPolicyProvider.class)
public final class StableIdleCoreProvider implements WakeupPolicyProvider {

  /** The plugin id. */
  public static final String ID = "ext.wake.stable-idle-core";

  /** Name of the parameter limiting the rule to asymmetric-capacity machines. */
  public static final String ASYM_ONLY = "asym_only";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WAKEUP_POLICY)
          .description(
              "A wakeup that picks a CPU on a fully idle SMT core takes the core's first allowed"
                  + " sibling instead (one stable CPU per idle core)")
          .source(
              "Andrea Righi, \"[PATCH] sched/fair: Stabilize idle SMT core selection with"
                  + " asym-capacity\", LKML 2026-06-30,"
                  + " https://lkml.iu.edu/hypermail/linux/kernel/2606.3/11951.html (NVIDIA"
                  + " NV-Kernels PR #480, superseded by the NOHZ idle-core fix in PR #523)")
          .parameter(
              ParameterSpec.ofBoolean(
                  ASYM_ONLY,
                  "act only on machines with asymmetric CPU capacities, as the patch (its"
                      + " select_idle_capacity() path); false also on equal-capacity machines",
                  true))
          .capabilities(Capability.EXPERIMENTAL, Capability.NEEDS_SMT)
          .build();

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public StableIdleCoreProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public WakeupPolicy create(PolicyContext context) {
    return new StableIdleCore(
        context.topology(), context.parameters().getBoolean(ASYM_ONLY), context.counter("moves"));
  }
}
