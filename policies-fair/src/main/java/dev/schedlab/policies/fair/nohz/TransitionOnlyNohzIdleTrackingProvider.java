package dev.schedlab.policies.fair.nohz;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.NohzIdleTracking;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.TransitionOnlyNohzIdleTracking;

/** Provides {@link TransitionOnlyNohzIdleTracking}: {@value #ID}. */
@AutoService(NohzIdleTrackingProvider.class)
public final class TransitionOnlyNohzIdleTrackingProvider implements NohzIdleTrackingProvider {

  /** The plugin id. */
  public static final String ID = "fair.nohz.transition-only";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.NOHZ_IDLE_TRACKING)
          .description(
              "Register an idle CPU in nohz.idle_cpus_mask only when idle entry stops a running"
                  + " tick (legacy; misses busy nohz_full CPUs that go idle)")
          .source(
              "tick_nohz_idle_stop_tick() in kernel/time/tick-sched.c, Linux 7.1.5"
                  + " (kernel-facts §3.3); the gap it leaves: seeds-digest §4")
          .capabilities(Capability.MAINLINE)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public TransitionOnlyNohzIdleTrackingProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public NohzIdleTracking create(PolicyContext context) {
    return new TransitionOnlyNohzIdleTracking();
  }
}
