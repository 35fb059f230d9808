package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Input that is allowed but probably not meant says so on stderr (one {@code schedlab: warning:}
 * line each, the run still exits 0): a {@code --nohz-full} list naming every CPU (CPU 0 stays
 * housekeeping, as the kernel keeps the boot CPU), and a plugin declaring it needs SMT on a machine
 * without SMT. A key or an option given twice is an error instead: one line naming it and both
 * values, exit 2.
 */
final class AcceptedWithWarningTest {

  private static List<String> run(String shape, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=" + shape,
                "--workload",
                "wl.schbench",
                "--duration",
                "5ms",
                "--quiet"));
    args.addAll(List.of(more));
    return args;
  }

  @Test
  void nohzFullOnEveryCpu_warnsThatCpu0StaysHousekeeping() {
    Invocation run = Invocation.of(run("1n1l4c1t", "--nohz-full", "0-3"));
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.errLines())
        .containsExactly(
            "schedlab: warning: --nohz-full 0-3 names every"
                + " CPU; CPU 0 stays a housekeeping CPU and keeps its tick, as the kernel keeps the boot"
                + " CPU");
    Invocation.of(run("1n1l4c1t", "--nohz-full", "1-3")).assertOk();
  }

  @Test
  void smtPluginWithoutSmt_warnsOnceNamingWhatIsMissing() {
    Invocation run =
        Invocation.of(
            run("1n1l4c1t", "--variant", "a=mainline-7.3+ext.smt-buddy.exclude-siblings"));
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.errLines())
        .containsExactly(
            "schedlab: warning: ext.smt-buddy.exclude-siblings"
                + " (variant a) needs SMT, which hw.shape does not have; it has nothing to act on there");
    Invocation.of(run("1n1l2c2t", "--variant", "a=mainline-7.3+ext.smt-buddy.exclude-siblings"))
        .assertOk();
  }

  @Test
  void keyGivenTwice_isAnError() {
    Invocation.of(run("1n1l4c1t", "-E", "ipi_latency=1us", "-E", "ipi_latency=2us"))
        .assertBadInput("-E ipi_latency is given twice (1us, then 2us); give each key once");
    Invocation.of(run("1n1l4c1t", "--variant", "a=fair.ilb.first-idle:x=1;x=2"))
        .assertBadInput("x is given twice (1, then 2)");
  }

  @Test
  void optionGivenTwice_isAnError() {
    Invocation.of(run("1n1l4c1t", "--duration", "10ms"))
        .assertBadInput("--duration", "should be specified only once");
  }
}
