package dev.schedlab.core.engine;

import dev.schedlab.core.stats.SimulationResult;
import jakarta.inject.Inject;
import java.util.Objects;

/**
 * One simulation: a machine, a set of policy plugins and a workload, run for a fixed simulated time
 * on a discrete-event engine. Single use and single-threaded; run many in parallel on separate
 * threads (there is no shared mutable state).
 *
 * <p>Built by the Dagger component in {@code dev.schedlab.core}, or directly from an {@link
 * EngineSetup}. The engine itself is package-private ({@link Engine} and its parts).
 */
public final class Simulation {

  private final Engine engine;
  private boolean ran;

  /** Builds the simulation; nothing runs until {@link #run()}. */
  @Inject
  public Simulation(EngineSetup setup) {
    this.engine = new Engine(setup);
  }

  /**
   * Attaches a listener for timeline events (trace export); call before {@link #run()}.
   *
   * @return this simulation
   */
  public Simulation listener(SimulationListener value) {
    if (ran) {
      throw new IllegalStateException("attach the listener before the run starts");
    }
    engine.ctx.listener = Objects.requireNonNull(value, "listener");
    return this;
  }

  /** The engine, for tests of its parts. */
  Engine engine() {
    return engine;
  }

  /**
   * Runs the simulation to its end and returns what it measured.
   *
   * @throws IllegalStateException if called twice
   * @throws InvariantViolation when an invariant breaks (the cheap ones are always checked)
   */
  public SimulationResult run() {
    if (ran) {
      throw new IllegalStateException("a Simulation runs once; build another one");
    }
    ran = true;
    long wallStart = System.nanoTime();
    engine.begin();
    engine.ctx.loop.run(engine);
    engine.finish();
    engine.invariants.sweep();
    long wallNs = System.nanoTime() - wallStart;
    return RunResults.of(engine, wallNs);
  }
}
