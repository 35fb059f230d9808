package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import dev.schedlab.cli.TestScenarios;
import dev.schedlab.cli.report.Metrics;
import dev.schedlab.cli.report.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Tables name figures in words: no metric key of the JSON report labels a row of {@code run},
 * {@code compare} or {@code sweep} output, a figure has one row (a workload's extra that is its own
 * metric is not repeated), wall-clock rows carry no change, and counts agree with their noun ("1
 * CPU", "2 CPUs").
 */
final class LabelsTest {

  private static final List<String> SCHBENCH = TestScenarios.schbench("20ms", "-q");

  @Test
  void everyNumericKey_hasALabelInWords() {
    TreeSet<String> keys = new TreeSet<>(numericKeys(SCHBENCH));
    keys.addAll(
        numericKeys(
            List.of("--machine", "hw.vera", "--workload", "wl.gemm", "--duration", "5ms", "-q")));
    assertThat(keys).contains("workload_wakeup_p99_us", "placement_slow", "lb_failed");
    // throughput is the workload's metric, by the workload's name (Metrics.workloadLabel).
    keys.remove("throughput");
    for (String key : keys) {
      assertThat(Metrics.label(key))
          .as(key)
          .isNotEqualTo(key)
          .doesNotMatch("[a-z0-9]+(_[a-z0-9]+)+");
    }
    assertThat(Metrics.label("workload_wakeup_p99_us")).isEqualTo("workload: wakeup p99 (us)");
    assertThat(Metrics.label("workload_requests_per_s")).isEqualTo("workload: requests (/s)");
    assertThat(Metrics.label("plugin_pushes")).isEqualTo("plugin counter: pushes");
  }

  @Test
  void runCompareAndSweepTables_labelNoRowWithAKey() {
    List<String> keys = numericKeys(SCHBENCH);
    List<String> outputs = new ArrayList<>();
    outputs.add(run("run", List.of("--variant", "a=mainline-7.3")));
    outputs.add(
        run("compare", List.of("--variant", "a=mainline-7.1", "--variant", "b=mainline-7.3")));
    List<String> sweep =
        new ArrayList<>(
            List.of(
                "--variant",
                "a=mainline-7.1",
                "--variant",
                "b=mainline-7.3",
                "--seeds",
                "1..2",
                "--format",
                "table"));
    List<String> extra = keys.stream().filter(k -> !Metrics.SWEEP_DEFAULTS.contains(k)).toList();
    sweep.addAll(List.of("--metric", String.join(",", extra)));
    outputs.add(run("sweep", sweep));
    for (String out : outputs) {
      assertThat(out).contains("p99 wakeup latency (us, lower is better)");
      for (String key : keys) {
        assertThat(out)
            .as(key)
            // A key as a row's label: the key, then the column gap of two or more spaces.
            .doesNotContainPattern("(?m)^" + Pattern.quote(key) + " {2,}")
            .doesNotContain("p99_wakeup_latency");
      }
    }
  }

  @Test
  void sweepTable_oneRowPerFigure_noChangeForWallClock() {
    String out =
        run(
            "sweep",
            List.of(
                "--variant",
                "a=mainline-7.1",
                "--variant",
                "b=mainline-7.3",
                "--seeds",
                "1..2",
                "--format",
                "table",
                "--metric",
                "workload_wakeup_p99_us,workload_wakeup_p50_us"));
    // schbench's metric is its workers' p99 wakeup latency, workload_wakeup_p99_us again.
    assertThat(out)
        .containsOnlyOnce("p99 wakeup latency (us, lower is better)")
        .doesNotContainPattern("(?m)^workload: wakeup p99 \\(us\\) ")
        .contains(
            "not repeated: workload: wakeup p99 (us) (workload_wakeup_p99_us) is the workload's"
                + " own metric, the first row")
        .containsPattern("(?m)^workload: wakeup p50 \\(us\\) +\\S+ ± ")
        .containsPattern("(?m)^wakeup latency p99, all woken tasks \\(us\\) ")
        .containsPattern("(?m)^engine: simulated s per wall s +\\S+ ± \\S+ +\\S+ ± \\S+$")
        .contains("paired by seed, p99 wakeup latency:");
  }

  @Test
  void counts_agreeWithTheirNoun() {
    assertThat(TextTable.count(1, "package")).isEqualTo("1 package");
    assertThat(TextTable.count(2, "package")).isEqualTo("2 packages");
    assertThat(TextTable.count(0, "CPU")).isEqualTo("0 CPUs");
    String one =
        Invocation.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l1c1t",
                "--workload",
                "wl.schbench",
                "--duration",
                "5ms",
                "-q")
            .assertOk()
            .out();
    assertThat(one).startsWith("hw.shape (1 CPU), wl.schbench");
    String topology = Invocation.of("topology", "--shape", "1n1l2c1t").assertOk().out();
    assertThat(topology).contains("1 package, 1 NUMA node, ").doesNotContain(" 1 CPUs");
    String explain =
        Invocation.of("explain-ilb", "--shape", "1n1l2c2t", "--idle", "1").assertOk().out();
    assertThat(explain).contains("(1 CPU)").doesNotContain("(1 CPUs)");
  }

  private static String run(String command, List<String> variants) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(SCHBENCH);
    args.addAll(variants);
    return Invocation.of(args).assertOk().out();
  }

  @SuppressWarnings("unchecked")
  private static List<String> numericKeys(List<String> scenario) {
    List<String> args = new ArrayList<>(List.of("run"));
    args.addAll(scenario);
    args.addAll(List.of("--variant", "a=mainline-7.3", "--format", "json"));
    Map<String, Object> report =
        (Map<String, Object>) JsonParser.parse(Invocation.of(args).assertOk().out());
    Map<String, Object> metrics =
        (Map<String, Object>)
            ((List<Object>) report.get("variants"))
                .stream()
                    .map(v -> ((Map<String, Object>) v).get("metrics"))
                    .findFirst()
                    .orElseThrow();
    List<String> keys = new ArrayList<>();
    metrics.forEach(
        (k, v) -> {
          if (v instanceof Number && (Metrics.NUMBERS.contains(k) || Metrics.isPrefixed(k))) {
            keys.add(k);
          }
        });
    return keys;
  }
}
