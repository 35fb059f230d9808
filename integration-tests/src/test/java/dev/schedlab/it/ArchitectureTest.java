package dev.schedlab.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.schedlab.testkit.SchedlabArchitectureRules;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layering of DESIGN.md holds in the compiled main code: topology-api depends on no
 * other module of ours; policies-fair, policies-ext, hw-models and workloads pass the same reusable
 * plugin rules a third-party plugin applies ({@link SchedlabArchitectureRules}: only topology-api,
 * providers public final with @AutoService, no JDK randomness or clock, no mutable static state, no
 * cycles); policy families are independent; the command line's packages are layered (args, reports,
 * sweeps, commands, the entry point); packages have no cycles; no part of the engine refers back to
 * the top-level {@code Simulation}.
 */
final class ArchitectureTest {

  static final String TOPOLOGY_API_CPUMASK = "dev.schedlab.cpumask..";
  static final String TOPOLOGY_API_TOPOLOGY = "dev.schedlab.topology..";
  static final String TOPOLOGY_API_SPI = "dev.schedlab.spi..";
  static final String TOPOLOGY_API_TEXT = "dev.schedlab.text..";

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // Test jars of other modules (sched-cli's, hw-models') are test code too; ArchUnit's
            // option recognises only test-class directories.
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.schedlab");
  }

  @Test
  void topologyApi_dependsOnlyOnJdkAndCollectionsApi() {
    ArchRule rule =
        classes()
            .that()
            .resideInAnyPackage(
                TOPOLOGY_API_CPUMASK, TOPOLOGY_API_TOPOLOGY, TOPOLOGY_API_SPI, TOPOLOGY_API_TEXT)
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage(
                TOPOLOGY_API_CPUMASK,
                TOPOLOGY_API_TOPOLOGY,
                TOPOLOGY_API_SPI,
                TOPOLOGY_API_TEXT,
                "java..",
                "org.eclipse.collections.api..");
    rule.check(classes);
  }

  @Test
  void policiesFair_followsThePluginRules() {
    SchedlabArchitectureRules.pluginRules("dev.schedlab.policies.fair").check(classes);
  }

  @Test
  void policiesExt_followsThePluginRules() {
    SchedlabArchitectureRules.pluginRules("dev.schedlab.policies.ext").check(classes);
  }

  @Test
  void hardwareModels_followThePluginRules_withTheJdkXmlApiForImporters() {
    SchedlabArchitectureRules.pluginRules(
            "dev.schedlab.hw", "javax.xml..", "org.xml.sax..", "org.w3c.dom..")
        .check(classes);
  }

  @Test
  void workloads_followThePluginRules_withHdrHistogramAndJacksonsStreamingParser() {
    SchedlabArchitectureRules.pluginRules(
            "dev.schedlab.workloads", "org.HdrHistogram..", "com.fasterxml.jackson.core..")
        .check(classes);
  }

  @Test
  void policyFamilies_areIndependentOfEachOther() {
    ArchRule fairIgnoresExt =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.policies.fair..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.schedlab.policies.ext..", "dev.schedlab.hw..", "dev.schedlab.workloads..")
            .allowEmptyShould(true);
    ArchRule extIgnoresFair =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.policies.ext..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.schedlab.policies.fair..", "dev.schedlab.hw..", "dev.schedlab.workloads..")
            .allowEmptyShould(true);
    fairIgnoresExt.check(classes);
    extIgnoresFair.check(classes);
  }

  @Test
  void commandLine_layers_argsBelowReportsBelowSweepsBelowCommands() {
    // The root (Main) may use everything; nothing in the command line uses the root.
    ArchRule argsUseNoOtherLayer =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.cli.args..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.schedlab.cli",
                "dev.schedlab.cli.command..",
                "dev.schedlab.cli.report..",
                "dev.schedlab.cli.sweep..");
    ArchRule reportsUseNoCommandOrSweep =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.cli.report..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "dev.schedlab.cli", "dev.schedlab.cli.command..", "dev.schedlab.cli.sweep..");
    // A sweep's cells and rows are what other engines (sweep-spark) build on: no commands.
    ArchRule sweepsUseNoCommand =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.cli.sweep..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.schedlab.cli", "dev.schedlab.cli.command..");
    ArchRule commandsUseNoRoot =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.cli.command..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.schedlab.cli");
    argsUseNoOtherLayer.check(classes);
    reportsUseNoCommandOrSweep.check(classes);
    sweepsUseNoCommand.check(classes);
    commandsUseNoRoot.check(classes);
  }

  @Test
  void providers_arePublicFinalAndRegisteredWithAutoService() {
    // Every module, not just the plugin modules above.
    SchedlabArchitectureRules.providersArePublicFinalAndRegistered("dev.schedlab").check(classes);
  }

  @Test
  void packages_haveNoCycles() {
    SchedlabArchitectureRules.noPackageCycles("dev.schedlab").check(classes);
  }

  @Test
  void engineParts_doNotReferToTheSimulation() {
    // The engine's parts get the run's context and their collaborators through their
    // constructors; only the top-level Simulation (and its callers outside the engine) use it.
    ArchRule rule =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.core.engine..")
            .and()
            .doNotHaveFullyQualifiedName("dev.schedlab.core.engine.Simulation")
            .and()
            // Dagger's generated factory for the @Inject constructor.
            .doNotHaveFullyQualifiedName("dev.schedlab.core.engine.Simulation_Factory")
            .should()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.schedlab.core.engine.Simulation");
    rule.check(classes);
  }

  @Test
  void importer_sawTopologyApi() {
    // Guards the rules above against passing vacuously because nothing was imported.
    org.assertj.core.api.Assertions.assertThat(
            classes.containPackage("dev.schedlab.cpumask")
                && classes.containPackage("dev.schedlab.spi")
                && classes.containPackage("dev.schedlab.policies.fair.ilb")
                && classes.containPackage("dev.schedlab.policies.ext.smtbuddy")
                && classes.containPackage("dev.schedlab.hw.machines")
                && classes.containPackage("dev.schedlab.workloads")
                && classes.containPackage("dev.schedlab.cli.args")
                && classes.containPackage("dev.schedlab.cli.sweep"))
        .isTrue();
  }
}
