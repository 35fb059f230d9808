package dev.schedlab.core.engine;

import dev.schedlab.core.balance.LoadBalancer;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.List;

/**
 * An {@link Engine} driven step by step, for mechanism tests: {@link #advanceTo} fires the events
 * up to an instant so that a test can look at the parts in between, {@link #finish} ends the run
 * and returns its result. The fields are the engine's, named as the tests read them.
 */
final class EngineRun {

  final Engine engine;
  final EngineContext ctx;
  final EngineStatistics stats;
  final MutableCpuMask nohzIdleMask;
  final EngineState state;
  final EventLoop loop;
  final List<Task> tasks;
  final CounterRegistry counters;
  final SchedDomains domains;
  final LoadBalancer balancer;
  final EngineHost host;
  final EnginePerfView perfView;

  /** The cheap checks always; the expensive ones with {@code check_invariants}. */
  final InvariantChecker invariants;

  private boolean begun;

  EngineRun(EngineSetup setup) {
    this.engine = new Engine(setup);
    this.ctx = engine.ctx;
    this.stats = ctx.stats;
    this.nohzIdleMask = ctx.nohzIdleMask;
    this.state = ctx.state;
    this.loop = ctx.loop;
    this.tasks = ctx.tasks;
    this.counters = ctx.counters;
    this.domains = ctx.domains;
    this.balancer = engine.balancer;
    this.host = engine.host;
    this.perfView = engine.progress.perfView;
    this.invariants = engine.invariants;
  }

  /** Attaches a timeline listener; call before the first {@link #advanceTo}. */
  EngineRun listener(SimulationListener listener) {
    ctx.listener = listener;
    return this;
  }

  /** Runs the events up to {@code ns}, starting the run first if needed. */
  void advanceTo(long ns) {
    if (!begun) {
      begun = true;
      engine.begin();
    }
    loop.runUntil(ns, engine);
  }

  /** Runs to the end of the simulated time and returns the result (wall time 0). */
  SimulationResult finish() {
    advanceTo(ctx.durationNs);
    engine.finish();
    return RunResults.of(engine, 0);
  }

  /** Runs the whole simulation as {@link Simulation#run()} does, invariant sweep included. */
  SimulationResult run() {
    advanceTo(Long.MAX_VALUE);
    engine.finish();
    invariants.sweep();
    return RunResults.of(engine, 0);
  }

  CpuRunqueue rq(int cpu) {
    return ctx.rqs[cpu];
  }

  Task task(int id) {
    return ctx.tasks.get(id);
  }
}
