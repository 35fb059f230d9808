package dev.schedlab.policies.fair.ilb;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.FirstIdleIlbSelector;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/** Provides {@link FirstIdleIlbSelector}: {@value #ID}. */
@AutoService(IlbSelectorProvider.class)
public final class FirstIdleIlbSelectorProvider implements IlbSelectorProvider {

  /** The plugin id. */
  public static final String ID = "fair.ilb.first-idle";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.ILB_SELECTOR)
          .description(
              "NOHZ idle load balancer = first idle CPU of nohz.idle_cpus_mask ∩ housekeeping,"
                  + " ascending, skipping the kicker (Linux 7.1/7.2)")
          .source(
              "find_new_ilb() in kernel/sched/fair.c, Linux 7.1.5 (kernel-facts §3.5, older"
                  + " form); replaced for 7.3 (seeds-digest §1)")
          .capabilities(Capability.MAINLINE)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public FirstIdleIlbSelectorProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public IlbSelector create(PolicyContext context) {
    return new FirstIdleIlbSelector();
  }
}
