package dev.schedlab.testkit;

import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.TestAbortedException;

/**
 * Checks that a plugin provider conforms to schedlab's plugin contract, for a plugin author's own
 * tests:
 *
 * <ul>
 *   <li>the provider is a {@code public final} class with a public no-arg constructor, registered
 *       with {@link java.util.ServiceLoader} ({@code @AutoService});
 *   <li>its descriptor is constant, its id is {@code family.name}, unique among the plugins on the
 *       class path and of the kind the class implements; description and source are given; every
 *       parameter is documented, its default is valid, values at its bounds are accepted and values
 *       just outside are rejected with a message naming the range; unknown parameter names are
 *       rejected with a message listing the known ones;
 *   <li>a policy plugin (ILB selector, NOHZ idle tracking, balance pass, wakeup policy) runs
 *       through the real engine with the invariant checker on, on every {@linkplain CannedMachines
 *       canned machine} (SMT1/2/4/8, NUMA, asymmetric capacity, nohz_full) under every {@linkplain
 *       CannedWorkloads canned workload}, skipping machines its capabilities exclude; once more
 *       with each non-default edge value of each parameter; twice with the same seed, which must
 *       give the same result; and an ILB selector must actually be asked.
 * </ul>
 *
 * <p>In a JUnit 5 test, either one assertion:
 *
 * <pre>{@code
 * @Test
 * void provider_conforms() {
 *   PluginConformance.assertConforms(new MyIlbSelectorProvider());
 * }
 * }</pre>
 *
 * or one dynamic test per check, so a report names each machine:
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicNode> conformance() {
 *   return PluginConformance.of(new MyIlbSelectorProvider()).dynamicTests();
 * }
 * }</pre>
 *
 * <p>Engine runs are {@value #DEFAULT_DURATION_NS} ns of simulated time each (at most {@value
 * #MAX_DURATION_NS}), so the whole kit takes a few seconds per plugin. Instances are immutable; the
 * {@code with...} methods return copies.
 */
public final class PluginConformance {

  /** Simulated time of each engine run by default: 50 ms. */
  public static final long DEFAULT_DURATION_NS = 50_000_000L;

  /** Longest simulated time per run the kit accepts: 100 ms. */
  public static final long MAX_DURATION_NS = 100_000_000L;

  private final PluginProvider provider;
  private final List<CannedMachine> machines;
  private final List<CannedWorkload> workloads;
  private final Map<String, String> parameters;
  private final PluginRegistry registry;
  private final long durationNs;
  private final long seed;

  private PluginConformance(
      PluginProvider provider,
      List<CannedMachine> machines,
      List<CannedWorkload> workloads,
      Map<String, String> parameters,
      PluginRegistry registry,
      long durationNs,
      long seed) {
    this.provider = Objects.requireNonNull(provider, "provider");
    this.machines = List.copyOf(machines);
    this.workloads = List.copyOf(workloads);
    this.parameters = Map.copyOf(parameters);
    this.registry = registry;
    this.durationNs = durationNs;
    this.seed = seed;
    if (this.machines.isEmpty() || this.workloads.isEmpty()) {
      throw new IllegalArgumentException("the kit needs at least one machine and one workload");
    }
    if (durationNs < 1_000_000L || durationNs > MAX_DURATION_NS) {
      throw new IllegalArgumentException(
          "durationNs " + durationNs + " is out of range: allowed 1000000.." + MAX_DURATION_NS);
    }
  }

  /** The kit for {@code provider} with every canned machine and workload, seed 1. */
  public static PluginConformance of(PluginProvider provider) {
    return new PluginConformance(
        provider,
        CannedMachines.all(),
        CannedWorkloads.all(),
        Map.of(),
        null,
        DEFAULT_DURATION_NS,
        1);
  }

  /**
   * Runs every check on {@code provider}.
   *
   * @throws AssertionError listing every failed check
   */
  public static void assertConforms(PluginProvider provider) {
    of(provider).assertConforms();
  }

  /** One dynamic test per check of {@code provider}, grouped, for a {@code @TestFactory}. */
  public static Stream<DynamicNode> dynamicTests(PluginProvider provider) {
    return of(provider).dynamicTests();
  }

  /** A copy running on {@code value} instead of the canned machines. */
  public PluginConformance withMachines(List<CannedMachine> value) {
    return new PluginConformance(
        provider, value, workloads, parameters, registry, durationNs, seed);
  }

  /** A copy running under {@code value} instead of the canned workloads. */
  public PluginConformance withWorkloads(List<CannedWorkload> value) {
    return new PluginConformance(provider, machines, value, parameters, registry, durationNs, seed);
  }

  /** A copy whose engine runs use these parameter overrides (name → raw value). */
  public PluginConformance withParameters(Map<String, String> value) {
    return new PluginConformance(provider, machines, workloads, value, registry, durationNs, seed);
  }

  /**
   * A copy checking id uniqueness among {@code value} rather than among the providers the plugin's
   * class loader discovers.
   */
  public PluginConformance withRegistry(PluginRegistry value) {
    return new PluginConformance(
        provider, machines, workloads, parameters, value, durationNs, seed);
  }

  /** A copy with another simulated time per engine run (1 ms to 100 ms). */
  public PluginConformance withDurationNs(long value) {
    return new PluginConformance(provider, machines, workloads, parameters, registry, value, seed);
  }

  /** A copy with another master seed. */
  public PluginConformance withSeed(long value) {
    return new PluginConformance(
        provider, machines, workloads, parameters, registry, durationNs, value);
  }

  /** Every check, in order; engine checks only for policy plugins with a readable descriptor. */
  public List<ConformanceCheck> checks() {
    DescriptorChecks descriptorChecks = new DescriptorChecks(provider, registry);
    List<ConformanceCheck> checks = new ArrayList<>(descriptorChecks.checks());
    PluginDescriptor descriptor = descriptorChecks.descriptorOrNull();
    if (descriptor != null && EngineChecks.isPolicy(provider)) {
      checks.addAll(
          new EngineChecks(provider, descriptor, parameters, machines, workloads, durationNs, seed)
              .checks());
    }
    return checks;
  }

  /** Runs every check and reports each outcome; never throws for a non-conforming plugin. */
  public ConformanceReport run() {
    List<ConformanceReport.Outcome> outcomes = new ArrayList<>();
    for (ConformanceCheck check : checks()) {
      outcomes.add(execute(check));
    }
    return new ConformanceReport(pluginName(), outcomes);
  }

  /**
   * Runs every check.
   *
   * @throws AssertionError listing every failed check
   */
  public void assertConforms() {
    run().assertPassed();
  }

  /**
   * The checks as JUnit dynamic tests, one container per group ({@code descriptor}, {@code engine
   * smt2}, ...); a check excluded by the plugin's capabilities is reported as aborted.
   */
  public Stream<DynamicNode> dynamicTests() {
    Map<String, List<DynamicNode>> groups = new LinkedHashMap<>();
    for (ConformanceCheck check : checks()) {
      groups
          .computeIfAbsent(check.group(), g -> new ArrayList<>())
          .add(DynamicTest.dynamicTest(check.name(), () -> check.body().run()));
    }
    return groups.entrySet().stream()
        .map(e -> DynamicContainer.dynamicContainer(e.getKey(), e.getValue().stream()));
  }

  private static ConformanceReport.Outcome execute(ConformanceCheck check) {
    try {
      check.body().run();
      return new ConformanceReport.Outcome(
          check.displayName(), ConformanceReport.Status.PASSED, "");
    } catch (TestAbortedException e) {
      return new ConformanceReport.Outcome(
          check.displayName(), ConformanceReport.Status.SKIPPED, String.valueOf(e.getMessage()));
    } catch (AssertionError e) {
      return new ConformanceReport.Outcome(
          check.displayName(), ConformanceReport.Status.FAILED, String.valueOf(e.getMessage()));
    } catch (Exception e) {
      return new ConformanceReport.Outcome(
          check.displayName(), ConformanceReport.Status.FAILED, "threw " + e);
    }
  }

  private String pluginName() {
    try {
      return provider.descriptor().id();
    } catch (RuntimeException e) {
      return provider.getClass().getName();
    }
  }
}
