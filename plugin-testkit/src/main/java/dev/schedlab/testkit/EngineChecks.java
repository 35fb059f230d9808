package dev.schedlab.testkit;

import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.InvariantViolation;
import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WakeupPolicyProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;

/**
 * The checks that run a policy plugin through the real engine with the invariant checker on: every
 * canned machine × canned workload with its default parameters, one run per non-default edge value
 * of each parameter, and a determinism check (same seed twice, same result).
 */
final class EngineChecks {

  private final PluginProvider provider;
  private final PluginDescriptor descriptor;
  private final Map<String, String> overrides;
  private final List<CannedMachine> machines;
  private final List<CannedWorkload> workloads;
  private final long durationNs;
  private final long seed;

  /** Runs done and ILB selections asked of the plugin in them, for the "was exercised" check. */
  private final AtomicInteger runs = new AtomicInteger();

  private final AtomicLong ilbSelections = new AtomicLong();

  EngineChecks(
      PluginProvider provider,
      PluginDescriptor descriptor,
      Map<String, String> overrides,
      List<CannedMachine> machines,
      List<CannedWorkload> workloads,
      long durationNs,
      long seed) {
    this.provider = provider;
    this.descriptor = descriptor;
    this.overrides = overrides;
    this.machines = machines;
    this.workloads = workloads;
    this.durationNs = durationNs;
    this.seed = seed;
  }

  /** Whether the engine can run {@code provider} as a policy. */
  static boolean isPolicy(PluginProvider provider) {
    return provider instanceof IlbSelectorProvider
        || provider instanceof NohzIdleTrackingProvider
        || provider instanceof BalancePassProvider
        || provider instanceof WakeupPolicyProvider;
  }

  /** The checks, in order. */
  List<ConformanceCheck> checks() {
    List<ConformanceCheck> checks = new ArrayList<>();
    for (CannedMachine machine : machines) {
      for (CannedWorkload workload : workloads) {
        checks.add(
            new ConformanceCheck(
                "engine " + machine.name(),
                workload.toString(),
                () -> runChecked(machine, workload, overrides, durationNs, "")));
      }
    }
    CannedMachine edgeMachine = firstSupported();
    CannedWorkload edgeWorkload = workloads.get(0);
    for (ParameterSpec spec : descriptor.parameters()) {
      for (String value : ParameterEdges.insideButNotDefault(spec)) {
        Map<String, String> edge = new java.util.HashMap<>(overrides);
        edge.put(spec.name(), value);
        checks.add(
            new ConformanceCheck(
                "engine with edge values",
                spec.name() + "=" + value,
                () ->
                    runChecked(
                        requireSupported(edgeMachine),
                        edgeWorkload,
                        edge,
                        Math.min(durationNs, EDGE_DURATION_NS),
                        " with " + spec.name() + "=" + value)));
      }
    }
    checks.add(
        new ConformanceCheck(
            "engine determinism",
            "same seed, same result",
            () -> checkDeterminism(requireSupported(edgeMachine), edgeWorkload)));
    if (provider instanceof IlbSelectorProvider) {
      checks.add(
          new ConformanceCheck(
              "engine exercised", "the engine asked the selector", this::checkIlbExercised));
    }
    return checks;
  }

  /** Runs with edge parameter values are shorter: they look for crashes, not for behaviour. */
  private static final long EDGE_DURATION_NS = 20_000_000L;

  private SimulationResult runChecked(
      CannedMachine machine,
      CannedWorkload workload,
      Map<String, String> values,
      long duration,
      String with) {
    requireSupported(machine);
    String what = descriptor.id() + with + " on " + machine + " under " + workload;
    SimulationResult result = run(machine, workload, values, duration, what);
    runs.incrementAndGet();
    ilbSelections.addAndGet(result.ilb().choices() + result.ilb().noIlb());
    if (result.totalBusyNs() <= 0) {
      throw new AssertionError(what + ": no CPU ran a task in " + duration + " ns");
    }
    return result;
  }

  private SimulationResult run(
      CannedMachine machine,
      CannedWorkload workload,
      Map<String, String> values,
      long duration,
      String what) {
    Parameters parameters;
    try {
      parameters = descriptor.resolve(values);
    } catch (IllegalArgumentException e) {
      throw new AssertionError(what + ": parameters do not resolve: " + e.getMessage(), e);
    }
    SimulationConfig.Builder config =
        SimulationConfig.builder(machine.hardware(), workload.binding())
            .durationNs(duration)
            .seed(seed)
            .engine(EngineOptions.defaults().withCheckInvariants(true));
    bind(config, parameters);
    try {
      return Simulations.run(config.build());
    } catch (InvariantViolation e) {
      // The message starts "invariant 'NAME' violated at T s simulated".
      throw new AssertionError(what + ": engine " + e.getMessage() + where(e), e);
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError(
          what
              + ": the run failed with "
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage()
              + where(e),
          e);
    }
  }

  private void bind(SimulationConfig.Builder config, Parameters parameters) {
    if (provider instanceof IlbSelectorProvider ilb) {
      config.ilbSelector(new PolicyBinding<>(ilb, parameters));
    } else if (provider instanceof NohzIdleTrackingProvider nohz) {
      config.nohzIdleTracking(new PolicyBinding<>(nohz, parameters));
    } else if (provider instanceof BalancePassProvider pass) {
      config.balancePass(new PolicyBinding<>(pass, parameters));
    } else if (provider instanceof WakeupPolicyProvider wakeup) {
      config.wakeupPolicy(new PolicyBinding<>(wakeup, parameters));
    } else {
      throw new IllegalStateException(descriptor.id() + " is not a policy plugin");
    }
  }

  private void checkDeterminism(CannedMachine machine, CannedWorkload workload) {
    String what = descriptor.id() + " on " + machine + " under " + workload;
    String first = run(machine, workload, overrides, durationNs, what).fingerprint();
    String second = run(machine, workload, overrides, durationNs, what).fingerprint();
    if (!first.equals(second)) {
      throw new AssertionError(
          what
              + ": two runs with seed "
              + seed
              + " differ ("
              + firstDifference(first, second)
              + "); take randomness only from PolicyContext.random() and keep no state in static"
              + " fields or between create() calls");
    }
  }

  private void checkIlbExercised() {
    if (runs.get() == 0) {
      Assumptions.abort("no engine run has completed yet");
    }
    if (ilbSelections.get() == 0) {
      throw new AssertionError(
          "in "
              + runs.get()
              + " runs the engine never asked "
              + descriptor.id()
              + " for an ILB, so the runs did not test it; run the engine checks on machines"
              + " and workloads with idle CPUs and NOHZ kicks");
    }
  }

  private CannedMachine firstSupported() {
    CannedMachine smt2 = null;
    for (CannedMachine m : machines) {
      if (m.name().equals("smt2") && supports(m)) {
        smt2 = m;
      }
    }
    if (smt2 != null) {
      return smt2;
    }
    return machines.stream().filter(this::supports).findFirst().orElse(machines.get(0));
  }

  private boolean supports(CannedMachine machine) {
    return PluginRegistry.supports(descriptor, machine.hardware().topology());
  }

  private CannedMachine requireSupported(CannedMachine machine) {
    if (!supports(machine)) {
      List<String> needs = new ArrayList<>();
      for (Capability c : descriptor.capabilities()) {
        if (c.name().startsWith("NEEDS_")) {
          needs.add(c.name());
        }
      }
      Assumptions.abort(descriptor.id() + " declares " + needs + "; " + machine + " lacks it");
    }
    return machine;
  }

  /** The first line where two fingerprints differ. */
  private static String firstDifference(String a, String b) {
    String[] x = a.split("\n", -1);
    String[] y = b.split("\n", -1);
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (!x[i].equals(y[i])) {
        return "first difference: \"" + abbreviate(x[i]) + "\" vs \"" + abbreviate(y[i]) + "\"";
      }
    }
    return "one result has more lines";
  }

  private static String abbreviate(String s) {
    return s.length() <= 160 ? s : s.substring(0, 157) + "...";
  }

  /** The plugin's own frame nearest the throw, if any: where an author should look. */
  private String where(Throwable e) {
    String pluginPackage = provider.getClass().getPackageName();
    for (Throwable t = e; t != null; t = t.getCause()) {
      for (StackTraceElement frame : t.getStackTrace()) {
        if (frame.getClassName().startsWith(pluginPackage + ".")) {
          return " (at " + frame + ")";
        }
      }
    }
    return "";
  }
}
