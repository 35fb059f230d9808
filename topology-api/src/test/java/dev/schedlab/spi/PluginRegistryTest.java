package dev.schedlab.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The registry discovers providers through ServiceLoader, rejects duplicate ids naming both
 * classes, and answers unknown ids with the nearest known one.
 */
final class PluginRegistryTest {

  @Test
  void load_serviceFiles_discoversProvidersOfEachKind() {
    PluginRegistry registry = PluginRegistry.load(getClass().getClassLoader());
    assertThat(registry.list(PluginKind.ILB_SELECTOR))
        .extracting(PluginProvider::id)
        .containsExactly("test.ilb.first-of-mask");
    assertThat(registry.profile("test-7.0")).isPresent();
    assertThat(registry.profile("profile.test-7.0")).isPresent();
    assertThat(registry.profile("nope")).isEmpty();
    assertThat(PluginRegistry.origin(registry.all().get(0))).contains("test-classes");
  }

  @Test
  void of_duplicateIds_rejectedNamingBothClasses() {
    assertThatThrownBy(
            () ->
                PluginRegistry.of(
                    List.of(
                        new RegistryFixtures.FirstOfMaskProvider(),
                        new RegistryFixtures.ImpostorProvider())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("duplicate plugin id test.ilb.first-of-mask")
        .hasMessageContaining("FirstOfMaskProvider")
        .hasMessageContaining("ImpostorProvider");
  }

  @Test
  void require_typo_suggestsNearest() {
    PluginRegistry registry =
        PluginRegistry.of(List.of(new RegistryFixtures.FirstOfMaskProvider()));
    assertThatThrownBy(() -> registry.require("test.ilb.first-of-msk", IlbSelectorProvider.class))
        .hasMessage(
            "unknown ilb selector 'test.ilb.first-of-msk'; did you mean"
                + " 'test.ilb.first-of-mask'? known: test.ilb.first-of-mask");
  }

  @Test
  void require_wrongKind_saysWhatItIs() {
    PluginRegistry registry =
        PluginRegistry.of(
            List.of(
                new RegistryFixtures.FirstOfMaskProvider(),
                new RegistryFixtures.TestProfileProvider()));
    assertThatThrownBy(() -> registry.require("profile.test-7.0", IlbSelectorProvider.class))
        .hasMessageStartingWith("profile.test-7.0 is a profile, not an ilb selector");
    assertThat(registry.require("test.ilb.first-of-mask", IlbSelectorProvider.class))
        .isInstanceOf(RegistryFixtures.FirstOfMaskProvider.class);
  }

  @Test
  void nearest_farAway_noSuggestion() {
    assertThat(PluginRegistry.nearest("zzzzzzzz", List.of("hw.vera", "hw.altra"))).isNull();
    assertThat(PluginRegistry.nearest("hw.vra", List.of("hw.vera", "hw.altra")))
        .isEqualTo("hw.vera");
  }
}
