package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.command.Cli;
import dev.schedlab.core.engine.InvariantViolation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The entry point keeps the command-line contract: no arguments run the default comparison
 * (hw.vera, wl.gemm, first-idle vs idle-core) as a side-by-side table whose header names the kernel
 * rules both run, the changed assumptions and a one-line reading; usage errors and unknown commands
 * print exactly one {@code schedlab:} line and exit with 2; help exits with 0.
 */
final class MainTest {

  @Test
  void noArguments_runsDefaultComparison_tableWithBothMainlineVariants() {
    Invocation run = Invocation.of().assertOk();
    assertThat(run.out())
        .startsWith("hw.vera (352 CPUs, SMT2")
        .contains("wl.gemm")
        .contains("first-idle = fair.ilb.first-idle")
        .contains("idle-core = fair.ilb.idle-core")
        .contains("kernel rules: every variant runs the engine's post-7.1 mainline")
        .contains("assumptions changed from their defaults: none")
        .containsPattern(
            "reading: first-idle chose \\d+ ILBs next to a busy sibling, idle-core \\d+")
        .containsPattern("throughput \\(FLOP/s, higher is better\\) +\\S+ T +\\S+ T +[+-]\\d")
        .contains("@ilb_duration_us[idle-core]:");
  }

  @Test
  void defaultComparison_isAnOrdinaryCompareCommand() {
    assertThat(SchedlabCommand.DEFAULT_COMPARISON)
        .startsWith("compare", "--machine", "hw.vera", "--workload", "wl.gemm")
        .contains("first-idle=mainline-7.1", "idle-core=mainline-7.3");
  }

  @Test
  void unknownCommand_oneLineWithNearestCommand_exitTwo() {
    Invocation.of("comapre").assertBadInput("unknown command 'comapre'", "did you mean 'compare'?");
  }

  @Test
  void unknownOption_oneLineNamingIt_exitTwo() {
    Invocation.of("machines", "--colour").assertBadInput("machines:", "--colour");
  }

  @Test
  void missingRequiredOption_oneLine_exitTwo() {
    Invocation.of("compare", "--workload", "wl.gemm", "--variant", "a=mainline-7.1")
        .assertBadInput("--machine");
  }

  @Test
  void help_printsUsageOnStdout_exitZero() {
    Invocation run = Invocation.of("--help").assertOk();
    assertThat(run.out())
        .contains(
            "compare",
            "explain-ilb",
            "topology",
            "sweep",
            SchedlabCommand.DEFAULT_SCENARIO,
            SchedlabCommand.DEFAULT_VARIANTS);
  }

  @Test
  void subcommandHelp_listsItsOptions() {
    assertThat(Invocation.of("compare", "--help").assertOk().out())
        .contains("--variant", "--schedstat", "--trace", "--html", "--duration");
  }

  @Test
  void namedSubcommand_treeHoldsOnlyIt_otherwiseEveryCommand() {
    Cli cli = new Cli(System.out, System.err, false);
    assertThat(Main.commandLine(cli, "compare").getSubcommands()).containsOnlyKeys("compare");
    assertThat(Main.commandLine(cli, "trace").getSubcommands().get("trace").getSubcommands())
        .containsOnlyKeys("import", "check");
    assertThat(Main.commandLine(cli, "comapre").getSubcommands().keySet())
        .isEqualTo(Main.commandLine(cli).getSubcommands().keySet())
        .contains("compare", "run", "sweep", "kernel", "trace", "completion");
    assertThat(Main.commandLine(cli, "completion").getSubcommands())
        .hasSameSizeAs(Main.commandLine(cli).getSubcommands());
    assertThat(Main.commandLine(cli, "--help").getSubcommands())
        .hasSameSizeAs(Main.commandLine(cli).getSubcommands());
  }

  @Test
  void completion_describesEveryCommand() {
    assertThat(Invocation.of("completion").assertOk().out())
        .contains("compare", "rerun", "sweep", "explain-ilb", "kernel", "trace", "import");
  }

  @Test
  void subcommandHelp_sameInTheOneCommandTreeAsInTheWholeTree() {
    Cli cli = new Cli(System.out, System.err, false);
    for (String command : Main.commandLine(cli).getSubcommands().keySet()) {
      assertThat(Main.commandLine(cli, command).getSubcommands().get(command).getUsageMessage())
          .as(command)
          .isEqualTo(Main.commandLine(cli).getSubcommands().get(command).getUsageMessage());
    }
  }

  @Test
  void brokenInvariant_oneLineNamingIt_exitThree() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Cli cli =
        new Cli(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            false);
    int code =
        Main.failure(
            cli,
            new InvariantViolation(
                "invariant 'ILB CPU idle' violated at"
                    + " 0.004000 s simulated: the ILB selector chose CPU 3, which is not idle (kicker CPU 1)"));
    String line = err.toString(StandardCharsets.UTF_8);
    assertThat(code).isEqualTo(3);
    assertThat(line.lines()).hasSize(1);
    assertThat(line)
        .startsWith(
            "schedlab: invariant 'ILB CPU idle' violated at 0.004000 s"
                + " simulated: the ILB selector chose CPU 3")
        .doesNotContain("Exception", "\tat ");
  }

  @Test
  void outOfMemory_oneLineNamingTheHeapAndHowToRaiseIt() {
    assertThat(Main.outOfMemory())
        .startsWith(
            "out of memory: this run needs more than the "
                + (Runtime.getRuntime().maxMemory() >> 20)
                + " MB of heap the JVM may use; raise it"
                + " (e.g. SCHEDLAB_JAVA_OPTS=-Xmx4g)")
        .doesNotContain("\n");
  }
}
