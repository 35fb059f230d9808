package dev.schedlab.cli.args;

import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.hw.Machine;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
 * @param machineOverrides {@code -M} values
 * @param machineParameters every machine parameter as resolved (defaults included), in order
 * @param workloadParameters every workload parameter as resolved (defaults included), in order
 * @param nohzFull the {@code --nohz-full} list, or null
 * @param isolcpus the {@code --isolcpus} value, or null
 */
public record Scenario(
    String machineId,
    HardwareModel hardware,
    WorkloadProvider workload,
    Map<String, String> workloadOverrides,
    long durationNs,
    long seed,
    int hz,
    EngineSettings engineSettings,
    Map<String, String> machineOverrides,
    Map<String, String> machineParameters,
    Map<String, String> workloadParameters,
    String nohzFull,
    String isolcpus) {

  public Scenario {
    // Insertion order kept: reports list the -W values as they were given.
    workloadOverrides = Collections.unmodifiableMap(new LinkedHashMap<>(workloadOverrides));
    machineOverrides = Collections.unmodifiableMap(new LinkedHashMap<>(machineOverrides));
    machineParameters = Collections.unmodifiableMap(new LinkedHashMap<>(machineParameters));
    workloadParameters = Collections.unmodifiableMap(new LinkedHashMap<>(workloadParameters));
  }

  /**
   * Resolves the options against the registry.
   *
   * @param workloadOverrides the {@code -W} values to apply
   * @throws IllegalArgumentException naming the first problem
   */
  public static Scenario resolve(
      PluginRegistry registry, ScenarioOptions options, Map<String, String> workloadOverrides) {
    return resolve(
        registry,
        options,
        PluginArguments.keyValues("-M", options.machineParameters),
        workloadOverrides,
        EngineSettings.parse(options.engineSettings));
  }

  /**
   * As above, with the {@code -M}, {@code -W} and {@code -E} values given: a sweep resolves one
   * scenario per grid point.
   */
  public static Scenario resolve(
      PluginRegistry registry,
      ScenarioOptions options,
      Map<String, String> machineOverrides,
      Map<String, String> workloadOverrides,
      EngineSettings engineSettings) {
    long durationNs = options.durationNs();
    int hz = options.checkedHz();
    HardwareModelProvider machine =
        PluginArguments.require(registry, options.machine, HardwareModelProvider.class);
    HardwareModel model = PluginArguments.machine(registry, options.machine, machineOverrides);
    Topology topology =
        TopologySource.withIsolation(model.topology(), options.nohzFull, options.isolcpus);
    if (topology != model.topology()) {
      // Housekeeping changes no CPU, cache or node, so the performance model stays valid.
      model = new Machine(topology, model.performanceModel(), model.facts());
    }
    WorkloadProvider workload =
        PluginArguments.require(registry, options.workload, WorkloadProvider.class);
    Map<String, String> workloadParameters =
        workload.descriptor().resolve(workloadOverrides).asText();
    return new Scenario(
        options.machine,
        model,
        workload,
        workloadOverrides,
        durationNs,
        options.seed,
        hz,
        engineSettings,
        machineOverrides,
        machine.descriptor().resolve(machineOverrides).asText(),
        workloadParameters,
        options.nohzFull,
        options.isolcpus);
  }

  /** The same scenario simulated for {@code newDurationNs} instead. */
  public Scenario withDurationNs(long newDurationNs) {
    return new Scenario(
        machineId,
        hardware,
        workload,
        workloadOverrides,
        newDurationNs,
        seed,
        hz,
        engineSettings,
        machineOverrides,
        machineParameters,
        workloadParameters,
        nohzFull,
        isolcpus);
  }

  /** The configuration of one run of {@code variant}. */
  public SimulationConfig config(PluginRegistry registry, Variant variant, long runSeed) {
    return engineSettings
        .applyTo(
            SimulationConfig.builder(
                    hardware,
                    new PolicyBinding<>(workload, workload.descriptor().resolve(workloadOverrides)))
                .policies(registry, variant.plugins())
                .seed(runSeed)
                .durationNs(durationNs)
                .hz(hz))
        .build();
  }

  /**
   * Warnings about input that is accepted but probably not meant, one line each: a {@code
   * --nohz-full} list naming every CPU (the boot CPU stays housekeeping, as in {@code
   * housekeeping_setup()}, which prints a warning too), and a plugin that declares it needs SMT,
   * NUMA or asymmetric capacity on a machine without it (it then has nothing to act on; allowed, so
   * that one set of variants can be compared across machines).
   */
  public List<String> warnings(
      ScenarioOptions options, PluginRegistry registry, List<Variant> variants) {
    List<String> warnings = new ArrayList<>();
    Topology t = hardware.topology();
    if (options.nohzFull != null && !options.nohzFull.isBlank()) {
      ImmutableCpuMask named = CpuMasks.parseCpuList(options.nohzFull.trim(), t.nrCpuIds());
      // The rule of Housekeeping.keepBootCpu(): every possible CPU named.
      if (named.isFull()) {
        warnings.add(
            "warning: --nohz-full "
                + options.nohzFull.trim()
                + " names every CPU;"
                + " CPU 0 stays a housekeeping CPU and keeps its tick, as the kernel keeps the boot"
                + " CPU");
      }
    }
    Set<String> seen = new HashSet<>();
    for (Variant v : variants) {
      for (PluginRef ref : v.plugins()) {
        Optional<PluginDescriptor> d = registry.find(ref.id()).map(PluginProvider::descriptor);
        if (d.isEmpty() || PluginRegistry.supports(d.get(), t) || !seen.add(ref.id())) {
          continue;
        }
        warnings.add(
            "warning: "
                + ref.id()
                + " (variant "
                + v.name()
                + ") needs "
                + missing(d.get(), t)
                + ", which "
                + machineId
                + " does not have; it has nothing to"
                + " act on there");
      }
    }
    return warnings;
  }

  private static String missing(PluginDescriptor d, Topology t) {
    if (d.has(Capability.NEEDS_SMT) && !t.isSmt()) {
      return "SMT";
    }
    if (d.has(Capability.NEEDS_NUMA) && t.nodeCount() < 2) {
      return "more than one NUMA node";
    }
    return "asymmetric CPU capacity";
  }

  /** A label for report headers; a workload that describes itself adds that after a colon. */
  public String describe() {
    Topology t = hardware.topology();
    String about = workload.describe(workload.descriptor().resolve(workloadOverrides));
    return machineId
        + " ("
        + t.cpuCount()
        + " CPUs"
        + (t.isSmt() ? ", SMT" + t.smtWidth() : "")
        + (t.housekeeping().toBootArgs().isEmpty() ? "" : ", " + t.housekeeping().toBootArgs())
        + "), "
        + workload.id()
        + (about.isEmpty() ? "" : ": " + about);
  }
}
