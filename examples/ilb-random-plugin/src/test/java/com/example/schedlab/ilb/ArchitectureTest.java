package com.example.schedlab.ilb;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.schedlab.testkit.SchedlabArchitectureRules;

/**
 * The plugin follows schedlab's rules for plugin code: only topology-api, providers public final
 * with @AutoService, randomness from the context, no static state, no package cycles.
 */
@AnalyzeClasses(
    packages = "com.example.schedlab",
    importOptions = ImportOption.DoNotIncludeTests.class)
final class ArchitectureTest {

  @ArchTest
  static final ArchRule schedlabPluginRules =
      SchedlabArchitectureRules.pluginRules("com.example.schedlab");
}
