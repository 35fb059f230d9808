package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.ProfileProvider;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every module's providers are found through ServiceLoader on the full class path, ids are unique
 * across modules, and every plugin a profile names exists with the kind a profile may use.
 */
final class PluginDiscoveryIT {

  private final PluginRegistry registry = PluginRegistry.load();

  @Test
  void registry_listsMainlineAndExperimentalPolicies() {
    assertThat(registry.list(PluginKind.ILB_SELECTOR))
        .extracting(PluginProvider::id)
        .contains("fair.ilb.first-idle", "fair.ilb.idle-core");
    assertThat(registry.list(PluginKind.NOHZ_IDLE_TRACKING))
        .extracting(PluginProvider::id)
        .contains("fair.nohz.transition-only", "fair.nohz.always-when-stopped");
    assertThat(registry.list(PluginKind.WAKEUP_POLICY))
        .extracting(PluginProvider::id)
        .contains(
            "fair.wake.sched-idle-any",
            "fair.wake.sched-idle-aware",
            "ext.wake.burst-threshold",
            "ext.wake.rq-depth-distribute");
    assertThat(registry.list(PluginKind.BALANCE_PASS))
        .extracting(PluginProvider::id)
        .contains(
            "ext.smt-buddy.push",
            "ext.smt-buddy.skip-smt-after-push",
            "ext.smt-buddy.exclude-siblings",
            "ext.newidle.no-numa",
            "ext.newidle.llc-only");
  }

  @Test
  void profiles_nameOnlyKnownPolicyPlugins() {
    assertThat(registry.list(ProfileProvider.class))
        .extracting(p -> p.profile().name())
        .contains(
            "mainline-7.1", "mainline-7.3", "pre-7.0-sched-idle", "nohz-fix", "smt-buddy-assist");
    for (ProfileProvider profile : registry.list(ProfileProvider.class)) {
      for (var ref : profile.profile().plugins()) {
        assertThat(registry.find(ref.id()))
            .as("%s names %s", profile.id(), ref.id())
            .hasValueSatisfying(p -> assertThat(p.descriptor().kind().isPolicy()).isTrue());
      }
    }
  }

  @Test
  void everyProvider_documentsItsParameters() {
    for (PluginProvider provider : registry.all()) {
      var d = provider.descriptor();
      assertThat(d.description()).as(d.id()).isNotBlank();
      assertThat(d.source()).as(d.id() + " source").isNotBlank();
      d.parameters()
          .forEach(p -> assertThat(p.description()).as(d.id() + "." + p.name()).isNotBlank());
    }
    assertThat(registry.all().stream().map(PluginProvider::id).collect(Collectors.toSet()))
        .hasSameSizeAs(registry.all());
  }
}
