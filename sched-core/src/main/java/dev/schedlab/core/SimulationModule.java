package dev.schedlab.core;

import dagger.Module;
import dagger.Provides;
import dev.schedlab.core.engine.EngineSetup;
import dev.schedlab.topology.domain.SchedDomains;

/** Derives the engine's inputs from the {@link SimulationConfig} bound into the component. */
@Module
final class SimulationModule {

  private SimulationModule() {}

  @Provides
  static SchedDomains schedDomains(SimulationConfig config) {
    return SchedDomains.build(config.hardware().topology(), config.domainOptions());
  }

  @Provides
  static EngineSetup engineSetup(SimulationConfig config, SchedDomains domains) {
    return new EngineSetup(
        config.hardware(),
        domains,
        config.ilbSelector(),
        config.nohzIdleTracking(),
        config.balancePasses(),
        config.wakeupPolicies(),
        config.workload(),
        config.seed(),
        config.durationNs(),
        config.hz(),
        config.engine(),
        config.balancer(),
        config.costModel());
  }
}
