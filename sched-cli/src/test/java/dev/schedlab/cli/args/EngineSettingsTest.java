package dev.schedlab.cli.args;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code -E}: engine assumptions reach the run, and bad values are one line with exit 2. */
final class EngineSettingsTest {

  private static final List<String> RUN =
      List.of(
          "run",
          "--machine",
          "hw.shape",
          "-M",
          "shape=1n1l4c2t",
          "--workload",
          "wl.hackbench",
          "-W",
          "groups=1",
          "--duration",
          "20ms",
          "--quiet",
          "--format",
          "json");

  @Test
  void aSettingChangesTheRunAndTheDefaultValueChangesNothing() {
    Map<String, Object> base = metrics(Invocation.of(RUN));
    Map<String, Object> same = metrics(Invocation.of(with("-E", "ipi_latency=2us")));
    Map<String, Object> slowIpi = metrics(Invocation.of(with("-E", "ipi_latency=500us")));
    assertThat(same.get("throughput")).isEqualTo(base.get("throughput"));
    assertThat(same.get("events")).isEqualTo(base.get("events"));
    assertThat(slowIpi.get("throughput")).isNotEqualTo(base.get("throughput"));
  }

  @Test
  void unknownKeyListsTheSettings() {
    Invocation r = Invocation.of(with("-E", "ipi=1us"));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err())
        .contains("-E ipi: unknown engine setting; allowed: ipi_latency,")
        .contains("spread_balance_stamps");
  }

  @Test
  void rules_linux61ChangesTheRun_mainlineIsTheDefault_badNameListsBoth() {
    Map<String, Object> base = metrics(Invocation.of(RUN));
    Map<String, Object> mainline = metrics(Invocation.of(with("-E", "rules=mainline")));
    Map<String, Object> v61 = metrics(Invocation.of(with("-E", "rules=linux-6.1")));
    assertThat(mainline.get("events")).isEqualTo(base.get("events"));
    assertThat(v61.get("events")).isNotEqualTo(base.get("events"));
    // A setting refines the rule set, whatever the order on the command line.
    Map<String, Object> before =
        metrics(Invocation.of(with("-E", "mainline_deltas=true", "-E", "rules=linux-6.1")));
    Map<String, Object> after =
        metrics(Invocation.of(with("-E", "rules=linux-6.1", "-E", "mainline_deltas=true")));
    assertThat(before.get("events")).isEqualTo(after.get("events"));
    assertThat(before.get("lb")).isEqualTo(after.get("lb"));
    Invocation bad = Invocation.of(with("-E", "rules=linux-5.15"));
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err().lines()).hasSize(1);
    assertThat(bad.err()).contains("rules").contains("mainline").contains("linux-6.1");
  }

  @Test
  void outOfRangeNamesTheRange() {
    Invocation r = Invocation.of(with("-E", "migration_cost=1s"));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err()).contains("migration_cost=1s").contains("0ns..100ms");
  }

  @Test
  void engineCommandListsEverySettingWithItsDefault() {
    Invocation r = Invocation.of("engine");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("= 2us", "= 500us");
    for (var spec : EngineSettings.specs()) {
      assertThat(r.out()).contains(spec.name()).contains(spec.allowed());
      // every listed setting is accepted at its own default
      assertThat(EngineSettings.parse(List.of(spec.name() + "=" + spec.defaultValue())))
          .isNotNull();
    }
  }

  private static List<String> with(String... extra) {
    List<String> args = new ArrayList<>(RUN);
    args.addAll(List.of(extra));
    return args;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metrics(Invocation r) {
    assertThat(r.err()).isEmpty();
    assertThat(r.exitCode()).isZero();
    Map<String, Object> root = JsonParser.object(r.out());
    List<Object> variants = (List<Object>) root.get("variants");
    return (Map<String, Object>) ((Map<String, Object>) variants.get(0)).get("metrics");
  }
}
