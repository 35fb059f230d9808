package dev.schedlab.cli.args;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.PluginRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A variant is a profile or plugin plus added plugins: an added plugin with the same id replaces
 * the profile's (new parameters), an added ILB selector or NOHZ rule replaces the profile's one,
 * anything else is appended; two selectors or rules named in one variant, one plugin named twice,
 * malformed or unknown parts are refused (unknown ones with the nearest id).
 */
final class VariantTest {

  private static final PluginRegistry REGISTRY = PluginRegistry.load();

  @Test
  void profile_expandsToItsPlugins() {
    Variant v = Variant.parse("base=mainline-7.1", REGISTRY);
    assertThat(v.name()).isEqualTo("base");
    assertThat(v.pluginNames())
        .containsExactly(
            "fair.ilb.first-idle", "fair.nohz.transition-only", "fair.wake.sched-idle-aware");
  }

  @Test
  void withoutName_theSpecificationIsTheName() {
    assertThat(Variant.parse("mainline-7.3", REGISTRY).name()).isEqualTo("mainline-7.3");
  }

  @Test
  void addedIlbSelector_replacesTheProfilesSelector() {
    Variant v = Variant.parse("x=mainline-7.1+fair.ilb.idle-core:pruning=v2", REGISTRY);
    assertThat(v.pluginNames())
        .containsExactly(
            "fair.ilb.idle-core:pruning=v2",
            "fair.nohz.transition-only",
            "fair.wake.sched-idle-aware");
  }

  @Test
  void addedNohzRule_replacesTheProfilesRule() {
    assertThat(
            Variant.parse("x=mainline-7.3+fair.nohz.always-when-stopped", REGISTRY).pluginNames())
        .contains("fair.nohz.always-when-stopped")
        .doesNotContain("fair.nohz.transition-only");
  }

  @Test
  void addedBalancePass_isAppended_andParametersKept() {
    Variant v =
        Variant.parse(
            "buddy=mainline-7.3+ext.smt-buddy.push:imbalance_pct=150+ext.smt-buddy.exclude-siblings",
            REGISTRY);
    assertThat(v.plugins()).hasSize(5);
    assertThat(v.plugins().get(3).id()).isEqualTo("ext.smt-buddy.push");
    assertThat(v.plugins().get(3).overrides()).isEqualTo(Map.of("imbalance_pct", "150"));
    assertThat(v.plugins().get(4).id()).isEqualTo("ext.smt-buddy.exclude-siblings");
  }

  @Test
  void samePluginAgain_replacesItsParameters() {
    Variant v = Variant.parse("b=smt-buddy-assist+ext.smt-buddy.push:imbalance_pct=150", REGISTRY);
    assertThat(v.pluginNames())
        .containsOnlyOnce("ext.smt-buddy.push:imbalance_pct=150")
        .doesNotContain("ext.smt-buddy.push");
  }

  @Test
  void singlePlugin_isAVariantOfItsOwn() {
    assertThat(Variant.parse("idle=fair.ilb.idle-core", REGISTRY).pluginNames())
        .containsExactly("fair.ilb.idle-core");
  }

  @Test
  void unknownPlugin_nearestIdInTheMessage() {
    assertThatThrownBy(() -> Variant.parse("x=mainline-7.3+fair.ilb.idle-cor", REGISTRY))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("did you mean 'fair.ilb.idle-core'?");
  }

  @Test
  void profileAfterPlus_refused() {
    assertThatThrownBy(() -> Variant.parse("x=fair.ilb.idle-core+mainline-7.1", REGISTRY))
        .hasMessageContaining("must come first");
  }

  @Test
  void nonPolicyPlugin_refused() {
    assertThatThrownBy(() -> Variant.parse("x=mainline-7.1+wl.gemm", REGISTRY))
        .hasMessageContaining("not a policy plugin");
  }

  @Test
  void nameWithSlash_refused() {
    assertThatThrownBy(() -> Variant.parse("a/b=mainline-7.1", REGISTRY))
        .hasMessageContaining("name 'a/b'");
  }

  @Test
  void emptySpecification_refused() {
    assertThatThrownBy(() -> Variant.parse("a=", REGISTRY)).hasMessageContaining("nothing after");
  }

  @Test
  void twoSelectorsNamed_refusedNamingBoth() {
    assertThatThrownBy(() -> Variant.parse("x=fair.ilb.first-idle+fair.ilb.idle-core", REGISTRY))
        .isInstanceOf(BadInputException.class)
        .hasMessage(
            "--variant x=fair.ilb.first-idle+fair.ilb.idle-core: two ILB selectors:"
                + " fair.ilb.first-idle and fair.ilb.idle-core; a variant has one (one added to a"
                + " profile replaces the profile's)");
    assertThatThrownBy(
            () -> Variant.parse("x=mainline-7.3+fair.ilb.idle-core+fair.ilb.first-idle", REGISTRY))
        .hasMessageContaining("two ILB selectors");
  }

  @Test
  void twoNohzRulesNamed_refused() {
    assertThatThrownBy(
            () ->
                Variant.parse(
                    "x=mainline-7.3+fair.nohz.always-when-stopped+fair.nohz.transition-only",
                    REGISTRY))
        .hasMessageContaining(
            "two NOHZ registration rules: fair.nohz.always-when-stopped and"
                + " fair.nohz.transition-only");
  }

  @Test
  void samePluginNamedTwice_refused() {
    assertThatThrownBy(
            () ->
                Variant.parse(
                    "x=mainline-7.3+ext.smt-buddy.push:imbalance_pct=150"
                        + "+ext.smt-buddy.push:imbalance_pct=120",
                    REGISTRY))
        .hasMessageContaining("ext.smt-buddy.push is named twice");
  }
}
