package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schedlab trace import} writes a program file that {@code wl.trace} runs as it runs the
 * trace itself, in run, compare and sweep, with the recording named in the report; {@code
 * --recorded-on} turns bursts into that machine's work; {@code trace check} sets a replay beside
 * its recording; bad input is one line and exit 2.
 */
final class TraceCommandTest {

  @TempDir Path dir;

  private Path trace;

  @BeforeEach
  void copyTrace() throws IOException {
    trace = dir.resolve("small-trace.txt");
    try (InputStream in = TraceCommandTest.class.getResourceAsStream("small-trace.txt")) {
      Files.copy(in, trace);
    }
  }

  @Test
  void importThenRun_programFileReplaysAsTheTraceAndTheReportNamesTheRecording()
      throws IOException {
    Path program = dir.resolve("out/program.json");

    String summary =
        Invocation.of("trace", "import", trace.toString(), "-o", program.toString())
            .assertOk()
            .out();
    String fromProgram =
        Invocation.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.trace",
                "-W",
                "file=" + program,
                "--duration",
                "10ms",
                "--format",
                "csv")
            .assertOk()
            .out();
    String fromTrace =
        Invocation.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.trace",
                "-W",
                "file=" + trace,
                "--duration",
                "10ms",
                "--format",
                "csv")
            .assertOk()
            .out();
    String table =
        Invocation.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.trace",
                "-W",
                "file=" + program,
                "--duration",
                "10ms")
            .assertOk()
            .out();

    assertThat(summary)
        .contains(
            trace + ": ftrace text, recorded on an unnamed machine",
            "  events  14 scheduler events",
            "  tasks   3 (2 at the start, 1 forked, 1 exited; 1"
                + " per-CPU kernel threads, 0 real-time)",
            "  steps   4 bursts (0.000725 s of work), 1 wake edges, 1 timed wakeups",
            "wrote " + program);
    assertThat(Files.readString(program, StandardCharsets.UTF_8))
        .contains("\"schedlab\": \"trace program\"", "\"ops\": \"r190000 b0 r90000 x\"");
    assertThat(withoutSpeed(fromProgram)).isEqualTo(withoutSpeed(fromTrace));
    assertThat(table)
        .contains(
            "wl.trace: replay of " + trace + " (ftrace text, recorded on an" + " unnamed machine",
            "3 tasks, 4 bursts, 1 wake edges, 2 timed wakeups, 1 forks, 1" + " exits",
            "time (s, lower is better)");
  }

  @Test
  void compareAndSweep_acceptTheTraceWorkload() {
    String compare =
        Invocation.of(
                "compare",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.trace",
                "-W",
                "file=" + trace,
                "--duration",
                "10ms",
                "--variant",
                "a=mainline-7.1",
                "--variant",
                "b=mainline-7.3")
            .assertOk()
            .out();
    String sweep =
        Invocation.of(
                "sweep",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.trace",
                "-W",
                "file=" + trace,
                "--duration",
                "10ms",
                "--variant",
                "a=mainline-7.1",
                "--variant",
                "b=mainline-7.3",
                "--seeds",
                "1..2")
            .assertOk()
            .out();

    assertThat(compare).contains("replay of " + trace, "time (s, lower is better)");
    assertThat(sweep).contains("time", "a", "b");
  }

  @Test
  void recordedOn_smtMachine_burstsBesideABusySiblingAreLessWork() {
    // bash and the worker ran on the two threads of one core for 230 of their 725 µs.
    String out =
        Invocation.of(
                "trace",
                "import",
                trace.toString(),
                "--recorded-on",
                "hw.shape",
                "-M",
                "shape=1n1l1c2t",
                "-M",
                "smt_corun_compute=0.5")
            .assertOk()
            .out();

    assertThat(out)
        .contains(
            "recorded on hw.shape -M shape=1n1l1c2t -M smt_corun_compute=0.5," + " 2 CPUs",
            "4 bursts (0.000495 s of work)");
  }

  /** {@code trace check} of the small trace on a two-CPU machine ({@code 1n1l2c1t}); exit 0. */
  private String checkOnTwoCpus(String duration) {
    return Invocation.of(
            "trace",
            "check",
            "--machine",
            "hw.shape",
            "-M",
            "shape=1n1l2c1t",
            "--workload",
            "wl.trace",
            "-W",
            "file=" + trace,
            "--duration",
            duration)
        .assertOk()
        .out();
  }

  @Test
  void check_sameTopology_everyTaskGetsItsRecordedCpuTime() {
    String out = checkOnTwoCpus("10ms");

    assertThat(out)
        .contains(
            "trace check: replay of " + trace,
            "replay completed at 0.000950 s",
            "tasks whose CPU time is within 5 %",
            "3 of 3",
            "worker-101",
            "migrations, all");
    assertThat(out).containsPattern("CPU time, all tasks \\(s\\) +0\\.0007 +0\\.0007 +1\\.000");
  }

  @Test
  void check_countsEndWithTheReplay_notWithDuration() {
    String[] durations = {"10ms", "2s"};
    String[] tables = new String[2];
    for (int i = 0; i < 2; i++) {
      String out = checkOnTwoCpus(durations[i]);
      assertThat(out)
          .contains(
              "0.001 s simulated (to the replay's completion, of the --duration "
                  + (i == 0 ? "0.010" : "2.000")
                  + " s");
      tables[i] = out.substring(out.indexOf("replay completed at"));
    }
    // Two seconds of the machine's background after the replay (kworkers, timer and device
    // interrupts) would add switches and wakeups the recording never had.
    assertThat(tables[1]).isEqualTo(tables[0]);
  }

  @Test
  void badInput_isOneLineAndExitTwo() throws IOException {
    Path data = dir.resolve("perf.data");
    Files.write(data, "PERFILE2\0\0".getBytes(StandardCharsets.ISO_8859_1));
    Path empty = dir.resolve("empty.txt");
    Files.writeString(empty, "");

    Invocation.of("trace", "import", data.toString())
        .assertBadInput("is a binary perf.data file; convert it to text first: perf script -i");
    Invocation.of("trace", "import", empty.toString()).assertBadInput("is empty");
    Invocation.of("trace", "import", trace.toString(), "-o", dir.toString())
        .assertBadInput("-o " + dir + ": is a directory");
    Invocation.of("trace", "import", trace.toString(), "-o", trace.toString())
        .assertBadInput("-o " + trace + ": is an input of this run (TRACE)");
    Invocation.of("trace", "import", trace.toString(), "-M", "shape=1n1l1c2t")
        .assertBadInput("-M shape=1n1l1c2t: a machine parameter needs --recorded-on ID");
    Invocation.of("trace", "import", trace.toString(), "--recorded-on", "hw.veraa")
        .assertBadInput("hw.veraa");
    Invocation.of(
            "trace",
            "import",
            trace.toString(),
            "--recorded-on",
            "hw.shape",
            "-M",
            "shape=1n1l1c1t")
        .assertBadInput(
            "the trace has CPU 1 but the recording machine"
                + " hw.shape -M shape=1n1l1c1t has 1 CPUs (0-0)");
    Invocation.of(
            "run",
            "--machine",
            "hw.shape",
            "--workload",
            "wl.trace",
            "-W",
            "file=" + empty,
            "--duration",
            "10ms")
        .assertBadInput("wl.trace: " + empty + " is empty");
    Invocation.of("trace").assertBadInput("trace: expected a command: import or check");
    Invocation.of("trace", "check", "--machine", "hw.shape", "--workload", "wl.gemm")
        .assertBadInput("trace check: --workload wl.gemm: expected wl.trace");
  }

  /** The CSV without its last two columns, the engine's speed (not deterministic). */
  private static String withoutSpeed(String csv) {
    StringBuilder out = new StringBuilder();
    for (String line : csv.lines().toList()) {
      String[] cells = line.split(",", -1);
      out.append(String.join(",", java.util.Arrays.copyOf(cells, cells.length - 2))).append('\n');
    }
    return out.toString();
  }
}
