package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Command-line polish: shell completion, "did you mean" for options, the first error being the
 * first thing wrong, durations without a unit refused, {@code --lscpu -} from standard input and
 * plain {@code lscpu} output recognised, "1 package", NUMA levels told apart in reports.
 */
final class PolishTest {

  @Test
  void completion_printsABashScriptCoveringCommandsAndOptions() {
    String script = Invocation.of("completion").assertOk().out();
    assertThat(script)
        .startsWith("#!/usr/bin/env bash")
        .contains("complete -F")
        .contains("compare", "rerun", "sweep", "--variant", "--duration");
  }

  @Test
  void unknownOption_namesTheNearestOne() {
    Invocation.of("compare", "--machine", "hw.shape", "--workload", "wl.gemm", "--durration", "5ms")
        .assertBadInput("unknown option '--durration'; did you mean '--duration'?");
  }

  @Test
  void badMachine_isNamedBeforeAMissingVariant() {
    Invocation.of("compare", "--machine", "hw.vara", "--workload", "wl.gemm")
        .assertBadInput("unknown hardware model 'hw.vara'; did you mean 'hw.vera'?");
  }

  @Test
  void durationWithoutUnit_isRefusedNamingTheUnits() {
    Invocation.of("run", "--machine", "hw.shape", "--workload", "wl.gemm", "--duration", "5")
        .assertBadInput("duration=5 has no unit", "ns, us, ms or s");
    Invocation.of(
            "run",
            "--machine",
            "hw.shape",
            "--workload",
            "wl.gemm",
            "--duration",
            "5ms",
            "-E",
            "ipi_latency=3")
        .assertBadInput("ipi_latency=3 has no unit");
  }

  @Test
  void lscpuFromStandardInput_andPlainLscpuRecognised() {
    String parsable = "# CPU,Core,Socket,Node\n0,0,0,0\n1,0,0,0\n2,1,0,0\n3,1,0,0\n";
    String out =
        withStdin(parsable, () -> Invocation.of("topology", "--lscpu", "-").assertOk()).out();
    assertThat(out).contains("1 package, 1 NUMA node, ", "2 cores, 4 CPUs, SMT2");
    String plain = "Architecture:            x86_64\nCPU(s):                  4\n";
    withStdin(
        plain,
        () ->
            Invocation.of("topology", "--lscpu", "-")
                .assertBadInput("plain lscpu output", "lscpu -p or lscpu -e"));
  }

  @Test
  void reports_tellNumaLevelsApart() {
    String table =
        Invocation.of(
                "run",
                "--machine",
                "hw.hygon-7447v",
                "--workload",
                "wl.hackbench",
                "-W",
                "groups=1",
                "--duration",
                "10ms",
                "-q")
            .assertOk()
            .out();
    // Hygon's nodes are at three distances: three NUMA levels of sched_init_numa().
    assertThat(table).contains("NUMA-1", "NUMA-2", "NUMA-3");
  }

  private static Invocation withStdin(String text, java.util.function.Supplier<Invocation> run) {
    InputStream saved = System.in;
    System.setIn(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    try {
      return run.get();
    } finally {
      System.setIn(saved);
    }
  }
}
