package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceCostModel;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WakeupPolicyProvider;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.domain.SchedDomainOptions;
import java.util.List;
import java.util.Objects;

/**
 * Everything one {@link Simulation} is built from, as plain data: the machine, the policy plugins
 * (providers with resolved parameters; the engine creates the policies), the workload, the master
 * seed, the simulated duration, HZ, and the engine and balancer options. Each setting is declared
 * here once; {@code dev.schedlab.core.SimulationConfig} holds one of these. Providers are never
 * injected: the caller discovers them (for example with {@link PluginRegistry}) and hands them in.
 *
 * @param hardware the machine and its performance model
 * @param domainOptions how sched domains are built from {@code hardware.topology()}
 * @param ilbSelector the {@code find_new_ilb()} rule, or null for the built-in first-idle rule
 * @param nohzIdleTracking the {@code nohz.idle_cpus_mask} registration rule, or null for the
 *     built-in transition-only rule
 * @param balancePasses balancing hooks, in order
 * @param wakeupPolicies wakeup hooks, in order
 * @param workload the workload
 * @param seed the master seed every random stream derives from
 * @param durationNs simulated time to run
 * @param hz ticks per second (kernel default 250; 1000 by default here, as the threads' machines)
 * @param engine engine assumptions
 * @param balancer balancer tunables
 * @param costModel time charged for balancing work
 */
public record EngineSetup(
    HardwareModel hardware,
    SchedDomainOptions domainOptions,
    PolicyBinding<IlbSelectorProvider> ilbSelector,
    PolicyBinding<NohzIdleTrackingProvider> nohzIdleTracking,
    List<PolicyBinding<BalancePassProvider>> balancePasses,
    List<PolicyBinding<WakeupPolicyProvider>> wakeupPolicies,
    PolicyBinding<WorkloadProvider> workload,
    long seed,
    long durationNs,
    int hz,
    EngineOptions engine,
    BalancerOptions balancer,
    BalanceCostModel costModel) {

  /**
   * @throws IllegalArgumentException for a non-positive duration or an hz outside 1..10000
   */
  public EngineSetup {
    Objects.requireNonNull(hardware, "hardware");
    Objects.requireNonNull(domainOptions, "domainOptions");
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(balancer, "balancer");
    Objects.requireNonNull(costModel, "costModel");
    balancePasses = List.copyOf(balancePasses);
    wakeupPolicies = List.copyOf(wakeupPolicies);
    if (durationNs <= 0) {
      throw new IllegalArgumentException(
          "durationNs " + durationNs + " outside the allowed range 1.." + Long.MAX_VALUE);
    }
    if (hz < 1 || hz > 10_000) {
      throw new IllegalArgumentException("hz " + hz + " outside the allowed range 1..10000");
    }
  }
}
