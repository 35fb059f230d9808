package dev.schedlab.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A run's counters reach the reports under the key of their owner: the engine's own {@code
 * engine.<name>} as {@code engine_<name>}, a plugin's {@code <plugin id>.<name>} as {@code
 * plugin_<plugin id>.<name>}; both families are open to {@code sweep --metric}, their bare prefixes
 * are not.
 */
final class MetricsTest {

  @Test
  void counterKey_engineAndPluginCounters_keyedByTheirOwner() {
    assertThat(Metrics.counterKey("engine.ilb_aborts")).isEqualTo("engine_ilb_aborts");
    assertThat(Metrics.counterKey("ext.smt-buddy.push.pushes"))
        .isEqualTo("plugin_ext.smt-buddy.push.pushes");
  }

  @Test
  void isPrefixed_openFamilies_butNotTheirBarePrefixes() {
    assertThat(Metrics.isPrefixed("engine_ilb_aborts")).isTrue();
    assertThat(Metrics.isPrefixed("plugin_ext.smt-buddy.push.pushes")).isTrue();
    assertThat(Metrics.isPrefixed("workload_wakeup_p999_us")).isTrue();
    assertThat(Metrics.isPrefixed("engine_")).isFalse();
    assertThat(Metrics.isPrefixed("ilb_kicks")).isFalse();
  }
}
