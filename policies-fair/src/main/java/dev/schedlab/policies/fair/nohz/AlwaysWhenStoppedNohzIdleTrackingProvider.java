package dev.schedlab.policies.fair.nohz;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.NohzIdleTracking;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/**
 * Provides {@link AlwaysWhenStoppedNohzIdleTracking}: {@value #ID}.
 *
 * <p>Declared {@link Capability#EXPERIMENTAL}, not {@link Capability#MAINLINE}: the 7.1.5 tree
 * still has the transition-only test (kernel-facts §3.3), and no mainline commit carrying the fix
 * was found (an earlier attempt of the same change, "time/tick-sched: idle load balancing when
 * nohz_full cpu becomes idle", v1-v4, May 2024, was not merged either). See the module README.
 */
@AutoService(NohzIdleTrackingProvider.class)
public final class AlwaysWhenStoppedNohzIdleTrackingProvider implements NohzIdleTrackingProvider {

  /** The plugin id. */
  public static final String ID = "fair.nohz.always-when-stopped";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.NOHZ_IDLE_TRACKING)
          .description(
              "Register an idle CPU in nohz.idle_cpus_mask whenever it enters idle with the tick"
                  + " stopped, idempotently (the nohz_full fix)")
          .source(
              "nohz_full fix to tick_nohz_idle_stop_tick() (seeds-digest §4; Ampere Altra,"
                  + " 6.19-rc8); not in Linux 7.1.5 (kernel-facts §3.3), mainline landing"
                  + " unverified")
          .capabilities(Capability.EXPERIMENTAL)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public AlwaysWhenStoppedNohzIdleTrackingProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public NohzIdleTracking create(PolicyContext context) {
    return new AlwaysWhenStoppedNohzIdleTracking();
  }
}
