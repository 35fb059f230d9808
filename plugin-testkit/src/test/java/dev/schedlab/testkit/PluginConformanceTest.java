package dev.schedlab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.PluginProvider;
import dev.schedlab.testkit.ConformanceReport.Outcome;
import dev.schedlab.testkit.ConformanceReport.Status;
import dev.schedlab.testkit.fixture.broken.BrokenProviders;
import dev.schedlab.testkit.fixture.good.LowestIdleIlbSelectorProvider;
import dev.schedlab.testkit.fixture.good.SmtOnlyIlbSelectorProvider;
import dev.schedlab.workloads.HackbenchWorkloadProvider;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;

/**
 * The kit passes a conforming plugin on every canned machine and fails each kind of broken plugin
 * with a message that names the rule and what to do, never passing it.
 */
final class PluginConformanceTest {

  /** One small machine and workload: enough to make a broken plugin fail, and quick. */
  private static PluginConformance quick(PluginProvider provider) {
    return PluginConformance.of(provider)
        .withMachines(List.of(CannedMachines.smt2()))
        .withWorkloads(List.of(CannedWorkloads.hackbench()))
        .withDurationNs(20_000_000L);
  }

  private static String failureOf(ConformanceReport report, String checkPrefix) {
    List<Outcome> failed =
        report.failures().stream()
            .filter(o -> o.check().startsWith(checkPrefix))
            .collect(Collectors.toList());
    assertThat(failed)
        .as("failed checks starting with '%s' in%n%s", checkPrefix, report)
        .isNotEmpty();
    return failed.get(0).message();
  }

  @Test
  void conformingSelector_passesEveryCheckOnEveryCannedMachine() {
    ConformanceReport report = PluginConformance.of(new LowestIdleIlbSelectorProvider()).run();
    assertThat(report.passed()).as("%s", report).isTrue();
    assertThat(report.count(Status.SKIPPED)).isZero();
    // 7 descriptor checks + 1 parameter + 7 machines × 2 workloads + 1 edge value
    // + determinism + exercised.
    assertThat(report.count(Status.PASSED)).isEqualTo(7 + 1 + 14 + 1 + 1 + 1);
    assertThat(report.outcomes())
        .extracting(Outcome::check)
        .contains(
            "engine asym: wl.hackbench fds=4,groups=2,loops=1000",
            "engine nohz-full: wl.gemm chunk=1ms",
            "engine with edge values: max_examined=1",
            "parameter max_examined: documented, default valid, range enforced");
  }

  @Test
  void busyCpuSelector_failsWithTheEnginesInvariantViolation() {
    ConformanceReport report = quick(new BrokenProviders.BusyCpuIlbSelectorProvider()).run();
    assertThat(failureOf(report, "engine smt2"))
        .contains("kittest.broken.busy-cpu on smt2")
        .contains("engine invariant 'ILB CPU idle' violated at ")
        .contains("the ILB selector chose CPU")
        .contains("which is not idle");
  }

  @Test
  void busyCpuSelector_assertConformsThrowsListingEveryFailure() {
    assertThatThrownBy(
            () -> quick(new BrokenProviders.BusyCpuIlbSelectorProvider()).assertConforms())
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("plugin kittest.broken.busy-cpu does not conform:")
        .hasMessageContaining("  - provider: registered with ServiceLoader:")
        .hasMessageContaining("@AutoService(IlbSelectorProvider.class)")
        .hasMessageContaining("which is not idle");
  }

  @Test
  void selectorIgnoringHousekeeping_failsOnTheNohzFullMachineOnly() {
    ConformanceReport report =
        PluginConformance.of(new BrokenProviders.IgnoresHousekeepingIlbSelectorProvider())
            .withMachines(List.of(CannedMachines.smt2(), CannedMachines.nohzFull()))
            .withWorkloads(List.of(CannedWorkloads.hackbench()))
            .withDurationNs(20_000_000L)
            .run();
    assertThat(failureOf(report, "engine nohz-full"))
        .contains("engine invariant 'ILB CPU housekeeping' violated at ")
        .contains("the ILB selector chose CPU")
        .contains("which is not a housekeeping CPU (nohz_full;");
    assertThat(report.outcomes())
        .filteredOn(o -> o.check().startsWith("engine smt2"))
        .extracting(Outcome::status)
        .containsExactly(Status.PASSED);
  }

  @Test
  void notFinalProvider_failsTheClassShapeCheck() {
    ConformanceReport report = quick(new BrokenProviders.NotFinalIlbSelectorProvider()).run();
    assertThat(failureOf(report, "provider: public final"))
        .contains("NotFinalIlbSelectorProvider is not final");
  }

  @Test
  void badId_failsWithTheDescriptorsOwnMessage() {
    ConformanceReport report = quick(new BrokenProviders.BadIdIlbSelectorProvider()).run();
    assertThat(report.pluginId()).endsWith("BadIdIlbSelectorProvider");
    assertThat(failureOf(report, "descriptor: constant"))
        .contains("descriptor() threw IllegalArgumentException")
        .contains("\"MySelector\" must be family.name");
    assertThat(report.outcomes()).noneMatch(o -> o.check().startsWith("engine"));
  }

  @Test
  void undocumentedParameterAndMissingSource_fail() {
    ConformanceReport report = quick(new BrokenProviders.UndocumentedIlbSelectorProvider()).run();
    assertThat(failureOf(report, "parameter depth")).contains("depth has no description");
    assertThat(failureOf(report, "descriptor: description and source")).contains("no source");
  }

  @Test
  void duplicateId_failsNamingTheOtherProvider() {
    ConformanceReport report = quick(new BrokenProviders.DuplicateIdIlbSelectorProvider()).run();
    assertThat(failureOf(report, "descriptor: id unique"))
        .contains(
            "id kittest.ilb.lowest-idle is already used by "
                + LowestIdleIlbSelectorProvider.class.getName());
  }

  @Test
  void createRejectingADocumentedValue_failsTheEdgeValueRun() {
    ConformanceReport report =
        quick(new BrokenProviders.NarrowerThanDocumentedIlbSelectorProvider()).run();
    assertThat(failureOf(report, "engine with edge values: threshold=100"))
        .contains("with threshold=100 on smt2")
        .contains("IllegalArgumentException: threshold 100 not supported")
        .contains("(at " + BrokenProviders.class.getName());
    assertThat(report.outcomes())
        .filteredOn(o -> o.check().equals("engine with edge values: threshold=1"))
        .extracting(Outcome::status)
        .containsExactly(Status.PASSED);
  }

  @Test
  void staticStateAcrossSimulations_failsTheDeterminismCheck() {
    ConformanceReport report = quick(new BrokenProviders.StaticStateIlbSelectorProvider()).run();
    assertThat(failureOf(report, "engine determinism"))
        .contains("two runs with seed 1 differ")
        .contains("PolicyContext.random()");
  }

  @Test
  void smtOnlySelector_isSkippedOnMachinesWithoutSmt() {
    ConformanceReport report =
        PluginConformance.of(new SmtOnlyIlbSelectorProvider())
            .withMachines(List.of(CannedMachines.smt1(), CannedMachines.smt2()))
            .withWorkloads(List.of(CannedWorkloads.hackbench()))
            .withDurationNs(20_000_000L)
            .run();
    assertThat(report.passed()).as("%s", report).isTrue();
    assertThat(report.outcomes())
        .filteredOn(o -> o.status() == Status.SKIPPED)
        .extracting(Outcome::check, Outcome::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "engine smt1: wl.hackbench fds=4,groups=2,loops=1000",
                "kittest.ilb.smt-only declares [NEEDS_SMT]; smt1 (1n2l4c1t, no SMT, two LLCs)"
                    + " lacks it"));
  }

  @Test
  void workloadProvider_getsDescriptorChecksOnly() {
    ConformanceReport report = PluginConformance.of(new HackbenchWorkloadProvider()).run();
    assertThat(report.passed()).as("%s", report).isTrue();
    assertThat(report.outcomes()).noneMatch(o -> o.check().startsWith("engine"));
  }

  @Test
  void dynamicTests_groupChecksByMachine() {
    List<String> groups =
        PluginConformance.dynamicTests(new LowestIdleIlbSelectorProvider())
            .map(DynamicNode::getDisplayName)
            .collect(Collectors.toList());
    assertThat(groups)
        .containsExactly(
            "provider",
            "descriptor",
            "parameter max_examined",
            "engine smt1",
            "engine smt2",
            "engine smt4",
            "engine smt8",
            "engine numa",
            "engine asym",
            "engine nohz-full",
            "engine with edge values",
            "engine determinism",
            "engine exercised");
    DynamicContainer smt8 =
        (DynamicContainer)
            PluginConformance.dynamicTests(new LowestIdleIlbSelectorProvider())
                .filter(n -> n.getDisplayName().equals("engine smt8"))
                .findFirst()
                .orElseThrow();
    assertThat(smt8.getChildren().map(DynamicNode::getDisplayName))
        .containsExactly("wl.hackbench fds=4,groups=2,loops=1000", "wl.gemm chunk=1ms");
  }

  @Test
  void durationAboveTheLimit_isRejected() {
    assertThatThrownBy(
            () ->
                PluginConformance.of(new LowestIdleIlbSelectorProvider())
                    .withDurationNs(200_000_000L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("allowed 1000000..100000000");
  }
}
