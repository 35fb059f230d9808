package dev.schedlab.core;

import dagger.BindsInstance;
import dagger.Component;
import dev.schedlab.core.engine.Simulation;

/** The Dagger graph of one run: a {@link SimulationConfig} in, a {@link Simulation} out. */
@Component(modules = SimulationModule.class)
interface SimulationComponent {

  /** The simulation, built once per component. */
  Simulation simulation();

  /** Creates a component per run. */
  @Component.Factory
  interface Factory {
    SimulationComponent create(@BindsInstance SimulationConfig config);
  }
}
