package dev.schedlab.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Bad input is one line on stderr naming the problem, and exit status 2, before any boot. */
final class OracleMainTest {

  private static String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        OracleMain.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new String[] {Integer.toString(status), err.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void run_shapeQemuCannotExpress_oneLineAndExit2() {
    String[] r = run("domains", "--shape", "1s1d3c2t2n");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1].strip().lines()).hasSize(1);
    assertThat(r[1]).startsWith("schedlab kernel: guest shape:").contains("do not divide");
  }

  @Test
  void run_unknownOptionOrAccelerator_oneLineAndExit2() {
    assertThat(run("domains", "--shape", "1s1d2c1t", "--cpus", "4")[1])
        .contains("unknown or incomplete option '--cpus'");
    String[] accel = run("domains", "--shape", "1s1d2c1t", "--accel", "hvf");
    assertThat(accel[0]).isEqualTo("2");
    assertThat(accel[1]).contains("--accel 'hvf' is not one of tcg, kvm");
  }

  @Test
  void run_missingKernelImage_oneLineAndExit2() {
    String[] r = run("domains", "--shape", "1s1d2c1t", "--kernel", "/nonexistent/bzImage");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).contains("--kernel /nonexistent/bzImage is not a file");
  }

  @Test
  void run_badWorkload_oneLineAndExit2() {
    String[] r = run("behaviour", "--shape", "1s1d2c1t", "--workload", "gemm:x");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1]).contains("--workload takes gemm:THREADS:CHUNK_US:SPIN_US");
  }

  @Test
  void run_badRulesOrForkexecInBehaviour_oneLineAndExit2() {
    String[] rules =
        run(
            "behaviour",
            "--shape",
            "1s1d2c1t",
            "--workload",
            "gemm:1:1000:0",
            "--rules",
            "linux-5.15");
    assertThat(rules[0]).isEqualTo("2");
    assertThat(rules[1].strip().lines()).hasSize(1);
    assertThat(rules[1]).contains("rules linux-5.15: allowed mainline, linux-6.1");
    String[] fork = run("behaviour", "--shape", "1s1d2c1t", "--workload", "forkexec:1:2:3");
    assertThat(fork[0]).isEqualTo("2");
    assertThat(fork[1]).contains("forkexec has no simulator counterpart");
  }

  @Test
  void run_recordNeedsAWorkloadAndAnOutput_oneLineAndExit2() {
    String[] noOut = run("record", "--shape", "1s1d2c1t", "--workload", "forkexec:1:2:3");
    assertThat(noOut[0]).isEqualTo("2");
    assertThat(noOut[1]).contains("--out is required");
    String[] bad =
        run("record", "--shape", "1s1d2c1t", "--workload", "forkexec:1", "--out", "/tmp/x.txt");
    assertThat(bad[0]).isEqualTo("2");
    assertThat(bad[1]).contains("forkexec:WORKERS:CHILDREN:RUN_US");
  }

  @Test
  void run_rtappWithoutThreads_oneLineAndExit2() {
    String[] r = run("behaviour", "--shape", "1s1d2c1t", "--workload", "rtapp:0:10000:100");
    assertThat(r[0]).isEqualTo("2");
    assertThat(r[1].strip().lines()).hasSize(1);
    assertThat(r[1]).contains("rtapp:THREADS:PERIOD_US:RUN_US needs THREADS and PERIOD_US >= 1");
  }
}
