package dev.schedlab.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layering of DESIGN.md holds in the compiled main code: topology-api depends on no
 * other module of ours, policies and hardware models see only topology-api, and packages have
 * no cycles.
 */
final class ArchitectureTest {

  static final String TOPOLOGY_API_CPUMASK = "dev.schedlab.cpumask..";
  static final String TOPOLOGY_API_TOPOLOGY = "dev.schedlab.topology..";
  static final String TOPOLOGY_API_SPI = "dev.schedlab.spi..";

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.schedlab");
  }

  @Test
  void topologyApi_dependsOnlyOnJdkAndCollectionsApi() {
    ArchRule rule =
        classes()
            .that()
            .resideInAnyPackage(TOPOLOGY_API_CPUMASK, TOPOLOGY_API_TOPOLOGY, TOPOLOGY_API_SPI)
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage(
                TOPOLOGY_API_CPUMASK,
                TOPOLOGY_API_TOPOLOGY,
                TOPOLOGY_API_SPI,
                "java..",
                "org.eclipse.collections.api..");
    rule.check(classes);
  }

  @Test
  void policiesAndHardwareModels_seeOnlyTopologyApi() {
    ArchRule rule =
        classes()
            .that()
            .resideInAnyPackage("dev.schedlab.policies..", "dev.schedlab.hw..")
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage(
                "dev.schedlab.policies..",
                "dev.schedlab.hw..",
                TOPOLOGY_API_CPUMASK,
                TOPOLOGY_API_TOPOLOGY,
                TOPOLOGY_API_SPI,
                "java..",
                "javax.xml..",
                "org.xml.sax..",
                "org.w3c.dom..",
                "org.eclipse.collections.api..",
                "com.google.auto.service..")
            .allowEmptyShould(true);
    rule.check(classes);
  }

  @Test
  void policyFamilies_areIndependentOfEachOther() {
    ArchRule fairIgnoresExt =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.policies.fair..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.schedlab.policies.ext..", "dev.schedlab.hw..")
            .allowEmptyShould(true);
    ArchRule extIgnoresFair =
        noClasses()
            .that()
            .resideInAPackage("dev.schedlab.policies.ext..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.schedlab.policies.fair..", "dev.schedlab.hw..")
            .allowEmptyShould(true);
    fairIgnoresExt.check(classes);
    extIgnoresFair.check(classes);
  }

  @Test
  void providers_arePublicFinalAndRegisteredWithAutoService() {
    classes()
        .that()
        .implement(dev.schedlab.spi.PluginProvider.class)
        .and()
        .areNotInterfaces()
        .should()
        .bePublic()
        .andShould()
        .haveModifier(com.tngtech.archunit.core.domain.JavaModifier.FINAL)
        .andShould()
        .beAnnotatedWith("com.google.auto.service.AutoService")
        .check(classes);
  }

  @Test
  void packages_haveNoCycles() {
    slices().matching("dev.schedlab.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void importer_sawTopologyApi() {
    // Guards the rules above against passing vacuously because nothing was imported.
    org.assertj.core.api.Assertions.assertThat(
            classes.containPackage("dev.schedlab.cpumask")
                && classes.containPackage("dev.schedlab.spi"))
        .isTrue();
  }
}
