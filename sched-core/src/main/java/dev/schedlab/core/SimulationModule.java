package dev.schedlab.core;

import dagger.Module;
import dagger.Provides;
import dev.schedlab.core.engine.EngineSetup;

/** Hands the engine the {@link EngineSetup} of the {@link SimulationConfig} bound in. */
@Module
final class SimulationModule {

  private SimulationModule() {}

  @Provides
  static EngineSetup engineSetup(SimulationConfig config) {
    return config.setup();
  }
}
