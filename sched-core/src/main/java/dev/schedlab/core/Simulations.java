package dev.schedlab.core;

import dev.schedlab.core.engine.Simulation;
import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;

/**
 * Runs simulations. Each call builds a fresh engine; calls on different threads are independent.
 */
public final class Simulations {

  private Simulations() {}

  /** Builds the engine for {@code config} without running it. */
  public static Simulation create(SimulationConfig config) {
    return DaggerSimulationComponent.factory().create(config).simulation();
  }

  /** Runs {@code config} to its end and returns what it measured. */
  public static SimulationResult run(SimulationConfig config) {
    return create(config).run();
  }

  /** Runs {@code config} with {@code listener} receiving its timeline events. */
  public static SimulationResult run(SimulationConfig config, SimulationListener listener) {
    return create(config).listener(listener).run();
  }
}
