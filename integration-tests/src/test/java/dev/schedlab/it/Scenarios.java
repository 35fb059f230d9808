package dev.schedlab.it;

import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.hw.Machine;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.ProfileProvider;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.Housekeeping;
import dev.schedlab.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Builds end-to-end runs from registry ids, as the command line does. */
final class Scenarios {

  static final PluginRegistry REGISTRY = PluginRegistry.load();

  private Scenarios() {}

  /** The machine {@code id} with overrides, and optional kernel boot isolation arguments. */
  static HardwareModel machine(String id, Map<String, String> params, String bootArgs) {
    HardwareModelProvider provider = REGISTRY.require(id, HardwareModelProvider.class);
    HardwareModel model = provider.create(provider.descriptor().resolve(params));
    if (bootArgs.isEmpty()) {
      return model;
    }
    Topology topology = model.topology();
    Topology isolated =
        topology.withHousekeeping(Housekeeping.parse(bootArgs, topology.nrCpuIds()));
    return new Machine(isolated, model.performanceModel(), model.facts());
  }

  /**
   * Writes an rt-app file into {@code dir}: {@code instances} workers allowed on CPUs {@code
   * first}..{@code last}, each looping forever over 5 ms of run and 5 ms of sleep.
   */
  static Path rtappWorkers(Path dir, int first, int last, int instances) throws IOException {
    StringBuilder cpus = new StringBuilder();
    for (int cpu = first; cpu <= last; cpu++) {
      cpus.append(cpu == first ? "" : ",").append(cpu);
    }
    Path file = dir.resolve("workers.json");
    Files.writeString(
        file,
        "{\"tasks\": {\"worker\": {\"instance\": "
            + instances
            + ", \"cpus\": ["
            + cpus
            + "], \"loop\": -1, \"run\": 5000, \"sleep\": 5000}}}");
    return file;
  }

  /** The plugins of profile {@code name} plus extra plugin refs. */
  static List<PluginRef> profile(String name, PluginRef... extra) {
    ProfileProvider profile =
        REGISTRY.profile(name).orElseThrow(() -> new AssertionError("no profile " + name));
    var refs = new java.util.ArrayList<>(profile.profile().plugins());
    refs.addAll(List.of(extra));
    return refs;
  }

  /** Runs {@code workload} on {@code hardware} under {@code plugins}, on the quiet machine. */
  static SimulationResult run(
      HardwareModel hardware,
      String workload,
      Map<String, String> workloadParams,
      List<PluginRef> plugins,
      long durationNs,
      long seed,
      SimulationListener listener) {
    return run(
        hardware,
        workload,
        workloadParams,
        plugins,
        durationNs,
        seed,
        listener,
        BalancerOptions.defaults(),
        QUIET);
  }

  /**
   * The engine's defaults without the machine's background (timer expiries, device interrupts,
   * kworkers; on by default since issue 19): the quiet machine on which the scenarios of claims 2-4
   * and the barrier-model runs of claim 1 were recorded (docs/reproductions.md). The claim-1 runs
   * of the faithful GEMM pass {@link EngineOptions#defaults()} instead.
   */
  static final EngineOptions QUIET = EngineOptions.defaults().withoutBackground();

  /**
   * As above, with the balancer's options (e.g. Linux 7.1.5 rules instead of mainline) and the
   * engine's (e.g. a wakeup race window).
   */
  static SimulationResult run(
      HardwareModel hardware,
      String workload,
      Map<String, String> workloadParams,
      List<PluginRef> plugins,
      long durationNs,
      long seed,
      SimulationListener listener,
      BalancerOptions balancer,
      EngineOptions engine) {
    WorkloadProvider provider = REGISTRY.require(workload, WorkloadProvider.class);
    SimulationConfig config =
        SimulationConfig.builder(
                hardware,
                new PolicyBinding<>(provider, provider.descriptor().resolve(workloadParams)))
            .policies(REGISTRY, plugins)
            .durationNs(durationNs)
            .seed(seed)
            .balancer(balancer)
            .engine(engine)
            .build();
    return Simulations.run(config, listener);
  }
}
