package dev.schedlab.policies.fair.wake;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicyProvider;

/** Provides {@link SchedIdleAnyWakeupPolicy}: {@value #ID}. */
@AutoService(WakeupPolicyProvider.class)
public final class SchedIdleAnyWakeupPolicyProvider implements WakeupPolicyProvider {

  /** The plugin id. */
  public static final String ID = "fair.wake.sched-idle-any";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WAKEUP_POLICY)
          .description(
              "A CPU running only SCHED_IDLE tasks counts as idle for any wakee (before the"
                  + " SCHED_IDLE wakee fix)")
          .source(
              "sched_idle_cpu() in select_idle_*() of kernel/sched/fair.c up to Linux 7.0;"
                  + " replaced by fd54d81c2c0e in the 7.1 merge window (seeds-digest §5)")
          .capabilities(Capability.MAINLINE)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public SchedIdleAnyWakeupPolicyProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public WakeupPolicy create(PolicyContext context) {
    return new SchedIdleAnyWakeupPolicy();
  }
}
