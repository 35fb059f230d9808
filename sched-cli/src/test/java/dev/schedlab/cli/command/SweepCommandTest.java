package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.report.Metrics;
import dev.schedlab.cli.report.TextTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sweep} runs every variant × grid point × seed and prints one CSV row per variant, grid
 * point and metric with the mean and spread over the seeds and the change from the first variant.
 */
final class SweepCommandTest {

  private static final List<String> SWEEP =
      List.of(
          "sweep",
          "--machine",
          "hw.shape",
          "-M",
          "shape=1n1l4c2t",
          "--workload",
          "wl.schbench",
          "--duration",
          "5ms",
          "--variant",
          "old=mainline-7.1",
          "--variant",
          "new=mainline-7.3",
          "--seeds",
          "1..3",
          "--threads",
          "2");

  /**
   * {@link #SWEEP} with other seeds and more options: an option given twice is an error, so the
   * seeds are replaced rather than given again.
   */
  private static List<String> sweepWithSeeds(String seeds, String... more) {
    List<String> args = new ArrayList<>(SWEEP);
    args.set(args.indexOf("--seeds") + 1, seeds);
    args.addAll(List.of(more));
    return args;
  }

  @Test
  @SuppressWarnings("unchecked")
  void csv_saysWhatMadeIt_inCommentLinesBeforeTheHeader() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("-W", "workers=2,4", "-E", "ipi_latency=3us", "--metric", "softirq"));
    List<String> lines = Invocation.of(args).assertOk().out().lines().toList();
    assertThat(lines.get(0)).startsWith("# schedlab {\"version\":\"");
    assertThat(lines.get(1)).startsWith("# scenario {\"command\":\"sweep\",");
    assertThat(lines.get(2)).startsWith("machine,workload,variant,workers,metric,");
    assertThat(lines.stream().skip(2)).noneMatch(l -> l.startsWith("#"));
    Map<String, Object> build =
        (Map<String, Object>) JsonParser.parse(lines.get(0).substring("# schedlab ".length()));
    assertThat(build).containsKeys("version", "commit");
    Map<String, Object> scenario =
        (Map<String, Object>) JsonParser.parse(lines.get(1).substring("# scenario ".length()));
    assertThat(scenario)
        .containsEntry("machine", "hw.shape")
        .containsEntry("workload", "wl.schbench")
        .containsEntry("duration", "5ms")
        .containsEntry("seeds", List.of(1.0, 2.0, 3.0))
        .containsEntry(
            "metrics",
            new ArrayList<>(Metrics.SWEEP_DEFAULTS) {
              {
                add("softirq");
              }
            })
        .containsKeys("kernel_rules", "hz", "machine_parameters", "workload_parameters")
        .doesNotContainKeys("seed", "arguments");
    // Every -M/-W/-E the sweep was given, by its CSV column's name; one value or several.
    assertThat((Map<String, Object>) scenario.get("grid"))
        .containsEntry("workers", List.of("2", "4"))
        .containsEntry("E.ipi_latency", List.of("3us"))
        .containsEntry("M.shape", List.of("1n1l4c2t"));
    assertThat((Map<String, Object>) scenario.get("machine_parameters"))
        .containsEntry("shape", "1n1l4c2t");
    assertThat((Map<String, Object>) scenario.get("engine_settings"))
        .containsEntry("ipi_latency", "3us");
    List<Map<String, Object>> variants = (List<Map<String, Object>>) scenario.get("variants");
    assertThat(variants).extracting(v -> v.get("name")).containsExactly("old", "new");
    assertThat(variants.get(1).get("plugins").toString()).contains("fair.ilb.idle-core");
  }

  @Test
  void seeds_oneSummaryRowPerVariantAndMetric() {
    List<List<String>> rows = csv(Invocation.of(SWEEP).assertOk().out());
    assertThat(rows.get(0))
        .containsExactly(
            "machine",
            "workload",
            "variant",
            "metric",
            "unit",
            "runs",
            "mean",
            "stddev",
            "min",
            "max",
            "change_pct",
            "paired_change_pct",
            "seeds_higher",
            "seeds_lower",
            "sign_test_p");
    assertThat(rows).hasSize(1 + 2 * Metrics.SWEEP_DEFAULTS.size());
    for (List<String> row : rows.subList(1, rows.size())) {
      assertThat(row.get(5)).isEqualTo("3");
      double mean = Double.parseDouble(row.get(6));
      double min = Double.parseDouble(row.get(8));
      double max = Double.parseDouble(row.get(9));
      assertThat(mean).isBetween(min - 1e-9 * Math.abs(min), max + 1e-9 * Math.abs(max));
      assertThat(Double.parseDouble(row.get(7))).isGreaterThanOrEqualTo(0);
    }
    assertThat(rows.get(1).get(2)).isEqualTo("old");
    assertThat(rows.get(1).subList(10, 15)).containsOnly("");
    assertThat(rows.get(1 + Metrics.SWEEP_DEFAULTS.size()).get(2)).isEqualTo("new");
    for (List<String> row : rows.subList(1 + Metrics.SWEEP_DEFAULTS.size(), rows.size())) {
      // Three seeds, each either higher, lower or equal under the second variant.
      assertThat(Integer.parseInt(row.get(12)) + Integer.parseInt(row.get(13))).isBetween(0, 3);
    }
  }

  @Test
  void workloadGrid_addsAColumnAndMultipliesTheRows() {
    List<String> args = sweepWithSeeds("1", "-W", "workers=2,4");
    List<List<String>> rows = csv(Invocation.of(args).assertOk().out());
    assertThat(rows.get(0)).containsSubsequence("variant", "workers", "metric");
    assertThat(rows).hasSize(1 + 2 * 2 * Metrics.SWEEP_DEFAULTS.size());
    assertThat(rows.subList(1, rows.size())).extracting(r -> r.get(3)).containsOnly("2", "4");
  }

  @Test
  void engineGrid_addsAnEColumnAndEachPointRunsWithItsSetting() {
    // 2 message threads with 2 workers each on 8 CPUs: wakeups find idle CPUs, so the IPI is
    // most of a wakeup's latency (with the default 8 workers each, 18 tasks queue on 8 CPUs).
    List<String> args = sweepWithSeeds("1", "-E", "ipi_latency=1us,400us", "-W", "workers=2");
    List<List<String>> rows = csv(Invocation.of(args).assertOk().out());
    assertThat(rows.get(0)).containsSubsequence("variant", "E.ipi_latency", "metric");
    assertThat(rows).hasSize(1 + 2 * 2 * Metrics.SWEEP_DEFAULTS.size());
    // A remote wakeup onto an idle CPU waits for the IPI: p99 wakeup latency follows the setting.
    List<Double> p99 =
        rows.stream()
            .filter(r -> r.get(2).equals("old") && r.get(4).equals("wakeup_latency_p99_us"))
            .map(r -> Double.parseDouble(r.get(7)))
            .toList();
    assertThat(p99).hasSize(2);
    assertThat(p99.get(1)).isGreaterThan(p99.get(0) + 100);
  }

  @Test
  void machineGrid_addsAnMColumnAndEachPointRunsOnItsMachine() {
    List<String> args =
        new ArrayList<>(
            List.of(
                "sweep",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l4c2t,1n1l8c2t",
                "--workload",
                "wl.schbench",
                "-W",
                "workers=16",
                "--duration",
                "5ms",
                "--variant",
                "old=mainline-7.1",
                "--seeds",
                "1",
                "--threads",
                "2"));
    List<List<String>> rows = csv(Invocation.of(args).assertOk().out());
    assertThat(rows.get(0)).containsSubsequence("variant", "M.shape", "metric");
    assertThat(rows).hasSize(1 + 2 * Metrics.SWEEP_DEFAULTS.size());
    // The same 16 workers keep 8 CPUs busier than 16: each point ran on its own machine.
    List<Double> busy =
        rows.stream()
            .filter(r -> r.get(4).equals("busy_pct"))
            .map(r -> Double.parseDouble(r.get(7)))
            .toList();
    assertThat(busy).hasSize(2);
    assertThat(busy.get(0)).isGreaterThan(busy.get(1));
  }

  @Test
  void tableFormat_aBlockPerGridPoint_meanAndSpreadAsInTheCsv() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("-W", "workers=2,4", "--metric", "workload_wakeup_p999_us"));
    List<List<String>> rows = csv(Invocation.of(args).assertOk().out());
    args.addAll(List.of("--format", "table"));
    String table = Invocation.of(args).assertOk().out();

    assertThat(table).startsWith("hw.shape (8 CPUs, SMT2), wl.schbench; 3 seeds per point");
    // Per block, the workload's metric paired seed by seed, as the CSV counts it.
    for (String workers : List.of("2", "4")) {
      List<String> main =
          rows.stream()
              .filter(
                  r ->
                      r.get(2).equals("new")
                          && r.get(3).equals(workers)
                          && r.get(4).equals("p99_wakeup_latency"))
              .findFirst()
              .orElseThrow();
      assertThat(table)
          .contains(
              "paired by seed, p99 wakeup latency: new higher on "
                  + main.get(13)
                  + " of 3 seeds, lower on "
                  + main.get(14));
    }
    List<String> lines = table.lines().toList();
    assertThat(lines).containsSubsequence("workers=2", "workers=4");
    assertThat(lines.stream().filter(l -> l.startsWith("metric ")))
        .hasSize(2)
        .allSatisfy(
            l -> assertThat(l.split(" +")).containsExactly("metric", "old", "new", "change"));
    // Each block has a row per metric; a row's cells are the CSV's mean and stddev per variant.
    int block = lines.indexOf("workers=4");
    for (String metric : List.of("wakeup_migrations", "workload_wakeup_p999_us")) {
      // Rows are labelled in words: workload_wakeup_p999_us is "workload: wakeup p999 (us)".
      String label = Metrics.label(metric);
      String line =
          lines.subList(block, lines.size()).stream()
              .filter(l -> l.startsWith(label + " "))
              .findFirst()
              .orElseThrow();
      for (String variant : List.of("old", "new")) {
        List<String> row =
            rows.stream()
                .filter(
                    r ->
                        r.get(2).equals(variant) && r.get(3).equals("4") && r.get(4).equals(metric))
                .findFirst()
                .orElseThrow();
        assertThat(line)
            .contains(
                TextTable.number(Double.parseDouble(row.get(7)))
                    + " ± "
                    + TextTable.number(Double.parseDouble(row.get(8))));
      }
    }
  }

  @Test
  void rowsAndResume_aCutShortSweepRunsOnlyItsMissingCells_sameSummary(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("rows.csv");
    List<String> args = sweepWithSeeds("1..2", "-W", "workers=2,4", "--rows", file.toString());
    String full = Invocation.of(args).assertOk().out();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    // The sweep's two # lines (as in its CSV report), the header, one row per cell: 2 worker
    // counts x 2 variants x 2 seeds.
    assertThat(lines).hasSize(2 + 1 + 8);
    assertThat(lines.get(0)).startsWith("# schedlab {\"version\":");
    assertThat(lines.get(1)).startsWith("# scenario {\"command\":\"sweep\"");
    assertThat(lines.get(2))
        .startsWith(
            "sweep,cell,variant,seed,M.shape,workers,"
                + "throughput_metric,throughput_unit,higher_is_better,reported,throughput,");
    Files.write(file, lines.subList(0, 2 + 1 + 5), StandardCharsets.UTF_8);
    args.set(args.indexOf("--rows"), "--resume");
    String resumed = Invocation.of(args).assertOk().out();
    assertThat(withoutEngineSpeed(resumed)).isEqualTo(withoutEngineSpeed(full));
    assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).hasSize(2 + 1 + 8);
    // Everything there: nothing runs, and the summary is the same to the last digit.
    assertThat(Invocation.of(args).assertOk().out()).isEqualTo(resumed);
  }

  @Test
  void rowsAndResume_bothGiven_orParquetOnTheLocalEngine_oneLine() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("--rows", "a.csv", "--resume", "a.csv"));
    Invocation.of(args).assertBadInput("--rows and --resume");
    args = new ArrayList<>(SWEEP);
    args.addAll(List.of("--rows", "target/never.parquet"));
    Invocation.of(args).assertBadInput("Parquet rows need --engine spark");
  }

  @Test
  void engine_sparkWithoutSparkOnTheClassPath_oneLineSayingHowToGetIt() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("--engine", "spark"));
    Invocation.of(args).assertBadInput("--engine spark", "allowed: local", "./schedlab");
    args.set(args.size() - 1, "hadoop");
    Invocation.of(args).assertBadInput("--engine hadoop: unknown; allowed: local");
  }

  private static String withoutEngineSpeed(String csv) {
    return csv.lines()
        .filter(l -> !l.contains(",sim_seconds_per_wall_second,"))
        .toList()
        .toString();
  }

  @Test
  void badFormat_oneLine_exitTwo() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("--format", "html"));
    Invocation.of(args).assertBadInput("--format", "csv", "table");
  }

  @Test
  void badMachineGridValue_refusedBeforeRunning() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("-M", "shape=1n1l4c2t,nonsense"));
    Invocation.of(args).assertBadInput("nonsense");
  }

  @Test
  void badEngineGridValue_oneLine_exitTwo() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("-E", "ipi_latency=2us,soon"));
    Invocation.of(args).assertBadInput("-E ipi_latency");
  }

  @Test
  void grid_cpuListAlternativesSplitOnSemicolons() {
    var grid =
        SweepCommand.grid(
            PluginArguments.require(
                    dev.schedlab.spi.PluginRegistry.load(),
                    "wl.schbench",
                    dev.schedlab.spi.WorkloadProvider.class)
                .descriptor(),
            "",
            Map.of("affinity", "0-3,8;0-7"));
    assertThat(grid.get("affinity")).containsExactly("0-3,8", "0-7");
  }

  @Test
  void seedsList_parsesRangesAndLists() {
    assertThat(SweepCommand.parseSeeds("1..3,7")).containsExactly(1L, 2L, 3L, 7L);
  }

  @Test
  void badSeeds_oneLine_exitTwo() {
    List<String> args = sweepWithSeeds("one..two");
    Invocation.of(args).assertBadInput("--seeds", "1..8");
  }

  @Test
  void badGridValue_refusedBeforeRunning() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("-W", "workers=2,0"));
    Invocation.of(args).assertBadInput("workers=0");
  }

  @Test
  void metricOption_addsWorkloadFiguresAndRunMetricsAfterTheDefaults() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("--metric", "workload_wakeup_p999_us,ilb_runs", "--metric", "busy_pct"));
    List<List<String>> rows = csv(Invocation.of(args).assertOk().out());
    int perVariant = Metrics.SWEEP_DEFAULTS.size() + 2;
    assertThat(rows).hasSize(1 + 2 * perVariant);
    assertThat(rows.subList(1, 1 + perVariant))
        .extracting(r -> r.get(3))
        .endsWith("workload_wakeup_p999_us", "ilb_runs");
    List<String> p999 =
        rows.stream()
            .filter(r -> r.get(3).equals("workload_wakeup_p999_us"))
            .map(r -> r.get(5))
            .toList();
    // Every seed ran schbench, so each mean is a latency, not the blank of a missing figure.
    assertThat(p999).hasSize(2).allSatisfy(v -> assertThat(Double.parseDouble(v)).isPositive());
  }

  @Test
  void metricOption_unknownRunMetric_refusedBeforeRunning() {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("--metric", "ilb_runz"));
    Invocation.of(args).assertBadInput("--metric ilb_runz", "ilb_runs", "workload_<figure>");
  }

  @Test
  void metricOption_figureNoRunReported_oneLineNamingTheReportedOnes_nothingPrinted() {
    List<String> args = sweepWithSeeds("1", "--metric", "workload_nonsense");
    Invocation run =
        Invocation.of(args).assertBadInput("--metric workload_nonsense", "workload_wakeup_p999_us");
    assertThat(run.out()).isEmpty();
  }

  @Test
  @SuppressWarnings("unchecked")
  void metricNumbers_areTheNumericKeysOfARunOtherThanWorkloadAndPluginFigures() {
    Map<String, Object> json =
        JsonParser.object(
            Invocation.of(
                    "run",
                    "--machine",
                    "hw.shape",
                    "-M",
                    "shape=1n1l4c2t",
                    "--workload",
                    "wl.schbench",
                    "--duration",
                    "5ms",
                    "--format",
                    "json")
                .assertOk()
                .out());
    Map<String, Object> metrics =
        (Map<String, Object>)
            ((List<Map<String, Object>>) json.get("variants")).get(0).get("metrics");
    List<String> numeric =
        metrics.entrySet().stream()
            .filter(e -> e.getValue() instanceof Number && !Metrics.isPrefixed(e.getKey()))
            // The report adds the scenario's HZ and CPU count beside the run's metrics.
            .filter(e -> !e.getKey().equals("hz") && !e.getKey().equals("cpus"))
            .map(Map.Entry::getKey)
            .toList();
    // Wall-clock figures are in the report's engine section, not among the metrics.
    assertThat(numeric)
        .containsExactlyElementsOf(
            Metrics.NUMBERS.stream().filter(Metrics::deterministic).toList());
  }

  /** The CSV's rows, its leading {@code #} lines (the build and the scenario) skipped. */
  private static List<List<String>> csv(String text) {
    List<List<String>> rows = new ArrayList<>();
    for (String line : text.lines().toList()) {
      if (!line.startsWith("#")) {
        rows.add(List.of(line.split(",", -1)));
      }
    }
    return rows;
  }
}
