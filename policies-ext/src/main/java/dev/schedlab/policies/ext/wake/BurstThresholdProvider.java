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
 * Provides {@link BurstThreshold}: the burst-wakeup part of the SMT_BUDDY_ASSIST RFC
 * (seeds-digest.md §3, part 5), which moves a wakee off a CPU that already has {@code threshold}
 * runnable tasks onto an idle CPU of {@code nohz.idle_cpus_mask}.
 */
@AutoService(WakeupPolicyProvider.class)
public final class BurstThresholdProvider implements WakeupPolicyProvider {

  /** The plugin id. */
  public static final String ID = "ext.wake.burst-threshold";

  /** Name of the parameter standing for the RFC's {@code smt_buddy_balance_task} tunable. */
  public static final String THRESHOLD = "threshold";

  /** Upper bound chosen by schedlab: the RFC states only the minimum of 2. */
  private static final int MAX_THRESHOLD = 1024;

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WAKEUP_POLICY)
          .description(
              "If the chosen CPU already has >= threshold tasks, use the first idle, allowed CPU"
                  + " of the NOHZ idle mask after it (wrapping)")
          .source(
              "SMT_BUDDY_ASSIST RFC (6 patches, Hygon 7447v, October 2026 scheduler tree),"
                  + " part 5: burst wakeups in select_task_rq_fair(); seeds-digest.md §3")
          .parameter(
              ParameterSpec.ofInt(
                  THRESHOLD,
                  "runnable tasks on the chosen CPU (nr_running) from which the wakee is"
                      + " redirected; the RFC's smt_buddy_balance_task, minimum 2 as in the RFC,"
                      + " maximum chosen by schedlab",
                  4,
                  2,
                  MAX_THRESHOLD))
          .capabilities(Capability.EXPERIMENTAL)
          .build();

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public BurstThresholdProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public WakeupPolicy create(PolicyContext context) {
    return new BurstThreshold(context.parameters().getInt(THRESHOLD), context.counter("redirects"));
  }
}
