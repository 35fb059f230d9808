package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Progress: the share of simulated time done, the simulated seconds per wall second and the ETA;
 * plain lines with {@code --progress} when stderr is no terminal, nothing with {@code --quiet}, and
 * the report is the same whether progress was watched or not.
 */
final class ProgressTest {

  private static final List<String> SCENARIO =
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
          "30ms",
          "--variant",
          "a=mainline-7.1",
          "--variant",
          "b=mainline-7.3",
          "--format",
          "json");

  @Test
  void line_countsFinishedRunsWholeAndRunningOnesByTheirClock() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Progress p =
        new Progress(
            new PrintStream(bytes, true, StandardCharsets.UTF_8),
            false,
            new long[] {1_000_000_000L, 1_000_000_000L, 2_000_000_000L})) {
      p.started(0, () -> 500_000_000L);
      p.started(1, () -> 5_000_000_000L);
      p.finished(1);
      assertThat(p.line())
          .startsWith("schedlab: 37% of 4 s simulated, 1/3 runs done, ")
          .contains(" simulated s per wall s, ETA ");
    }
    // Closing leaves the final line, all simulated time counted for finished runs only.
    assertThat(bytes.toString(StandardCharsets.UTF_8)).startsWith("schedlab: 37% of 4 s");
  }

  @Test
  void progressOption_printsPlainLinesWhenStderrIsNoTerminal_andLeavesTheReportAlone() {
    Invocation watched = Invocation.of(with("--progress"));
    assertThat(watched.exitCode()).isZero();
    assertThat(watched.errLines())
        .isNotEmpty()
        .allMatch(l -> l.startsWith("schedlab: "))
        .last()
        .asString()
        .startsWith("schedlab: 100% of 0.06 s simulated, 2/2 runs done")
        .doesNotContain("\r");
    Invocation quiet = Invocation.of(with("--progress", "-q")).assertOk();
    Invocation plain = Invocation.of(SCENARIO).assertOk();
    assertThat(results(watched.out()))
        .isEqualTo(results(quiet.out()))
        .isEqualTo(results(plain.out()));
  }

  private static List<String> with(String... extra) {
    List<String> args = new ArrayList<>(SCENARIO);
    args.addAll(List.of(extra));
    return args;
  }

  private static Map<String, Object> results(String json) {
    Map<String, Object> report = JsonParser.object(json);
    report.remove("engine");
    return report;
  }
}
