package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import dev.schedlab.cli.TestScenarios;
import dev.schedlab.cli.report.Metrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare} runs a scenario per variant and reports them side by side: the table shows every
 * variant and the change from the first, JSON has the agreed shape, CSV one row per variant, the
 * same seed gives the same figures, {@code --schedstat} writes v17 files, {@code --trace} valid
 * Chrome trace JSON with every event kind, {@code --html} a page with its SVG charts; bad input is
 * refused with one line, exit 2, before any file is written.
 */
final class CompareCommandTest {

  /** A small SMT machine and a wakeup-heavy workload: every trace event kind shows up. */
  private static final List<String> SCENARIO = TestScenarios.schbenchCompare("10ms");

  @TempDir Path dir;

  @Test
  void table_showsBothVariantsTheChangeAndTheBreakdowns() {
    String out = Invocation.of(SCENARIO).assertOk().out();
    assertThat(out)
        .startsWith("hw.shape (16 CPUs, SMT2), wl.schbench")
        .contains("old = fair.ilb.first-idle", "new = fair.ilb.idle-core")
        .containsPattern("(?m)^metric +old +new +change$")
        .containsPattern("(?m)^SMT contention .*( %| n/a)$")
        .contains("lb_count/s by domain", "CPU_NEWLY_IDLE", "imb_load")
        .containsPattern("(?m)^tasks passed over by detach_tasks\\(\\), counts +old +new +change$")
        .containsPattern("(?m)^cache-hot \\(nr_failed_migrations_hot\\) +\\d+ +\\d+ ")
        .contains("@ilb_duration_us[old]:", "@rq_lock_hold_us[new]:");
  }

  @Test
  @SuppressWarnings("unchecked")
  void placementPaths_tableRowsAndMetricsAddUpToForksAndWakeups() {
    String out = Invocation.of(SCENARIO).assertOk().out();
    assertThat(out)
        .containsPattern("(?m)^task placement by path \\(forks and wakeups\\) +old +new +change$")
        .containsPattern("(?m)^slow path: sched_balance_find_dst_cpu\\(\\) +18 +18 +\\+0\\.0 %$");
    for (Map<String, Object> m : metrics(Invocation.of(with("--format", "json")).out())) {
      // schbench's 2 message threads and 16 workers are forked once each; every wakeup too is
      // placed once, under one path.
      assertThat(m.get("placement_slow")).isEqualTo(18.0);
      double placed =
          m.entrySet().stream()
              .filter(e -> e.getKey().startsWith(Metrics.PLACEMENT_PREFIX))
              .mapToDouble(e -> (Double) e.getValue())
              .sum();
      double wakeups = ((Number) m.get("workload_wakeups")).doubleValue();
      assertThat(placed - 18).isGreaterThanOrEqualTo(wakeups);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void json_hasTheAgreedShape() {
    Map<String, Object> json =
        JsonParser.object(Invocation.of(with("--format", "json")).assertOk().out());
    assertThat(json.keySet())
        .containsExactly(
            "schedlab",
            "scenario",
            "machine",
            "workload",
            "seed",
            "duration_s",
            "variants",
            "engine");
    assertThat(json)
        .containsEntry("machine", "hw.shape")
        .containsEntry("workload", "wl.schbench")
        .containsEntry("seed", 1.0)
        .containsEntry("duration_s", 0.01);
    List<Map<String, Object>> variants = (List<Map<String, Object>>) json.get("variants");
    assertThat(variants).extracting(v -> v.get("name")).containsExactly("old", "new");
    for (Map<String, Object> v : variants) {
      assertThat(v.keySet()).containsExactly("name", "plugins", "metrics");
      assertThat((List<String>) v.get("plugins")).isNotEmpty();
      assertThat((Map<String, Object>) v.get("metrics"))
          .containsKeys(
              "throughput",
              "throughput_unit",
              "smt_contention",
              "smt_no_contention",
              "ilb_kicks",
              "softirq",
              "lb_attempts",
              "migrations",
              "wasted_core_ms",
              "events");
    }
    assertThat((List<String>) variants.get(1).get("plugins"))
        .anyMatch(p -> p.startsWith("fair.ilb.idle-core"));
  }

  @Test
  void csv_headerAndOneRowPerVariant() {
    List<String> lines = Invocation.of(with("--format", "csv")).assertOk().out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0))
        .startsWith("variant,plugins,machine,workload,seed,duration_s,")
        .contains(",throughput,", ",smt_contention,");
    assertThat(lines.get(1)).startsWith("old,");
    assertThat(lines.get(2)).startsWith("new,");
    int columns = lines.get(0).split(",", -1).length;
    assertThat(lines.get(1).split(",", -1)).hasSize(columns);
  }

  @Test
  @SuppressWarnings("unchecked")
  void sameSeed_sameFigures() {
    List<Map<String, Object>> first = metrics(Invocation.of(with("--format", "json")).out());
    List<Map<String, Object>> second = metrics(Invocation.of(with("--format", "json")).out());
    for (int i = 0; i < first.size(); i++) {
      Map<String, Object> a = new java.util.LinkedHashMap<>(first.get(i));
      Map<String, Object> b = new java.util.LinkedHashMap<>(second.get(i));
      a.keySet().removeIf(k -> !Metrics.deterministic(k));
      b.keySet().removeIf(k -> !Metrics.deterministic(k));
      assertThat(a).isEqualTo(b);
    }
  }

  @Test
  void schedstat_oneVersion17FilePerVariant() throws IOException {
    Path out = dir.resolve("stats");
    Invocation.of(with("--schedstat", out.toString()))
        .assertOkWrote(out.resolve("old.schedstat").toString());
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("old.schedstat", "new.schedstat");
    }
    List<String> lines = Files.readAllLines(out.resolve("new.schedstat"));
    assertThat(lines.get(0)).isEqualTo("version 17");
    assertThat(lines.get(1)).startsWith("timestamp ");
    assertThat(lines).anyMatch(l -> l.startsWith("cpu15 "));
    // domain<N> <name> <mask> + 33 lb + 3 alb + 6 sbe/sbf + 3 ttwu fields
    assertThat(lines)
        .filteredOn(l -> l.startsWith("domain"))
        .allSatisfy(l -> assertThat(l.split(" ")).hasSize(3 + 33 + 3 + 6 + 3));
  }

  @Test
  @SuppressWarnings("unchecked")
  void trace_parsesAndHasEveryEventKind() throws IOException {
    Path trace = dir.resolve("run.json");
    Invocation.of(with("--trace", trace.toString(), "--quiet")).assertOk();
    Map<String, Object> json = JsonParser.object(Files.readString(trace));
    List<Map<String, Object>> events = (List<Map<String, Object>>) json.get("traceEvents");
    Set<String> kinds = new HashSet<>();
    for (Map<String, Object> e : events) {
      assertThat(e).containsKeys("ph", "pid", "name");
      String ph = (String) e.get("ph");
      if (!ph.equals("M")) {
        assertThat(e).containsKey("ts");
        assertThat((Double) e.get("ts")).isBetween(0.0, 10_000.0);
      }
      kinds.add(
          ph
              + ":"
              + (e.containsKey("cat")
                  ? e.get("cat")
                  : ((String) e.get("name")).replaceAll(" CPU \\d+$", "")));
    }
    assertThat(kinds)
        .contains(
            "X:task",
            "X:ilb",
            "i:kick",
            "i:migration",
            "C:nr_running",
            "C:nohz.idle_cpus_mask weight",
            "M:thread_name",
            "M:process_name");
    assertThat(events)
        .filteredOn(e -> e.get("ph").equals("X"))
        .allSatisfy(e -> assertThat((Double) e.get("dur")).isPositive());
    assertThat(events)
        .filteredOn(e -> e.get("ph").equals("M") && e.get("name").equals("process_name"))
        .hasSize(2);
  }

  @Test
  void html_isSelfContainedWithItsSvgCharts() throws IOException {
    Path html = dir.resolve("report.html");
    Invocation.of(with("--html", html.toString())).assertOkWrote(html.toString());
    String page = Files.readString(html);
    assertThat(page)
        .startsWith("<!DOCTYPE html>")
        .endsWith("</html>\n")
        .contains(
            "<svg class=\"metric throughput\"",
            "<svg class=\"heatmap\"",
            "<svg class=\"histogram ilb\"",
            "<svg class=\"histogram rqlock\"",
            "<rect")
        .doesNotContain("<script", "http://cdn", "https://");
    assertThat(page.split("<svg class=\"heatmap\"")).hasSize(3);
  }

  @Test
  void unknownVariantPlugin_oneLine_nearestId_noFilesWritten() throws IOException {
    Path trace = dir.resolve("t.json");
    Path html = dir.resolve("t.html");
    Invocation.of(
            with(
                "--variant",
                "bad=mainline-7.3+ext.smt-buddy.psh",
                "--trace",
                trace.toString(),
                "--html",
                html.toString(),
                "--schedstat",
                dir.resolve("s").toString()))
        .assertBadInput("ext.smt-buddy.psh", "did you mean 'ext.smt-buddy.push'?");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void unknownProfile_suggestsTheNearest() {
    Invocation.of(with("--variant", "x=mainline-7.2"))
        .assertBadInput("mainline-7.2", "did you mean");
  }

  @Test
  void variantPluginParameterOutOfRange_namesTheRange() {
    Invocation.of(with("--variant", "buddy=mainline-7.3+ext.smt-buddy.push:imbalance_pct=300"))
        .assertBadInput("imbalance_pct=300", "105..200");
  }

  @Test
  void workloadParameterOutOfRange_namesTheRange() {
    Invocation.of(with("-W", "workers=0")).assertBadInput("workers=0", "allowed");
  }

  @Test
  void unknownWorkload_suggestsTheNearest() {
    List<String> args = new ArrayList<>(SCENARIO);
    args.set(args.indexOf("wl.schbench"), "wl.schbnch");
    Invocation.of(args).assertBadInput("did you mean 'wl.schbench'?");
  }

  @Test
  void badDuration_namesTheUnits() {
    List<String> args = new ArrayList<>(SCENARIO);
    // An option given twice is an error of its own: the duration is replaced.
    args.set(args.indexOf("--duration") + 1, "ten");
    Invocation.of(args).assertBadInput("--duration=ten", "units");
  }

  @Test
  void badHz_namesTheChoices() {
    Invocation.of(with("--hz", "123")).assertBadInput("--hz 123", "250");
  }

  @Test
  void duplicateVariantName_refused() {
    Invocation.of(with("--variant", "old=mainline-7.3")).assertBadInput("old", "twice");
  }

  @Test
  void traceIntoMissingDirectory_refusedBeforeRunning() {
    Invocation.of(with("--trace", dir.resolve("no/such/dir/t.json").toString()))
        .assertBadInput("--trace", "does not exist");
  }

  @Test
  void reportFilesIntoANewDirectory_theReadmeCommand_createsIt() {
    Path out = dir.resolve("out");
    Invocation.of(
            with(
                "--schedstat",
                out.toString(),
                "--trace",
                out.resolve("run.json").toString(),
                "--html",
                out.resolve("run.html").toString()))
        .assertOkWrote(out.resolve("run.json").toString(), out.resolve("run.html").toString());
    assertThat(out.resolve("run.json")).isRegularFile();
    assertThat(out.resolve("run.html")).isRegularFile();
    assertThat(out.resolve("old.schedstat")).isRegularFile();
  }

  @Test
  void noVariant_refusedWithAnExample() {
    Invocation.of("compare", "--machine", "hw.shape", "--workload", "wl.gemm")
        .assertBadInput("--variant");
  }

  @Test
  void run_usesMainline73ByDefault() {
    String out =
        Invocation.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.gemm",
                "--duration",
                "5ms")
            .assertOk()
            .out();
    assertThat(out).contains("mainline-7.3 = fair.ilb.idle-core");
  }

  @Test
  void run_refusesTwoVariants() {
    Invocation.of(
            "run",
            "--machine",
            "hw.shape",
            "--workload",
            "wl.gemm",
            "--variant",
            "a=mainline-7.1",
            "--variant",
            "b=mainline-7.3")
        .assertBadInput("at most 1");
  }

  private static List<String> with(String... more) {
    List<String> args = new ArrayList<>(SCENARIO);
    args.addAll(List.of(more));
    return args;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> metrics(String json) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> v :
        (List<Map<String, Object>>) JsonParser.object(json).get("variants")) {
      out.add((Map<String, Object>) v.get("metrics"));
    }
    return out;
  }
}
