package dev.schedlab.cli;

import dev.schedlab.cli.command.Cli;
import dev.schedlab.cli.command.CompareCommand;
import dev.schedlab.cli.command.ExplainIlbCommand;
import dev.schedlab.cli.command.KernelCommand;
import dev.schedlab.cli.command.ListCommand;
import dev.schedlab.cli.command.RerunCommand;
import dev.schedlab.cli.command.RunCommand;
import dev.schedlab.cli.command.SweepCommand;
import dev.schedlab.cli.command.TopologyCommand;
import dev.schedlab.cli.command.TraceCommand;
import dev.schedlab.core.engine.InvariantViolation;
import dev.schedlab.spi.PluginRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Entry point of {@code schedlab}. Wires the picocli commands and turns every failure into the
 * contract users and scripts rely on: bad input (a picocli usage error, an unknown id, a value
 * outside its range, an unreadable topology file) prints exactly one line {@code schedlab: <problem
 * and what is allowed>} on stderr and exits with 2; nothing else is printed and no stack trace is
 * shown. Running out of heap is bad input too (the run was too large for the heap given): a run the
 * estimate of {@code HeapEstimate} says cannot fit is refused before it starts, and an {@link
 * OutOfMemoryError} that still happens becomes one line naming the heap and how to raise it. A
 * broken engine invariant prints the line naming it, the simulated time and the CPU or task, and
 * exits with 3. An unexpected failure also prints one line, and exits with 1.
 */
public final class Main {

  /** Exit code for bad input. */
  static final int EXIT_BAD_INPUT = 2;

  /** Exit code for a failure that is not the user's input (a bug). */
  static final int EXIT_INTERNAL = 1;

  /** Exit code for a broken engine invariant: the run's results cannot be trusted. */
  static final int EXIT_INVARIANT = 3;

  private Main() {}

  /** Runs the command line; exits 2 on bad input. */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    int code = run(args, out, System.err);
    out.flush();
    System.exit(code);
  }

  /**
   * Runs the command line with the given streams; returns the exit code. Progress is shown only
   * when {@code err} is the process's stderr and that is a terminal. Public so that embedders and
   * integration tests go through exactly the code path of the {@code schedlab} command.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, new Cli(out, err, err == System.err && stderrIsTerminal()));
  }

  /** Whether file descriptor 2 is a terminal (Linux); elsewhere, whether there is a console. */
  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  /**
   * Runs the command line in {@code cli}'s environment; returns the exit code. No arguments run the
   * default comparison.
   */
  static int run(String[] args, Cli cli) {
    String[] given =
        args.length == 0 ? SchedlabCommand.DEFAULT_COMPARISON.toArray(String[]::new) : args;
    CommandLine commandLine = commandLine(cli, given[0]);
    int code;
    try {
      code = commandLine.execute(given);
    } catch (OutOfMemoryError e) {
      // What the run held is unreachable once the stack has unwound to here.
      code = error(cli, outOfMemory(), EXIT_BAD_INPUT);
    }
    cli.out().flush();
    return code;
  }

  /** The line for a heap too small for the run. */
  static String outOfMemory() {
    return "out of memory: this run needs more than the "
        + (Runtime.getRuntime().maxMemory() >> 20)
        + " MB of heap the JVM may use; raise it (e.g. SCHEDLAB_JAVA_OPTS=-Xmx4g) or make the"
        + " run smaller (a smaller machine, fewer variants, a shorter --duration, no --trace)";
  }

  /**
   * The subcommands in the order {@code --help} lists them, each made on demand: picocli builds a
   * command's model reflectively when it is added, and building all of them put 0.32-0.46 s between
   * {@code main} and parsing where one takes 0.17-0.19 s (class-load log, load 6;
   * benchmarks/README.md, issue 24, "Quiet machine, after the merges").
   */
  private static final Map<String, Function<Cli, Object>> SUBCOMMANDS = subcommands();

  private static Map<String, Function<Cli, Object>> subcommands() {
    Map<String, Function<Cli, Object>> commands = new LinkedHashMap<>();
    commands.put("compare", CompareCommand::new);
    commands.put("run", RunCommand::new);
    commands.put("rerun", RerunCommand::new);
    commands.put("sweep", SweepCommand::new);
    commands.put("machines", ListCommand.Machines::new);
    commands.put("policies", ListCommand.Policies::new);
    commands.put("workloads", ListCommand.Workloads::new);
    commands.put("engine", ListCommand.Engine::new);
    commands.put("topology", TopologyCommand::new);
    commands.put("explain-ilb", ExplainIlbCommand::new);
    commands.put("kernel", KernelCommand::new);
    commands.put("trace", TraceCommand::commandLine);
    commands.put("completion", cli -> new Completion());
    return commands;
  }

  /** The whole command tree, with output and error handling bound to {@code cli}. */
  static CommandLine commandLine(Cli cli) {
    return commandLine(cli, null);
  }

  /**
   * The command tree for a command line whose first argument is {@code first}: when that names a
   * subcommand, the tree holds only it (what it parses and prints is the same as in the whole
   * tree); otherwise (an option of {@code schedlab} itself, an unknown command, which the "did you
   * mean" message compares with every name, and {@code completion}, which describes every command)
   * the whole tree.
   */
  static CommandLine commandLine(Cli cli, String first) {
    CommandLine commandLine = new CommandLine(new SchedlabCommand(cli));
    boolean one = first != null && SUBCOMMANDS.containsKey(first) && !first.equals("completion");
    for (Map.Entry<String, Function<Cli, Object>> command : SUBCOMMANDS.entrySet()) {
      if (!one || command.getKey().equals(first)) {
        commandLine.addSubcommand(command.getKey(), command.getValue().apply(cli));
      }
    }
    // Setters apply to the subcommands added so far, so they come last.
    commandLine.setOut(new PrintWriter(cli.out(), true));
    commandLine.setErr(new PrintWriter(cli.err(), true));
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    // A repeated single-value option is an error, as a repeated -M/-W/-E key is: which of the two
    // the user meant is not ours to guess.
    commandLine.setOverwrittenOptionsAllowed(false);
    commandLine.setParameterExceptionHandler((e, args) -> usageError(cli, e));
    commandLine.setExecutionExceptionHandler((e, command, parsed) -> failure(cli, e));
    return commandLine;
  }

  private static int usageError(Cli cli, ParameterException e) {
    String message = e.getMessage();
    if (e instanceof UnmatchedArgumentException unmatched
        && unmatched.getCommandLine().getParent() == null
        && !unmatched.getUnmatched().isEmpty()
        && !unmatched.getUnmatched().get(0).startsWith("-")) {
      List<String> commands = new ArrayList<>(unmatched.getCommandLine().getSubcommands().keySet());
      message = PluginRegistry.unknownMessage("command", unmatched.getUnmatched().get(0), commands);
    } else {
      String command = e.getCommandLine().getCommandName();
      if (e instanceof UnmatchedArgumentException unmatched) {
        message = suggest(unmatched, message);
      }
      if (e.getCommandLine().getParent() != null) {
        message = command + ": " + message;
      }
    }
    return error(cli, message, EXIT_BAD_INPUT);
  }

  /** An unknown option's message with the nearest option of the command: did you mean it? */
  private static String suggest(UnmatchedArgumentException unmatched, String message) {
    List<String> given = unmatched.getUnmatched();
    if (given.isEmpty() || !given.get(0).startsWith("-")) {
      return message;
    }
    String option =
        given.get(0).contains("=")
            ? given.get(0).substring(0, given.get(0).indexOf('='))
            : given.get(0);
    List<String> names = new ArrayList<>();
    for (CommandLine.Model.OptionSpec spec :
        unmatched.getCommandLine().getCommandSpec().options()) {
      names.addAll(List.of(spec.names()));
    }
    String nearest = PluginRegistry.nearest(option, names);
    return nearest == null
        ? message
        : "unknown option '"
            + option
            + "'; did you mean '"
            + nearest
            + "'? ("
            + unmatched.getCommandLine().getCommandName()
            + " --help lists them)";
  }

  /** The exit code and one line for an exception a command threw. */
  static int failure(Cli cli, Exception e) {
    if (e instanceof IllegalArgumentException || e instanceof UncheckedIOException) {
      return error(cli, e.getMessage(), EXIT_BAD_INPUT);
    }
    if (e instanceof InvariantViolation) {
      return error(
          cli,
          e.getMessage() + " (an engine or plugin bug; the run's figures cannot be" + " trusted)",
          EXIT_INVARIANT);
    }
    if (System.getenv("SCHEDLAB_DEBUG") != null) {
      e.printStackTrace(cli.err());
    }
    return error(
        cli,
        "internal error: "
            + e.getClass().getSimpleName()
            + ": "
            + e.getMessage()
            + " (set SCHEDLAB_DEBUG=1 to see where)",
        EXIT_INTERNAL);
  }

  private static int error(Cli cli, String message, int code) {
    String line = message == null ? "failed" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
    cli.err().println("schedlab: " + line);
    cli.err().flush();
    return code;
  }
}
