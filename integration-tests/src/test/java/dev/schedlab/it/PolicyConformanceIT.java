package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.testkit.PluginConformance;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every policy plugin of policies-fair and policies-ext passes the conformance kit a third-party
 * plugin must pass: complete descriptor with enforced ranges, and runs with the engine's invariants
 * on every canned machine (SMT1/2/4/8, NUMA, asymmetric, nohz_full), at each parameter's edge
 * values, deterministically.
 */
final class PolicyConformanceIT {

  /** Shorter than the kit's default: every plugin of both families runs, and CI time matters. */
  private static final long DURATION_NS = 20_000_000L;

  private static final PluginRegistry REGISTRY = Scenarios.REGISTRY;

  private static List<PluginProvider> ourPolicies() {
    return REGISTRY.all().stream()
        .filter(p -> p.descriptor().kind().isPolicy())
        .filter(p -> p.getClass().getName().startsWith("dev.schedlab.policies."))
        .collect(Collectors.toList());
  }

  @Test
  void registry_holdsEveryPolicyOfBothFamilies() {
    assertThat(ourPolicies())
        .extracting(PluginProvider::id)
        .contains(
            "fair.ilb.first-idle",
            "fair.ilb.idle-core",
            "fair.nohz.transition-only",
            "fair.nohz.always-when-stopped",
            "fair.wake.sched-idle-aware",
            "ext.smt-buddy.push",
            "ext.newidle.no-numa",
            "ext.wake.rq-depth-distribute",
            "ext.ilb.round-robin");
  }

  @TestFactory
  Stream<DynamicNode> everyPolicyPlugin_conforms() {
    return ourPolicies().stream()
        .map(
            p ->
                DynamicContainer.dynamicContainer(
                    p.id(),
                    PluginConformance.of(p)
                        .withRegistry(REGISTRY)
                        .withDurationNs(DURATION_NS)
                        .dynamicTests()));
  }
}
