package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code schedlab rerun REPORT.json} reproduces a report from the report alone: for scenarios with
 * every kind of setting ({@code -M}, {@code -W}, {@code -E}, {@code --nohz-full}, {@code
 * --isolcpus}, several variants with plugin parameters, an rt-app file, {@code run}) the new report
 * is byte-identical to the old one up to its engine section; a changed result or a changed input
 * file is named.
 */
final class RerunCommandTest {

  private static final String ENGINE = "\n  \"engine\": {";

  @TempDir Path dir;

  static Stream<Arguments> scenarios() {
    return Stream.of(
        Arguments.of(
            "-M -W -E, three variants with plugin parameters",
            List.of(
                "compare",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n2l4c2t",
                "-M",
                "numbering=adjacent",
                "--workload",
                "wl.hackbench",
                "-W",
                "groups=2",
                "-W",
                "loops=50",
                "--duration",
                "40ms",
                "--seed",
                "7",
                "-E",
                "skew_tick=true",
                "-E",
                "ipi_latency=3us",
                "--variant",
                "a=mainline-7.1",
                "--variant",
                "rr=mainline-7.1+ext.ilb.round-robin",
                "--variant",
                "core=mainline-7.3+fair.ilb.idle-core:pruning=v2")),
        Arguments.of(
            "--nohz-full, --isolcpus, HZ 250",
            List.of(
                "compare",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n2l4c2t",
                "--isolcpus",
                "domain,2-3",
                "--nohz-full",
                "4-7",
                "--workload",
                "wl.schbench",
                "-W",
                "workers=4",
                "--duration",
                "30ms",
                "--hz",
                "250",
                "-E",
                "mainline_deltas=false",
                "--variant",
                "a=mainline-7.1",
                "--variant",
                "b=nohz-fix")),
        Arguments.of(
            "run, one variant by default",
            List.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.gemm",
                "--duration",
                "20ms")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void rerun_reproducesTheReportByteForByteUpToTheEngineSection(String name, List<String> args)
      throws IOException {
    assertReproduced(args);
  }

  @Test
  void rerun_ofAnRtAppFileScenario_checksTheFileAndReproducesTheReport() throws IOException {
    Path workers = rtApp("w.json", 5000);
    assertReproduced(
        List.of(
            "compare",
            "--machine",
            "hw.shape",
            "-M",
            "shape=1n2l4c2t",
            "--workload",
            "wl.rtapp",
            "-W",
            "file=" + workers,
            "--duration",
            "30ms",
            "--variant",
            "a=mainline-7.3",
            "--variant",
            "b=mainline-7.3+fair.nohz.always-when-stopped"));

    Path report =
        report(
            List.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n2l4c2t",
                "--workload",
                "wl.rtapp",
                "-W",
                "file=" + workers,
                "--duration",
                "20ms"));
    rtApp("w.json", 6000);
    Invocation.of("rerun", report.toString(), "-q")
        .assertBadInput("-W file=" + workers, "has changed since the report was written");
  }

  @Test
  void rerun_ofAChangedResult_namesTheFirstDifferenceAndExitsOne() throws IOException {
    Path report =
        report(
            List.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.hackbench",
                "-W",
                "groups=1",
                "--duration",
                "20ms"));
    String text = Files.readString(report);
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"ilb_kicks\": (\\d+),").matcher(text);
    assertThat(m.find()).isTrue();
    String kicks = m.group(1);
    Files.writeString(
        report,
        text.replaceFirst("\"ilb_kicks\": " + kicks + ",", "\"ilb_kicks\": " + kicks + "1,"));

    Invocation rerun = Invocation.of("rerun", report.toString(), "-q");
    assertThat(rerun.exitCode()).isEqualTo(1);
    assertThat(rerun.out())
        .startsWith("not reproduced " + report)
        .contains("variants[0].metrics.ilb_kicks: " + kicks + "1 against " + kicks);
  }

  @Test
  void rerun_ofAFileThatIsNoReport_isBadInput() throws IOException {
    Path notJson = Files.writeString(dir.resolve("x.json"), "{\"a\": ");
    Invocation.of("rerun", notJson.toString()).assertBadInput(notJson + ": not JSON");
    Path noScenario = Files.writeString(dir.resolve("y.json"), "{\"machine\": \"hw.vera\"}");
    Invocation.of("rerun", noScenario.toString()).assertBadInput("no scenario block");
    Invocation.of("rerun", dir.resolve("absent.json").toString())
        .assertBadInput("absent.json: no such file or directory");
  }

  @Test
  void json_carriesTheBuildTheFullScenarioAndWallClockOnlyInTheEngineSection() throws IOException {
    Map<String, Object> json =
        JsonParser.object(
            Files.readString(
                report(
                    List.of(
                        "compare",
                        "--machine",
                        "hw.shape",
                        "-M",
                        "shape=1n1l2c2t",
                        "--workload",
                        "wl.hackbench",
                        "-W",
                        "groups=1",
                        "--duration",
                        "20ms",
                        "-E",
                        "skew_tick=true",
                        "--variant",
                        "a=mainline-7.3+fair.ilb.idle-core:pruning=v2"))));
    assertThat(json).containsKeys("schedlab", "scenario", "variants", "engine");
    assertThat(cast(json.get("schedlab"))).containsKeys("version", "commit");
    Map<String, Object> scenario = cast(json.get("scenario"));
    assertThat(cast(scenario.get("machine_parameters")))
        .containsEntry("shape", "1n1l2c2t")
        .containsKey("clock_ghz");
    assertThat(cast(scenario.get("workload_parameters")))
        .containsEntry("groups", "1")
        .containsKey("loops");
    assertThat(cast(scenario.get("engine_settings")))
        .containsEntry("skew_tick", "true")
        .containsEntry("ipi_latency", "2us");
    assertThat(scenario)
        .containsEntry("hz", 1000.0)
        .containsEntry("duration", "20ms")
        .containsKey("kernel_rules");
    Map<String, Object> variant = cast(((List<?>) scenario.get("variants")).get(0));
    assertThat(variant.get("plugins").toString()).contains("pruning=v2");
    assertThat(metrics(json))
        .doesNotContainKeys("events_per_s", "sim_seconds_per_wall_second")
        .containsKey("events");
    Map<String, Object> engine = cast(((List<?>) cast(json.get("engine")).get("variants")).get(0));
    assertThat(engine).containsKeys("wall_s", "events_per_s", "sim_seconds_per_wall_second");
  }

  private void assertReproduced(List<String> args) throws IOException {
    Path report = report(args);
    Path again = dir.resolve("again.json");
    Invocation rerun = Invocation.of("rerun", report.toString(), "--out", again.toString(), "-q");
    assertThat(rerun.exitCode()).as("stdout %s stderr %s", rerun.out(), rerun.err()).isZero();
    assertThat(rerun.out()).startsWith("reproduced " + report + ": identical");
    String before = Files.readString(report);
    String after = Files.readString(again);
    assertThat(before).contains(ENGINE);
    assertThat(after.substring(0, after.indexOf(ENGINE)))
        .isEqualTo(before.substring(0, before.indexOf(ENGINE)));
  }

  private Path report(List<String> args) throws IOException {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of("--format", "json", "-q"));
    String json = Invocation.of(all).assertOk().out();
    return Files.writeString(
        Files.createTempFile(dir, "report", ".json"), json, StandardCharsets.UTF_8);
  }

  private Path rtApp(String name, int runUs) throws IOException {
    StringBuilder tasks = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      tasks
          .append(i == 0 ? "" : ", ")
          .append("\"w")
          .append(i)
          .append("\": {\"loop\": -1," + " \"run\": ")
          .append(runUs)
          .append(", \"sleep\": 5000}");
    }
    return Files.writeString(
        dir.resolve(name), "{\"tasks\": {" + tasks + "}, \"global\": {\"duration\": -1}}");
  }

  private static Map<String, Object> metrics(Map<String, Object> json) {
    return cast(cast(((List<?>) json.get("variants")).get(0)).get("metrics"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Object o) {
    return (Map<String, Object>) o;
  }
}
