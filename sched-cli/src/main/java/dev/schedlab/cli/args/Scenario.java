package dev.schedlab.cli.args;

import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.hw.Machine;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.Topology;
import java.util.Map;

/**
 * What to simulate, resolved and checked before anything runs: the machine (with isolation
 * applied), the workload and its default parameter overrides, the duration, seed and HZ. Turns a
 * {@link Variant} into a {@link SimulationConfig}.
 *
 * @param machineId the machine's plugin id
 * @param hardware the machine
 * @param workload the workload's provider
 * @param workloadOverrides {@code -W} values
 * @param durationNs simulated time
 * @param seed the master seed
 * @param hz tick rate
 * @param engineSettings {@code -E} values
 */
public record Scenario(
    String machineId,
    HardwareModel hardware,
    WorkloadProvider workload,
    Map<String, String> workloadOverrides,
    long durationNs,
    long seed,
    int hz,
    EngineSettings engineSettings) {

  public Scenario {
    workloadOverrides = Map.copyOf(workloadOverrides);
  }

  /**
   * Resolves the options against the registry.
   *
   * @param workloadOverrides the {@code -W} values to apply
   * @throws IllegalArgumentException naming the first problem
   */
  public static Scenario resolve(
      PluginRegistry registry, ScenarioOptions options, Map<String, String> workloadOverrides) {
    return resolve(registry, options, PluginArguments.keyValues("-M", options.machineParameters),
        workloadOverrides, EngineSettings.parse(options.engineSettings));
  }

  /**
   * As above, with the {@code -M}, {@code -W} and {@code -E} values given: a sweep resolves one
   * scenario per grid point.
   */
  public static Scenario resolve(
      PluginRegistry registry, ScenarioOptions options, Map<String, String> machineOverrides,
      Map<String, String> workloadOverrides, EngineSettings engineSettings) {
    long durationNs = options.durationNs();
    int hz = options.checkedHz();
    HardwareModel model = PluginArguments.machine(registry, options.machine, machineOverrides);
    Topology topology =
        TopologySource.withIsolation(model.topology(), options.nohzFull, options.isolcpus);
    if (topology != model.topology()) {
      // Housekeeping changes no CPU, cache or node, so the performance model stays valid.
      model = new Machine(topology, model.performanceModel(), model.facts());
    }
    WorkloadProvider workload =
        PluginArguments.require(registry, options.workload, WorkloadProvider.class);
    Scenario scenario = new Scenario(options.machine, model, workload, workloadOverrides,
        durationNs, options.seed, hz, engineSettings);
    workload.descriptor().resolve(workloadOverrides);
    return scenario;
  }

  /** The configuration of one run of {@code variant}. */
  public SimulationConfig config(PluginRegistry registry, Variant variant, long runSeed) {
    return engineSettings.applyTo(SimulationConfig.builder(hardware,
            new PolicyBinding<>(workload, workload.descriptor().resolve(workloadOverrides)))
        .policies(registry, variant.plugins())
        .seed(runSeed)
        .durationNs(durationNs)
        .hz(hz))
        .build();
  }

  /** A label for report headers; a workload that describes itself adds that after a colon. */
  public String describe() {
    Topology t = hardware.topology();
    String about = workload.describe(workload.descriptor().resolve(workloadOverrides));
    return machineId + " (" + t.cpuCount() + " CPUs" + (t.isSmt() ? ", SMT" + t.smtWidth() : "")
        + (t.housekeeping().toBootArgs().isEmpty() ? "" : ", " + t.housekeeping().toBootArgs())
        + "), " + workload.id() + (about.isEmpty() ? "" : ": " + about);
  }
}
