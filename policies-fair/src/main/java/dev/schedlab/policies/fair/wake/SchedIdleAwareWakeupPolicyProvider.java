package dev.schedlab.policies.fair.wake;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicyProvider;

/** Provides {@link SchedIdleAwareWakeupPolicy}: {@value #ID}. */
@AutoService(WakeupPolicyProvider.class)
public final class SchedIdleAwareWakeupPolicyProvider implements WakeupPolicyProvider {

  /** The plugin id. */
  public static final String ID = "fair.wake.sched-idle-aware";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WAKEUP_POLICY)
          .description(
              "A CPU running only SCHED_IDLE tasks counts as idle only for wakees that are not"
                  + " SCHED_IDLE themselves (the SCHED_IDLE wakee fix)")
          .source(
              "choose_sched_idle_rq()/choose_idle_cpu() in kernel/sched/fair.c, Linux 7.1.5"
                  + " (kernel-facts §5.5); commit fd54d81c2c0e, merged with sched-core-2026-04-13"
                  + " for 7.1 (seeds-digest §5)")
          .capabilities(Capability.MAINLINE)
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public SchedIdleAwareWakeupPolicyProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public WakeupPolicy create(PolicyContext context) {
    return new SchedIdleAwareWakeupPolicy();
  }
}
