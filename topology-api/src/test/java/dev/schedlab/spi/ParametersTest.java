package dev.schedlab.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Resolving overrides keeps defaults, applies valid overrides and rejects unknown names. */
final class ParametersTest {

  private final PluginDescriptor descriptor =
      PluginDescriptor.builder("ext.wake.burst-threshold", PluginKind.WAKEUP_POLICY)
          .description("burst wakeups go to an idle CPU")
          .parameter(ParameterSpec.ofInt("threshold", "runnable tasks", 4, 2, 1024))
          .parameter(ParameterSpec.ofBoolean("wrap", "wrap search", true))
          .build();

  @Test
  void resolve_noOverrides_givesDefaults() {
    Parameters p = Parameters.defaults(descriptor);
    assertThat(p.getInt("threshold")).isEqualTo(4);
    assertThat(p.getBoolean("wrap")).isTrue();
    assertThat(p.toString()).isEqualTo("threshold=4;wrap=true");
  }

  @Test
  void resolve_override_applied() {
    Parameters p = descriptor.resolve(Map.of("threshold", "8"));
    assertThat(p.getInt("threshold")).isEqualTo(8);
    assertThat(p.asText()).containsEntry("threshold", "8");
  }

  @Test
  void resolve_belowMinimum_namesPluginAndRange() {
    assertThatThrownBy(() -> descriptor.resolve(Map.of("threshold", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ext.wake.burst-threshold: threshold=1 is out of range: allowed 2..1024");
  }

  @Test
  void resolve_unknownName_listsKnownNames() {
    assertThatThrownBy(() -> descriptor.resolve(Map.of("thresold", "8")))
        .hasMessage(
            "unknown parameter 'thresold' for ext.wake.burst-threshold; known: threshold, wrap");
  }

  @Test
  void get_wrongType_rejected() {
    Parameters p = Parameters.defaults(descriptor);
    assertThatThrownBy(() -> p.getString("threshold")).hasMessageContaining("not a String");
    assertThatThrownBy(() -> p.getInt("nope")).hasMessageContaining("has no parameter 'nope'");
  }
}
