package dev.schedlab.core;

import dev.schedlab.core.balance.BalanceCostModel;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.EngineSetup;
import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WakeupPolicyProvider;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.domain.SchedDomainOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything a run needs, as data: one {@link EngineSetup}, which declares every setting (the
 * machine, the policy plugins, the workload, the master seed, the simulated duration, HZ, and the
 * engine and balancer options). Built with {@link #builder}; providers are never injected: the
 * caller discovers them (for example with {@link PluginRegistry}) and hands them in here.
 *
 * @param setup the settings of the run
 */
public record SimulationConfig(EngineSetup setup) {

  /** Default simulated duration: 1 s. */
  public static final long DEFAULT_DURATION_NS = 1_000_000_000L;

  /** Default tick rate. */
  public static final int DEFAULT_HZ = 1000;

  public SimulationConfig {
    Objects.requireNonNull(setup, "setup");
  }

  /** The machine and its performance model ({@link EngineSetup#hardware()}). */
  public HardwareModel hardware() {
    return setup.hardware();
  }

  /** The simulated time to run ({@link EngineSetup#durationNs()}). */
  public long durationNs() {
    return setup.durationNs();
  }

  /** A builder for {@code hardware} running {@code workload}, everything else default. */
  public static Builder builder(HardwareModel hardware, PolicyBinding<WorkloadProvider> workload) {
    return new Builder(hardware, workload);
  }

  /** Builder for {@link SimulationConfig}. */
  public static final class Builder {
    private final HardwareModel hardware;
    private final PolicyBinding<WorkloadProvider> workload;
    private SchedDomainOptions domainOptions = SchedDomainOptions.defaults();
    private PolicyBinding<IlbSelectorProvider> ilbSelector;
    private PolicyBinding<NohzIdleTrackingProvider> nohzIdleTracking;
    private final List<PolicyBinding<BalancePassProvider>> balancePasses = new ArrayList<>();
    private final List<PolicyBinding<WakeupPolicyProvider>> wakeupPolicies = new ArrayList<>();
    private long seed = 1;
    private long durationNs = DEFAULT_DURATION_NS;
    private int hz = DEFAULT_HZ;
    private EngineOptions engine = EngineOptions.defaults();
    private BalancerOptions balancer = BalancerOptions.defaults();
    private BalanceCostModel costModel = BalanceCostModel.defaults();

    private Builder(HardwareModel hardware, PolicyBinding<WorkloadProvider> workload) {
      this.hardware = hardware;
      this.workload = workload;
    }

    public Builder domainOptions(SchedDomainOptions value) {
      this.domainOptions = value;
      return this;
    }

    public Builder ilbSelector(PolicyBinding<IlbSelectorProvider> value) {
      this.ilbSelector = value;
      return this;
    }

    public Builder nohzIdleTracking(PolicyBinding<NohzIdleTrackingProvider> value) {
      this.nohzIdleTracking = value;
      return this;
    }

    public Builder balancePass(PolicyBinding<BalancePassProvider> value) {
      this.balancePasses.add(value);
      return this;
    }

    public Builder wakeupPolicy(PolicyBinding<WakeupPolicyProvider> value) {
      this.wakeupPolicies.add(value);
      return this;
    }

    /**
     * Adds the policy plugins named by {@code refs} (as a profile or variant lists them), looked up
     * in {@code registry} and resolved against their descriptors.
     *
     * @throws IllegalArgumentException for an unknown id, a non-policy plugin, a bad parameter, or
     *     a second ILB selector / registration rule
     */
    public Builder policies(PluginRegistry registry, List<PluginRef> refs) {
      for (PluginRef ref : refs) {
        PluginProvider provider =
            registry
                .find(ref.id())
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            PluginRegistry.unknownMessage(
                                "policy",
                                ref.id(),
                                registry.all().stream()
                                    .filter(p -> p.descriptor().kind().isPolicy())
                                    .map(PluginProvider::id)
                                    .toList())));
        Parameters parameters = provider.descriptor().resolve(ref.overrides());
        if (provider instanceof IlbSelectorProvider ilb) {
          PolicySlots.checkFree(
              PluginKind.ILB_SELECTOR, ilbSelector == null ? null : ilbSelector.id(), ilb.id());
          ilbSelector = new PolicyBinding<>(ilb, parameters);
        } else if (provider instanceof NohzIdleTrackingProvider nohz) {
          PolicySlots.checkFree(
              PluginKind.NOHZ_IDLE_TRACKING,
              nohzIdleTracking == null ? null : nohzIdleTracking.id(),
              nohz.id());
          nohzIdleTracking = new PolicyBinding<>(nohz, parameters);
        } else if (provider instanceof BalancePassProvider pass) {
          balancePasses.add(new PolicyBinding<>(pass, parameters));
        } else if (provider instanceof WakeupPolicyProvider wakeup) {
          wakeupPolicies.add(new PolicyBinding<>(wakeup, parameters));
        } else {
          throw new IllegalArgumentException(
              ref.id() + " is not a policy plugin (it is a " + provider.descriptor().kind() + ")");
        }
      }
      return this;
    }

    public Builder seed(long value) {
      this.seed = value;
      return this;
    }

    public Builder durationNs(long value) {
      this.durationNs = value;
      return this;
    }

    public Builder hz(int value) {
      this.hz = value;
      return this;
    }

    public Builder engine(EngineOptions value) {
      this.engine = value;
      return this;
    }

    public Builder balancer(BalancerOptions value) {
      this.balancer = value;
      return this;
    }

    public Builder costModel(BalanceCostModel value) {
      this.costModel = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException for a non-positive duration or an hz outside 1..10000
     */
    public SimulationConfig build() {
      return new SimulationConfig(
          new EngineSetup(
              hardware,
              domainOptions,
              ilbSelector,
              nohzIdleTracking,
              balancePasses,
              wakeupPolicies,
              workload,
              seed,
              durationNs,
              hz,
              engine,
              balancer,
              costModel));
    }
  }
}
