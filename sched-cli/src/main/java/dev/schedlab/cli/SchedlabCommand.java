package dev.schedlab.cli;

import dev.schedlab.cli.command.Cli;
import dev.schedlab.cli.command.Version;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * The top-level {@code schedlab} command. Without a subcommand it runs the default comparison: the
 * ILB thread's Vera GEMM measurement, the first-idle ILB of 7.1.5/7.2 against the idle-core ILB
 * expected in 7.3, both on the engine's mainline rules (the report's header says so).
 */
@Command(
    name = "schedlab",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
      "Simulate Linux fair-class load balancing on machines you do not have.",
      "Without a command: the default comparison, the same as",
      "  schedlab " + SchedlabCommand.DEFAULT_SCENARIO,
      "    " + SchedlabCommand.DEFAULT_VARIANTS
    })
final class SchedlabCommand implements Callable<Integer> {

  /** The default comparison's scenario, as typed (compile-time constants for the help text). */
  static final String DEFAULT_SCENARIO =
      "compare --machine hw.vera --workload wl.gemm --duration 3s";

  /** The default comparison's variants, as typed. */
  static final String DEFAULT_VARIANTS =
      "--variant first-idle=mainline-7.1 --variant idle-core=mainline-7.3";

  /** The default comparison's arguments. */
  static final List<String> DEFAULT_COMPARISON =
      List.of((DEFAULT_SCENARIO + " " + DEFAULT_VARIANTS).split(" "));

  private final Cli cli;

  SchedlabCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    return Main.run(DEFAULT_COMPARISON.toArray(String[]::new), cli);
  }
}
