package dev.schedlab.policies.fair.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.Profile;
import dev.schedlab.spi.ProfileProvider;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The four profiles are composed as issue 5 and the evidence say: each picks exactly one ILB
 * selector, one NOHZ rule and one SCHED_IDLE rule, every reference resolves (with its overrides)
 * against a provider discovered on the class path, each profile differs from the one it derives
 * from in exactly the stated choice, its name is its id without {@code profile.}, and its
 * description carries the source of every choice.
 */
final class FairProfilesTest {

  private static final PluginRegistry REGISTRY = PluginRegistry.load();

  static Stream<ProfileProvider> profiles() {
    return Stream.of(
        new Mainline71ProfileProvider(),
        new Mainline73ProfileProvider(),
        new Pre70SchedIdleProfileProvider(),
        new NohzFixProfileProvider());
  }

  private static Map<PluginKind, String> byKind(Profile profile) {
    Map<PluginKind, String> ids = new EnumMap<>(PluginKind.class);
    for (PluginRef ref : profile.plugins()) {
      PluginKind kind = REGISTRY.find(ref.id()).orElseThrow().descriptor().kind();
      assertThat(ids.put(kind, ref.id())).as("second %s in %s", kind, profile.name()).isNull();
    }
    return ids;
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void everyProfile_references_resolveToOnePluginOfEachPolicyKind(ProfileProvider provider) {
    Profile profile = provider.profile();

    for (PluginRef ref : profile.plugins()) {
      PluginProvider plugin = REGISTRY.find(ref.id()).orElseThrow();
      plugin.descriptor().resolve(ref.overrides()); // throws on a bad override
    }
    assertThat(byKind(profile).keySet())
        .containsExactlyInAnyOrder(
            PluginKind.ILB_SELECTOR, PluginKind.NOHZ_IDLE_TRACKING, PluginKind.WAKEUP_POLICY);
  }

  @ParameterizedTest
  @MethodSource("profiles")
  void everyProfile_nameAndDescription_matchIdAndCiteEverySource(ProfileProvider provider) {
    Profile profile = provider.profile();

    assertThat(provider.id()).isEqualTo("profile." + profile.name());
    assertThat(REGISTRY.profile(profile.name()))
        .containsSame(REGISTRY.profile(provider.id()).orElseThrow());
    assertThat(provider.descriptor().kind()).isEqualTo(PluginKind.PROFILE);
    List<ProfileChoice> choices =
        Stream.of(
                FairProfiles.MAINLINE_7_1,
                FairProfiles.MAINLINE_7_3,
                FairProfiles.PRE_7_0_SCHED_IDLE,
                FairProfiles.NOHZ_FIX)
            .filter(c -> c.stream().map(ProfileChoice::plugin).toList().equals(profile.plugins()))
            .findFirst()
            .orElseThrow();
    for (ProfileChoice choice : choices) {
      assertThat(provider.descriptor().description()).contains(choice.source());
      assertThat(choice.source()).containsAnyOf("kernel-facts", "seeds-digest");
    }
  }

  @Test
  void mainline71_composition_isFirstIdleTransitionOnlySchedIdleAware() {
    assertThat(byKind(new Mainline71ProfileProvider().profile()))
        .containsEntry(PluginKind.ILB_SELECTOR, "fair.ilb.first-idle")
        .containsEntry(PluginKind.NOHZ_IDLE_TRACKING, "fair.nohz.transition-only")
        .containsEntry(PluginKind.WAKEUP_POLICY, "fair.wake.sched-idle-aware");
  }

  @Test
  void mainline73_comparedWith71_differsOnlyInTheIlbSelector() {
    Map<PluginKind, String> base = byKind(new Mainline71ProfileProvider().profile());
    Map<PluginKind, String> derived = byKind(new Mainline73ProfileProvider().profile());

    assertThat(derived).containsEntry(PluginKind.ILB_SELECTOR, "fair.ilb.idle-core");
    assertDiffersOnlyIn(base, derived, PluginKind.ILB_SELECTOR);
    assertThat(new Mainline73ProfileProvider().profile().plugins())
        .contains(new PluginRef("fair.ilb.idle-core", Map.of("pruning", "v4")));
  }

  @Test
  void pre70SchedIdle_comparedWith71_differsOnlyInTheSchedIdleRule() {
    Map<PluginKind, String> base = byKind(new Mainline71ProfileProvider().profile());
    Map<PluginKind, String> derived = byKind(new Pre70SchedIdleProfileProvider().profile());

    assertThat(derived).containsEntry(PluginKind.WAKEUP_POLICY, "fair.wake.sched-idle-any");
    assertDiffersOnlyIn(base, derived, PluginKind.WAKEUP_POLICY);
  }

  @Test
  void nohzFix_comparedWith73_differsOnlyInTheNohzRule() {
    Map<PluginKind, String> base = byKind(new Mainline73ProfileProvider().profile());
    Map<PluginKind, String> derived = byKind(new NohzFixProfileProvider().profile());

    assertThat(derived)
        .containsEntry(PluginKind.NOHZ_IDLE_TRACKING, "fair.nohz.always-when-stopped");
    assertDiffersOnlyIn(base, derived, PluginKind.NOHZ_IDLE_TRACKING);
  }

  private static void assertDiffersOnlyIn(
      Map<PluginKind, String> base, Map<PluginKind, String> derived, PluginKind changed) {
    for (PluginKind kind : base.keySet()) {
      if (kind == changed) {
        assertThat(derived.get(kind)).as(kind.name()).isNotEqualTo(base.get(kind));
      } else {
        assertThat(derived.get(kind)).as(kind.name()).isEqualTo(base.get(kind));
      }
    }
  }
}
