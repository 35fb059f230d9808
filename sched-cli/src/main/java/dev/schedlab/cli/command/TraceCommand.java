package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code schedlab trace}: recorded workloads. {@code import} turns a {@code perf script} or ftrace
 * text into the program file {@code wl.trace} replays; {@code check} replays one and compares it
 * with its recording.
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
      "Recorded workloads for wl.trace: import a perf script or ftrace text, check a replay.",
      "Commands: import, check (schedlab trace COMMAND --help)."
    })
public final class TraceCommand implements Callable<Integer> {

  private TraceCommand() {}

  /** The command with its subcommands, for the top-level command line. */
  public static CommandLine commandLine(Cli cli) {
    return new CommandLine(new TraceCommand())
        .addSubcommand("import", new TraceImportCommand(cli))
        .addSubcommand("check", new TraceCheckCommand(cli));
  }

  @Override
  public Integer call() {
    throw new BadInputException(
        "trace: expected a command: import or check (schedlab trace" + " --help)");
  }
}
