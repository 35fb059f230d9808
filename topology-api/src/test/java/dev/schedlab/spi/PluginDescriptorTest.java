package dev.schedlab.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Descriptors enforce the id format, a description and unique parameter names. */
final class PluginDescriptorTest {

  @Test
  void id_familyDotName_accepted() {
    for (String id :
        List.of("fair.ilb.idle-core", "hw.vera", "hw.hygon-7447v", "profile.mainline-7.1")) {
      assertThat(new PluginDescriptor(id, PluginKind.PROFILE, "d", "", List.of(), Set.of()).id())
          .isEqualTo(id);
    }
  }

  @Test
  void id_badForms_rejected() {
    for (String id : List.of("vera", "HW.vera", "hw.", ".vera", "hw..vera", "hw vera", "")) {
      assertThatThrownBy(
              () -> new PluginDescriptor(id, PluginKind.PROFILE, "d", "", List.of(), Set.of()))
          .as(id)
          .hasMessageContaining("must be family.name");
    }
  }

  @Test
  void parameters_duplicateName_rejected() {
    ParameterSpec a = ParameterSpec.ofInt("n", "x", 1, 0, 2);
    assertThatThrownBy(
            () ->
                PluginDescriptor.builder("fair.x", PluginKind.BALANCE_PASS)
                    .description("d")
                    .parameter(a)
                    .parameter(a)
                    .build())
        .hasMessageContaining("declares n twice");
  }

  @Test
  void description_blank_rejected() {
    assertThatThrownBy(() -> PluginDescriptor.builder("fair.x", PluginKind.BALANCE_PASS).build())
        .hasMessageContaining("has no description");
  }

  @Test
  void capabilities_queried() {
    PluginDescriptor d =
        PluginDescriptor.builder("ext.x", PluginKind.BALANCE_PASS)
            .description("d")
            .capabilities(Capability.EXPERIMENTAL, Capability.NEEDS_SMT)
            .build();
    assertThat(d.has(Capability.NEEDS_SMT)).isTrue();
    assertThat(d.has(Capability.MAINLINE)).isFalse();
  }
}
