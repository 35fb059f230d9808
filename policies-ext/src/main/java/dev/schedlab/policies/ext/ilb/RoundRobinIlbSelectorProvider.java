package dev.schedlab.policies.ext.ilb;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/** Provides {@link RoundRobinIlbSelector}: {@value #ID}. */
@AutoService(IlbSelectorProvider.class)
public final class RoundRobinIlbSelectorProvider implements IlbSelectorProvider {

  /** The plugin id. */
  public static final String ID = "ext.ilb.round-robin";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.ILB_SELECTOR)
          .description(
              "NOHZ idle load balancer = next idle housekeeping CPU of nohz.idle_cpus_mask after"
                  + " the previous choice, wrapping, skipping the kicker; SMT-blind")
          .source(
              "Imran Khan, \"[PATCH 2/2] sched/fair: distribute nohz ILB work across idle CPUs\","
                  + " LKML 2026-04-21, https://lkml.iu.edu/2604.2/06474.html (RFC, not merged)")
          .capabilities(Capability.EXPERIMENTAL)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public RoundRobinIlbSelectorProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public IlbSelector create(PolicyContext context) {
    return new RoundRobinIlbSelector();
  }
}
