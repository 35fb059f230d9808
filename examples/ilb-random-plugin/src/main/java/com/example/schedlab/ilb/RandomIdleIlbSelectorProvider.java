package com.example.schedlab.ilb;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/** Provides {@link RandomIdleIlbSelector}: {@value #ID}. */
@AutoService(IlbSelectorProvider.class)
public final class RandomIdleIlbSelectorProvider implements IlbSelectorProvider {

  /** The plugin id. */
  public static final String ID = "example.ilb.random-idle";

  /** Restrict the draw to CPUs on fully idle SMT cores when there are any. */
  public static final String PREFER_IDLE_CORE = "prefer_idle_core";

  /** Bound on the idle candidates counted, as SIS_UTIL bounds the idle-CPU scan. */
  public static final String MAX_CANDIDATES = "max_candidates";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.ILB_SELECTOR)
          .description(
              "NOHZ idle load balancer = a random idle housekeeping CPU of nohz.idle_cpus_mask,"
                  + " preferring fully idle SMT cores (example plugin)")
          .source("original: example for plugin authors (examples/ilb-random-plugin)")
          .parameter(
              ParameterSpec.ofBoolean(
                  PREFER_IDLE_CORE,
                  "draw only among CPUs whose SMT siblings are all idle, when there are any",
                  true))
          .parameter(
              ParameterSpec.ofInt(
                  MAX_CANDIDATES,
                  "idle candidates counted at most, in ascending CPU order (bounds the walk)",
                  64,
                  1,
                  8192))
          .capabilities(Capability.EXPERIMENTAL)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public RandomIdleIlbSelectorProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public IlbSelector create(PolicyContext context) {
    return new RandomIdleIlbSelector(
        context.random(),
        context.parameters().getBoolean(PREFER_IDLE_CORE),
        context.parameters().getInt(MAX_CANDIDATES));
  }
}
