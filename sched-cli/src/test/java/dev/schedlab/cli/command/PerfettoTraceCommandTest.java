package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.TestScenarios;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.Trace;
import dev.schedlab.cli.report.perfetto.PerfettoTrace.TracePacket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --trace} writes a Perfetto trace by default, one file per variant named after it, and
 * Chrome trace JSON for a {@code .json} file or {@code --trace-format json}; protoc decodes the
 * trace with the vendored {@code perfetto_trace.proto}; bad combinations are refused with one line
 * before anything runs.
 */
final class PerfettoTraceCommandTest {

  private static final List<String> SCENARIO = TestScenarios.schbenchCompare("10ms");

  @TempDir Path dir;

  private static List<String> with(String... extra) {
    List<String> args = new ArrayList<>(SCENARIO);
    args.addAll(List.of(extra));
    return args;
  }

  private static long switches(Path file) throws IOException {
    Trace trace = Trace.parseFrom(Files.readAllBytes(file));
    long n = 0;
    for (TracePacket p : trace.getPacketList()) {
      if (p.hasFtraceEvents()) {
        n += p.getFtraceEvents().getEventList().stream().filter(e -> e.hasSchedSwitch()).count();
      }
    }
    return n;
  }

  @Test
  void perfettoByDefault_oneFilePerVariant() throws IOException {
    Path trace = dir.resolve("run.pftrace");
    Path old = dir.resolve("run.old.pftrace");
    Path neu = dir.resolve("run.new.pftrace");
    Invocation.of(with("--trace", trace.toString())).assertOkWrote(old.toString(), neu.toString());
    assertThat(trace).doesNotExist();
    assertThat(switches(old)).isPositive();
    assertThat(switches(neu)).isPositive();
  }

  @Test
  void oneVariant_theFileAsGiven() throws IOException {
    Path trace = dir.resolve("one.trace");
    List<String> args = new ArrayList<>(SCENARIO.subList(0, SCENARIO.size() - 2));
    args.addAll(List.of("--trace", trace.toString()));
    Invocation.of(args).assertOkWrote(trace.toString());
    assertThat(switches(trace)).isPositive();
  }

  @Test
  void jsonByExtensionOrByOption() throws IOException {
    Path byName = dir.resolve("run.json");
    Invocation.of(with("--trace", byName.toString(), "-q")).assertOk();
    assertThat(Files.readString(byName)).startsWith("{\"displayTimeUnit\":\"ns\"");
    Path byOption = dir.resolve("run.pftrace");
    Invocation.of(with("--trace", byOption.toString(), "--trace-format", "json", "-q")).assertOk();
    assertThat(Files.readString(byOption)).startsWith("{\"displayTimeUnit\":\"ns\"");
  }

  @Test
  void perfettoForAJsonName_whenAskedFor() throws IOException {
    Path trace = dir.resolve("t.json");
    Invocation.of(with("--trace", trace.toString(), "--trace-format", "perfetto", "-q")).assertOk();
    assertThat(switches(dir.resolve("t.old.json"))).isPositive();
  }

  @Test
  void badFormat_oneLine() throws IOException {
    Invocation.of(with("--trace", dir.resolve("t").toString(), "--trace-format", "protobuf"))
        .assertBadInput("--trace-format", "perfetto", "json");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void formatWithoutTrace_refused() {
    Invocation.of(with("--trace-format", "json")).assertBadInput("--trace-format", "--trace");
  }

  @Test
  void stdoutWithSeveralVariants_refusedForPerfetto() {
    Invocation.of(with("--trace", "-")).assertBadInput("--trace -", "one variant", "json");
  }

  @Test
  void protocDecodesTheTrace_withTheVendoredProto() throws IOException, InterruptedException {
    String protoc = System.getProperty("schedlab.protoc", "");
    Assumptions.assumeTrue(
        !protoc.isEmpty() && Files.isExecutable(Path.of(protoc)),
        "protoc from the build (schedlab.protoc) is not there: " + protoc);
    Path trace = dir.resolve("run.pftrace");
    Invocation.of(with("--trace", trace.toString(), "-q")).assertOk();
    Path decoded = dir.resolve("decoded.txt");
    Process process =
        new ProcessBuilder(
                protoc,
                "--proto_path=" + Path.of("src/main/protobuf").toAbsolutePath(),
                "--decode=perfetto.protos.Trace",
                "perfetto_trace.proto")
            .redirectInput(dir.resolve("run.old.pftrace").toFile())
            .redirectOutput(decoded.toFile())
            .redirectErrorStream(false)
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as("protoc: %s", err).isZero();
    assertThat(Files.readString(decoded))
        .contains("sched_switch {", "sched_waking {", "process_tree {", "track_descriptor {")
        .contains("name: \"sched_balance_newidle\"");
  }
}
