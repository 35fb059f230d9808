package dev.schedlab.policies.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.Profile;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code smt-buddy-assist} profile is mainline-7.3 followed by the RFC's five parts in hook
 * order, all with default parameters; every ext plugin it names exists in the registry, and it says
 * which scheduler tree the RFC was posted against.
 */
final class SmtBuddyAssistProfileTest {

  private final SmtBuddyAssistProfileProvider provider = new SmtBuddyAssistProfileProvider();

  @Test
  void profile_isMainline73ThenTheRfcParts() {
    Profile profile = provider.profile();

    assertThat(profile.name()).isEqualTo("smt-buddy-assist");
    assertThat(profile.plugins())
        .extracting(PluginRef::id)
        .containsExactly(
            "fair.ilb.idle-core",
            "fair.nohz.transition-only",
            "fair.wake.sched-idle-aware",
            "ext.smt-buddy.push",
            "ext.smt-buddy.skip-smt-after-push",
            "ext.smt-buddy.exclude-siblings",
            "ext.newidle.no-numa",
            "ext.wake.burst-threshold");
    assertThat(profile.plugins()).allMatch(ref -> ref.overrides().isEmpty());
  }

  @Test
  void profile_extPluginsItNames_areRegistered() {
    PluginRegistry registry = PluginRegistry.load();
    List<String> extIds =
        provider.profile().plugins().stream()
            .map(PluginRef::id)
            .filter(id -> id.startsWith("ext."))
            .toList();

    assertThat(extIds).hasSize(5).allMatch(id -> registry.find(id).isPresent());
  }

  @Test
  void profile_leavesOutTheReviewerAlternativeAndTheLlcVariant() {
    assertThat(provider.profile().plugins())
        .extracting(PluginRef::id)
        .doesNotContain("ext.wake.rq-depth-distribute", "ext.newidle.llc-only");
  }

  @Test
  void descriptor_idAndDescription_nameTheTree() {
    assertThat(provider.descriptor().id()).isEqualTo("profile.smt-buddy-assist");
    assertThat(provider.descriptor().description()).contains("October 2026 scheduler tree");
  }
}
