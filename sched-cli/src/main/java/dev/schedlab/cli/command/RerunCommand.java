package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.report.JsonTree;
import dev.schedlab.cli.report.ReportFiles;
import dev.schedlab.cli.report.ReportTarget;
import dev.schedlab.cli.report.ScenarioRecord;
import dev.schedlab.spi.FileProblems;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code schedlab rerun REPORT.json}: runs the scenario a JSON report of {@code compare} or {@code
 * run} describes again, with the same build's code, and checks the new report against it. Every
 * part of a report before its {@code engine} section is a function of the scenario and the build,
 * so a rerun by the same build reproduces that part byte for byte; the engine section holds
 * wall-clock figures and is never compared. An input file the scenario names (an rt-app file, an
 * imported topology) is checked against the report's checksum first, so a changed input is named as
 * such rather than as a changed result.
 */
@Command(
    name = "rerun",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
      "Run a JSON report's scenario again and check that the new report is the same, byte for",
      "byte, apart from its engine section (wall-clock figures). Exit 1 when it differs."
    })
public final class RerunCommand implements Callable<Integer> {

  /** Reports are a few hundred kilobytes; a bigger file is not one. */
  private static final long MAX_REPORT_BYTES = 64L << 20;

  /** Where a report's wall-clock section starts; {@code Json.pretty} writes it so. */
  private static final String ENGINE_SECTION = "\n  \"engine\": {";

  private final Cli cli;

  @Parameters(paramLabel = "REPORT.json", description = "a report of compare or run --format json")
  String report;

  @Option(
      names = "--out",
      paramLabel = "FILE.json",
      description = "also write the new report to FILE; - for stdout, in place of the verdict")
  String out;

  @Option(
      names = {"-q", "--quiet"},
      description = "no progress on stderr")
  boolean quiet;

  public RerunCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    String original = read(report);
    Object tree;
    try {
      tree = JsonTree.parse(original);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(report + ": not JSON: " + e.getMessage(), e);
    }
    Map<?, ?> scenario =
        tree instanceof Map<?, ?> root && root.get("scenario") instanceof Map<?, ?> s ? s : null;
    if (scenario == null
        || !(scenario.get("arguments") instanceof List<?> arguments)
        || !(scenario.get("command") instanceof String command)
        || !(command.equals("compare") || command.equals("run"))) {
      throw new BadInputException(
          report
              + ": no scenario block with a command (compare or run)"
              + " and its arguments; rerun takes a report of compare or run --format json");
    }
    checkInputs(scenario.get("inputs"));
    ReportTarget target = out == null ? null : ReportFiles.checkFile("--out", out);

    List<String> args = new ArrayList<>();
    for (Object a : arguments) {
      args.add(String.valueOf(a));
    }
    args.addAll(List.of("--format", "json"));
    if (quiet) {
      args.add("-q");
    }
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    Cli inner =
        new Cli(
            new PrintStream(buffer, true, StandardCharsets.UTF_8), cli.err(), cli.interactive());
    ScenarioCommand rerun =
        command.equals("run") ? new RunCommand(inner) : new CompareCommand(inner);
    try {
      new CommandLine(rerun)
          .setOverwrittenOptionsAllowed(true)
          .parseArgs(args.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      throw new BadInputException(report + ": scenario.arguments: " + e.getMessage(), e);
    }
    rerun.call();
    String fresh = buffer.toString(StandardCharsets.UTF_8);

    if (target != null) {
      try (ReportFiles.Batch files = new ReportFiles.Batch(cli.out())) {
        files.stage(target, w -> w.write(fresh));
        files.commit();
      }
    }
    PrintStream verdict =
        target != null && target.kind() == ReportTarget.Kind.STDOUT ? cli.err() : cli.out();
    if (results(original).equals(results(fresh))) {
      verdict.println(
          "reproduced "
              + report
              + ": identical, byte for byte, apart from the engine"
              + " section (wall-clock figures)");
      return 0;
    }
    String difference =
        JsonTree.firstDifference(withoutEngine(tree), withoutEngine(JsonTree.parse(fresh)));
    verdict.println(
        "not reproduced "
            + report
            + ": "
            + (difference == null
                ? "same values, written differently"
                : difference + " (report against rerun)"));
    return 1;
  }

  /** The part of a report before its engine section. */
  private static String results(String text) {
    int engine = text.indexOf(ENGINE_SECTION);
    return engine < 0 ? text : text.substring(0, engine);
  }

  private static Object withoutEngine(Object tree) {
    if (tree instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new java.util.LinkedHashMap<>(map);
      copy.remove("engine");
      return copy;
    }
    return tree;
  }

  /** Every input file the report names must still have the content it had. */
  private void checkInputs(Object inputs) {
    if (!(inputs instanceof List<?> list)) {
      return;
    }
    for (Object item : list) {
      if (item instanceof Map<?, ?> input && input.get("path") instanceof String path) {
        Path file = Path.of(path);
        if (!Files.isRegularFile(file)) {
          throw new BadInputException(
              report
                  + ": the scenario reads "
                  + input.get("option")
                  + "="
                  + path
                  + ", which is not a file here; rerun needs the same input");
        }
        if (!ScenarioRecord.sha256(file).equals(input.get("sha256"))) {
          throw new BadInputException(
              report
                  + ": "
                  + input.get("option")
                  + "="
                  + path
                  + " has changed since the report was written (its SHA-256 differs);"
                  + " rerun needs the same input");
        }
      }
    }
  }

  private static String read(String report) {
    Path path = Path.of(report);
    try {
      if (Files.isRegularFile(path) && Files.size(path) > MAX_REPORT_BYTES) {
        throw new BadInputException(
            report + ": larger than " + (MAX_REPORT_BYTES >> 20) + " MiB; not a schedlab report");
      }
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BadInputException(report + ": " + FileProblems.describe(e), e);
    }
  }
}
