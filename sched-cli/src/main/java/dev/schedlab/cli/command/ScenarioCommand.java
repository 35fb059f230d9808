package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.args.RunSpec;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.ScenarioOptions;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.report.ComparisonReport;
import dev.schedlab.cli.report.HtmlReport;
import dev.schedlab.cli.report.Json;
import dev.schedlab.cli.report.ReportFiles;
import dev.schedlab.cli.report.ReportTarget;
import dev.schedlab.cli.report.RunOutcome;
import dev.schedlab.cli.report.ScenarioRecord;
import dev.schedlab.cli.report.TraceWriter;
import dev.schedlab.spi.PluginRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code compare} and {@code run}: simulate a scenario once per variant (in parallel, one
 * simulation per thread) and report the variants side by side, optionally also as {@code
 * /proc/schedstat} files, a Perfetto or Chrome trace and an HTML page. Every input is checked, and
 * every output path, before the first simulation starts; report files appear only when all are
 * complete.
 */
abstract class ScenarioCommand implements Callable<Integer> {

  /** Output formats on stdout. */
  enum Format {
    table,
    json,
    csv
  }

  /** Timeline formats of {@code --trace}. */
  enum TraceFormat {
    perfetto,
    json
  }

  private final Cli cli;

  @Spec CommandSpec spec;

  @Mixin ScenarioOptions scenario;

  @Option(
      names = "--variant",
      paramLabel = "NAME=PROFILE_OR_PLUGIN[+PLUGIN[:k=v;...]]",
      description =
          "a variant: a profile (see `schedlab policies`) or policy plugin, plus plugins;"
              + " repeatable")
  List<String> variants = new ArrayList<>();

  @Option(
      names = "--format",
      paramLabel = "table|json|csv",
      description = "stdout format (default table)")
  Format format = Format.table;

  @Option(
      names = "--schedstat",
      paramLabel = "DIR",
      description =
          "write DIR/<variant>.schedstat, /proc/schedstat version 17 at the end of the run")
  String schedstatDir;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description =
          "write a timeline: a Perfetto trace (ui.perfetto.dev), one file per variant"
              + " (FILE.pftrace becomes FILE.<variant>.pftrace when there are several),"
              + " or for a FILE ending in .json Chrome trace-event JSON (chrome://tracing);"
              + " - for stdout, in place of the summary")
  String trace;

  @Option(
      names = "--trace-format",
      paramLabel = "perfetto|json",
      description =
          "the --trace format (default: json for a FILE ending in .json, perfetto otherwise)")
  TraceFormat traceFormat;

  @Option(
      names = "--html",
      paramLabel = "FILE.html",
      description = "write a self-contained HTML report with SVG charts; - for stdout")
  String html;

  ScenarioCommand(Cli cli) {
    this.cli = cli;
  }

  /** The variant specifications to run when the user gave none, or an empty list to require one. */
  abstract List<String> defaultVariants();

  /** The most variants this command accepts. */
  abstract int maxVariants();

  @Override
  public Integer call() {
    PluginRegistry registry = cli.registry();
    // The scenario first: a bad machine or workload is named before a missing --variant.
    Scenario resolved =
        Scenario.resolve(
            registry, scenario, PluginArguments.keyValues("-W", scenario.workloadParameters));
    Path schedstatPath =
        schedstatDir == null ? null : ReportFiles.checkDirectory("--schedstat", schedstatDir);
    if (traceFormat != null && trace == null) {
      throw new BadInputException("--trace-format needs --trace FILE");
    }
    TraceFormat resolvedTraceFormat =
        trace == null ? null : TraceTargets.format(trace, traceFormat);
    ReportTarget traceTarget =
        trace == null || resolvedTraceFormat == TraceFormat.perfetto
            ? null
            : ReportFiles.checkFile("--trace", trace);
    ReportTarget htmlTarget = html == null ? null : ReportFiles.checkFile("--html", html);
    List<Variant> parsed = parseVariants(registry);
    Map<String, ReportTarget> perfettoTargets =
        resolvedTraceFormat == TraceFormat.perfetto
            ? TraceTargets.perfetto(trace, parsed)
            : Map.of();
    Map<String, ReportTarget> schedstatTargets = new LinkedHashMap<>();
    List<ReportTarget> targets = new ArrayList<>();
    if (schedstatPath != null) {
      for (Variant v : parsed) {
        ReportTarget t =
            ReportFiles.checkFile(
                "--schedstat", Path.of(schedstatDir).resolve(v.name() + ".schedstat").toString());
        schedstatTargets.put(v.name(), t);
        targets.add(t);
      }
    }
    if (traceTarget != null) {
      targets.add(traceTarget);
    }
    targets.addAll(perfettoTargets.values());
    if (htmlTarget != null) {
      targets.add(htmlTarget);
    }
    ReportFiles.checkDistinct(targets, inputs());
    for (String warning : resolved.warnings(scenario, registry, parsed)) {
      cli.err().println("schedlab: " + warning);
    }

    List<RunSpec> specs = new ArrayList<>();
    for (Variant v : parsed) {
      specs.add(new RunSpec(v, resolved.seed()));
    }
    Runner.Record record =
        trace == null
            ? html != null ? Runner.Record.TIMELINE : Runner.Record.NONE
            : resolvedTraceFormat == TraceFormat.perfetto
                ? Runner.Record.PERFETTO_TRACE
                : Runner.Record.TRACE;
    boolean progress = scenario.showProgress(cli.interactive());
    List<RunOutcome> outcomes =
        Runner.run(
            cli,
            registry,
            resolved,
            specs,
            Runtime.getRuntime().availableProcessors(),
            record,
            progress);
    ComparisonReport report =
        new ComparisonReport(
            resolved, ScenarioRecord.of(spec.name(), resolved, parsed, registry), outcomes);

    boolean reportOnStdout;
    try (ReportFiles.Batch files = new ReportFiles.Batch(cli.out())) {
      for (RunOutcome o : outcomes) {
        ReportTarget t = schedstatTargets.get(o.spec().variant().name());
        if (t != null) {
          String text = o.result().schedstat().toProcText();
          files.stage(t, out -> out.write(text));
        }
      }
      if (traceTarget != null) {
        files.stage(traceTarget, out -> TraceWriter.write(out, resolved, outcomes));
      }
      for (RunOutcome o : outcomes) {
        ReportTarget t = perfettoTargets.get(o.spec().variant().name());
        if (t != null) {
          TraceTargets.stagePerfetto(files, t, resolved, o);
        }
      }
      if (trace != null) {
        for (RunOutcome o : outcomes) {
          if (o.recording().truncatedAtNs() >= 0 && !scenario.quiet) {
            cli.err()
                .println(
                    "schedlab: note: the trace of "
                        + o.spec().variant().name()
                        + " stops at "
                        + TraceWriter.micros(o.recording().truncatedAtNs())
                        + " us ("
                        + o.recording().maxEvents()
                        + " events); use a shorter --duration");
          }
        }
      }
      if (htmlTarget != null) {
        String page = HtmlReport.render(report);
        files.stage(htmlTarget, out -> out.write(page));
      }
      files.commit();
      reportOnStdout = files.wroteStdout();
    }
    if (!scenario.quiet) {
      wrote(targets);
    }

    if (reportOnStdout) {
      // stdout carries the report the user sent there; the summary would corrupt it.
      return 0;
    }
    switch (format) {
      case json -> cli.out().print(Json.pretty(report.json()));
      case csv -> cli.out().print(report.csv());
      default -> cli.out().print(report.table());
    }
    return 0;
  }

  /** Says on stderr which report files were written (those on stdout speak for themselves). */
  private void wrote(List<ReportTarget> targets) {
    List<String> files = new ArrayList<>();
    for (ReportTarget t : targets) {
      if (t.kind() != ReportTarget.Kind.STDOUT) {
        files.add(t.given());
      }
    }
    if (!files.isEmpty()) {
      cli.err().println("schedlab: wrote " + String.join(", ", files));
    }
  }

  /** The values that may name files this run reads, by the option that gave them. */
  private Map<String, String> inputs() {
    Map<String, String> inputs = new LinkedHashMap<>();
    for (List<String> values : List.of(scenario.machineParameters, scenario.workloadParameters)) {
      String option = values == scenario.machineParameters ? "-M" : "-W";
      for (String kv : values) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          inputs.put(option + " " + kv, kv.substring(eq + 1));
        }
      }
    }
    return inputs;
  }

  private List<Variant> parseVariants(PluginRegistry registry) {
    List<String> texts = variants.isEmpty() ? defaultVariants() : variants;
    if (texts.isEmpty()) {
      throw new BadInputException(
          "give at least one --variant NAME=PROFILE_OR_PLUGIN[+PLUGIN...],"
              + " e.g. --variant base=mainline-7.1 --variant new=mainline-7.3");
    }
    if (texts.size() > maxVariants()) {
      throw new BadInputException(
          "this command takes at most "
              + maxVariants()
              + " --variant;"
              + " got "
              + texts.size()
              + " (use compare for several)");
    }
    return Variant.parseAll(texts, registry);
  }
}
