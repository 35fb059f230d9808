package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.command.ScenarioCommand.TraceFormat;
import dev.schedlab.cli.report.PerfettoTraceWriter;
import dev.schedlab.cli.report.ReportFiles;
import dev.schedlab.cli.report.ReportTarget;
import dev.schedlab.cli.report.RunOutcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where {@code --trace} goes: the format ({@code --trace-format}, else by the file's extension),
 * and for a Perfetto trace one file per variant, since Perfetto's CPU tracks and thread ids belong
 * to one machine and the variants' tasks would collide in one trace. This class is the only one the
 * command line loads protobuf through, and only when a Perfetto trace is written.
 */
final class TraceTargets {

  private TraceTargets() {}

  /** The format of {@code --trace target}: the one asked for, else json for a .json file. */
  static TraceFormat format(String target, TraceFormat asked) {
    if (asked != null) {
      return asked;
    }
    return target.toLowerCase(Locale.ROOT).endsWith(".json")
        ? TraceFormat.json
        : TraceFormat.perfetto;
  }

  /**
   * The Perfetto trace file of each variant, checked: {@code target} itself for one variant;
   * otherwise {@code target} with {@code .<variant>} before its extension ({@code out/run.pftrace}
   * to {@code out/run.a.pftrace}), or after a name without one.
   *
   * @throws BadInputException for stdout or a stream with several variants, or a bad path
   */
  static Map<String, ReportTarget> perfetto(String target, List<Variant> variants) {
    Map<String, ReportTarget> targets = new LinkedHashMap<>();
    if (variants.size() == 1) {
      targets.put(variants.get(0).name(), ReportFiles.checkFile("--trace", target));
      return targets;
    }
    ReportTarget given = ReportFiles.checkFile("--trace", target);
    if (given.kind() != ReportTarget.Kind.FILE) {
      throw new BadInputException(
          "--trace "
              + target
              + ": a Perfetto trace holds one variant and this run has "
              + variants.size()
              + "; give a file name (one file per variant, NAME.<variant>.pftrace)"
              + " or --trace-format json for one file");
    }
    for (Variant v : variants) {
      targets.put(v.name(), ReportFiles.checkFile("--trace", perVariant(target, v.name())));
    }
    return targets;
  }

  /** {@code target} with {@code .variant} inserted before the file name's extension. */
  static String perVariant(String target, String variant) {
    int slash = target.lastIndexOf('/');
    int dot = target.lastIndexOf('.');
    if (dot <= slash + 1) {
      return target + "." + variant;
    }
    return target.substring(0, dot) + "." + variant + target.substring(dot);
  }

  /** Stages the Perfetto trace of {@code outcome} for {@code target}. */
  static void stagePerfetto(
      ReportFiles.Batch files, ReportTarget target, Scenario scenario, RunOutcome outcome) {
    files.stageBinary(target, out -> PerfettoTraceWriter.write(out, scenario, outcome));
  }
}
