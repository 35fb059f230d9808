package dev.schedlab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reusable rules pass on plugin code that follows them and report each kind of violation,
 * naming the class, on code that does not.
 */
final class SchedlabArchitectureRulesTest {

  private static final String GOOD = "dev.schedlab.testkit.fixture.good";
  private static final String SLOPPY = "dev.schedlab.testkit.fixture.sloppy";

  private static JavaClasses good;
  private static JavaClasses sloppy;

  @BeforeAll
  static void importFixtures() {
    good = new ClassFileImporter().importPackages(GOOD);
    sloppy = new ClassFileImporter().importPackages(SLOPPY);
  }

  @Test
  void pluginRules_conformingPlugin_passes() {
    assertThat(good.contain(GOOD + ".LowestIdleIlbSelectorProvider")).isTrue();
    SchedlabArchitectureRules.pluginRules(GOOD).check(good);
  }

  @Test
  void pluginRules_sloppyPlugin_reportsEveryKindOfViolation() {
    String report = failureReport(SchedlabArchitectureRules.pluginRules(SLOPPY), sloppy);
    assertThat(report)
        .contains("dev.schedlab.core.engine.EngineOptions")
        .contains(
            "SloppyIlbSelectorProvider is not annotated @AutoService(IlbSelectorProvider.class)")
        .contains("SloppyIlbSelectorProvider has no public no-arg constructor")
        .contains("modifier FINAL")
        .contains("java.util.Random.<init>()")
        .contains("SloppyIlbSelectorProvider.created")
        .contains("Cycle detected");
  }

  @Test
  void pluginRuleList_reportsEachRuleSeparately() {
    List<ArchRule> rules = SchedlabArchitectureRules.pluginRuleList(SLOPPY);
    List<Boolean> violated =
        rules.stream().map(r -> r.evaluate(sloppy).hasViolation()).collect(Collectors.toList());
    assertThat(violated).containsOnly(true).hasSize(5);
  }

  @Test
  void dependOnlyOnTopologyApi_allowedExtra_lifts() {
    ArchRule rule =
        SchedlabArchitectureRules.dependOnlyOnTopologyApi(SLOPPY, "dev.schedlab.core..");
    assertThat(rule.evaluate(sloppy).hasViolation()).isFalse();
  }

  @Test
  void checkPlugin_packageWithoutMainClasses_failsInsteadOfPassingVacuously() {
    // The fixtures are test classes and checkPlugin imports main classes only: nothing to check
    // must fail, so a misspelt package cannot pass.
    assertThatThrownBy(() -> SchedlabArchitectureRules.checkPlugin(SLOPPY))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("failed to check any classes");
  }

  @Test
  void packageArgument_notAPackageName_isRejected() {
    assertThatThrownBy(() -> SchedlabArchitectureRules.pluginRules("com.example.(*)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be a package name");
  }

  private static String failureReport(ArchRule rule, JavaClasses classes) {
    EvaluationResult result = rule.evaluate(classes);
    assertThat(result.hasViolation()).isTrue();
    return String.join("\n", result.getFailureReport().getDetails());
  }
}
