package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.ScenarioOptions;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.report.Metrics;
import dev.schedlab.cli.report.ScenarioRecord;
import dev.schedlab.cli.sweep.RowStore;
import dev.schedlab.cli.sweep.SweepContext;
import dev.schedlab.cli.sweep.SweepEngine;
import dev.schedlab.cli.sweep.SweepPlan;
import dev.schedlab.cli.sweep.SweepRow;
import dev.schedlab.cli.sweep.SweepSummary;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.ParameterType;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WorkloadProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code schedlab sweep}: a grid of runs (variants × workload parameter values × seeds) in parallel
 * on all cores, summarised as CSV (or, with {@code --format table}, a table for people) with the
 * mean and spread of each metric per variant and grid point, the change of the mean from the first
 * variant, and the same comparison paired seed by seed.
 *
 * <p>{@code -W key=v1,v2,...} sweeps a workload parameter over its values; for cpulist parameters,
 * whose values contain commas, the alternatives are separated by {@code ;} instead. {@code -M
 * key=...} and {@code -E key=...} sweep a machine parameter or an engine setting the same way
 * (sensitivity studies: {@code -M smt_corun_compute=0.6,0.8}, {@code -E
 * ilb_visit_cost=100ns,1us,3us}); their CSV columns are {@code M.key} and {@code E.key}. Each
 * point's scenario is resolved, and so checked, before anything runs. {@code --metric key,...}
 * summarises more figures than {@link Metrics#SWEEP_DEFAULTS}, by their key in {@code run --format
 * csv}: a workload's own figures ({@code workload_wakeup_p999_us}), plugin and engine counters
 * ({@code plugin_...}, {@code engine_...}) or any other run metric ({@code ilb_duration_mean_us}).
 *
 * <p>The cells (grid point × variant × seed) are plain data ({@link SweepPlan}): {@code --engine
 * local} runs them on this machine's cores, {@code --engine spark} (module sweep-spark, found
 * through ServiceLoader) as Apache Spark tasks; the summary is the same. {@code --rows FILE} writes
 * each cell's row as it finishes and {@code --resume FILE} continues a sweep from them.
 */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description =
        "Run variants over seeds and -M/-W/-E value grids (e.g. -W key=a,b) in"
            + " parallel; CSV with mean and spread per variant.")
public final class SweepCommand implements Callable<Integer> {

  /** The most runs one sweep may ask for on the local engine. */
  static final int MAX_RUNS = (int) SweepEngine.MAX_CELLS;

  private final Cli cli;

  @Mixin ScenarioOptions scenario;

  @Option(
      names = "--variant",
      required = true,
      paramLabel = "NAME=PROFILE_OR_PLUGIN[+PLUGIN[:k=v;...]]",
      description = "a variant; repeatable")
  List<String> variants = new ArrayList<>();

  @Option(
      names = "--seeds",
      paramLabel = "A..B|A,B,...",
      defaultValue = "1..8",
      description = "seeds to run each point with (default ${DEFAULT-VALUE})")
  String seeds;

  @Option(
      names = "--metric",
      split = ",",
      paramLabel = "KEY",
      description =
          "also summarise these figures, by their key in `run --format csv`, e.g."
              + " workload_wakeup_p999_us or ilb_duration_mean_us; repeatable")
  List<String> extraMetrics = new ArrayList<>();

  @Option(
      names = "--threads",
      paramLabel = "N",
      description =
          "simulations at once (default: every core; with --engine spark, the"
              + " embedded master's threads)")
  Integer threads;

  /** The engine that runs the cells unless another is asked for. */
  static final String LOCAL = "local";

  @Option(
      names = "--engine",
      paramLabel = "local|spark",
      defaultValue = LOCAL,
      description =
          "what runs the cells: local threads (default), or spark (Apache Spark: an"
              + " embedded local[*] master through ./schedlab, or the cluster of spark-submit)")
  String engine;

  @Option(
      names = "--rows",
      paramLabel = "FILE",
      description =
          "also write each cell's row to FILE as it finishes (CSV; Parquet with"
              + " --engine spark when FILE ends in .parquet)")
  Path rows;

  @Option(
      names = "--resume",
      paramLabel = "FILE",
      description =
          "continue the sweep whose rows FILE holds: run only the cells missing there"
              + " and append their rows")
  Path resume;

  /** Output formats on stdout. */
  enum Format {
    csv,
    table
  }

  @Option(
      names = "--format",
      paramLabel = "csv|table",
      description =
          "stdout format: csv (default), or table for people: a block per grid point,"
              + " mean ± standard deviation per variant and the change of the mean")
  Format format = Format.csv;

  public SweepCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    PluginRegistry registry = cli.registry();
    List<Long> seedList = parseSeeds(seeds);
    if (threads != null && threads < 1) {
      throw new BadInputException("--threads " + threads + ": must be at least 1");
    }
    if (rows != null && resume != null) {
      throw new BadInputException(
          "--rows and --resume: give one; --resume FILE also writes the" + " new rows to FILE");
    }
    List<Variant> parsed = Variant.parseAll(variants, registry);
    List<String> metrics = metrics(extraMetrics);
    WorkloadProvider workload =
        PluginArguments.require(registry, scenario.workload, WorkloadProvider.class);
    HardwareModelProvider machine =
        PluginArguments.require(registry, scenario.machine, HardwareModelProvider.class);
    Map<String, List<String>> grid =
        grid(
            machine.descriptor(),
            SweepPlan.MACHINE_PREFIX,
            PluginArguments.keyValues("-M", scenario.machineParameters));
    grid.putAll(
        grid(
            workload.descriptor(),
            "",
            PluginArguments.keyValues("-W", scenario.workloadParameters)));
    grid.putAll(
        grid(
            null,
            SweepPlan.ENGINE_PREFIX,
            PluginArguments.keyValues("-E", scenario.engineSettings)));
    SweepPlan plan = new SweepPlan(scenario, grid, variants, seedList, metrics);
    boolean local = engine.equals(LOCAL);
    long maxCells = local ? MAX_RUNS : SweepEngines.find(engine).maxCells();
    if (plan.cellCount() > maxCells || plan.cellCount() < 0) {
      throw new BadInputException(
          "the sweep asks for "
              + plan.cellCount()
              + " runs; at most "
              + maxCells
              + " allowed (fewer seeds or grid values)");
    }
    // Every point is resolved (machine built, every value checked) before anything runs; the
    // local engine keeps them for its runs.
    List<Scenario> scenarios = new ArrayList<>();
    Scenario resolved = null;
    for (long p = 0; p < plan.pointCount(); p++) {
      Scenario own = plan.cell(p * parsed.size() * seedList.size()).scenario(registry);
      if (resolved == null) {
        resolved = own;
      }
      if (local) {
        scenarios.add(own);
      }
    }
    for (String warning : resolved.warnings(scenario, registry, parsed)) {
      cli.err().println("schedlab: " + warning);
    }
    SweepEngine runner =
        local ? new LocalSweepEngine(cli, registry, scenarios, parsed) : SweepEngines.find(engine);
    SweepRow[] all = new SweepRow[Math.toIntExact(plan.cellCount())];
    BitSet done = new BitSet();
    Path file = rows != null ? rows : resume;
    String comments =
        SweepSummary.csvComments(
            ScenarioRecord.sweep(
                resolved, parsed, registry, plan.grid(), seedList, plan.metrics()));
    SweepContext context =
        new SweepContext(
            cli.err(), scenario.showProgress(cli.interactive()), scenario.quiet, threads, comments);
    // The rows file closes before the engine, which may be what writes it.
    try (runner;
        RowStore store = file == null ? null : runner.rows(file, plan, resume != null, context)) {
      if (store != null) {
        for (SweepRow row : store.stored()) {
          all[(int) row.cell()] = row;
          done.set((int) row.cell());
        }
      }
      runner.run(
          plan,
          done,
          row -> {
            all[(int) row.cell()] = row;
            if (store != null) {
              store.write(row);
            }
          },
          context);
    }
    List<SweepRow> finished = Arrays.asList(all);
    SweepSummary.requireReported(metrics, finished);
    List<SweepSummary.PointSummary> summaries = SweepSummary.summarise(plan, parsed, all);
    cli.out()
        .print(
            format == Format.table
                ? SweepSummary.table(resolved, plan, summaries)
                : comments + SweepSummary.csv(resolved, plan, summaries));
    return 0;
  }

  /**
   * {@link Metrics#SWEEP_DEFAULTS} followed by the {@code --metric} keys not among them.
   *
   * @throws BadInputException for a key that no run can report: not a run metric and not a workload
   *     figure, plugin counter or engine counter
   */
  static List<String> metrics(List<String> extra) {
    List<String> metrics = new ArrayList<>(Metrics.SWEEP_DEFAULTS);
    for (String key : extra) {
      String k = key.trim();
      boolean deferred = Metrics.isPrefixed(k);
      if (!deferred && !Metrics.NUMBERS.contains(k)) {
        throw new BadInputException(
            "--metric "
                + k
                + ": unknown; allowed: "
                + String.join(", ", Metrics.NUMBERS)
                + ", or workload_<figure>, plugin_<counter> and"
                + " engine_<counter>"
                + " as `run --format csv` prints them");
      }
      if (!metrics.contains(k)) {
        metrics.add(k);
      }
    }
    return metrics;
  }

  /** Parses {@code 1..8}, {@code 3} or {@code 1,5,9}. */
  static List<Long> parseSeeds(String text) {
    List<Long> list = new ArrayList<>();
    try {
      for (String part : text.split(",")) {
        String p = part.trim();
        int dots = p.indexOf("..");
        if (dots >= 0) {
          long from = Long.parseLong(p.substring(0, dots).trim());
          long to = Long.parseLong(p.substring(dots + 2).trim());
          if (to < from || to - from >= MAX_RUNS) {
            throw new BadInputException(
                "--seeds "
                    + text
                    + ": range "
                    + p
                    + " must go upwards"
                    + " and hold at most "
                    + MAX_RUNS
                    + " seeds");
          }
          for (long s = from; s <= to; s++) {
            list.add(s);
          }
        } else {
          list.add(Long.parseLong(p));
        }
      }
    } catch (NumberFormatException e) {
      throw new BadInputException(
          "--seeds "
              + text
              + ": expected A..B or a comma-separated list"
              + " of integers, e.g. 1..8 or 1,2,5",
          e);
    }
    return list;
  }

  /**
   * The values of each parameter of {@code values}, under {@code prefix + name}: split on commas,
   * or on semicolons for a cpulist parameter of {@code descriptor} (whose values contain commas;
   * null for the engine settings, none of which is a cpulist). Unknown names are left to the
   * plugin's own check.
   */
  static Map<String, List<String>> grid(
      PluginDescriptor descriptor, String prefix, Map<String, String> values) {
    Map<String, List<String>> grid = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : values.entrySet()) {
      boolean cpulist =
          descriptor != null
              && descriptor
                      .parameter(e.getKey())
                      .map(ParameterSpec::type)
                      .orElse(ParameterType.STRING)
                  == ParameterType.CPULIST;
      List<String> alternatives = new ArrayList<>();
      for (String v : e.getValue().split(cpulist ? ";" : ",", -1)) {
        alternatives.add(v.trim());
      }
      grid.put(prefix + e.getKey(), alternatives);
    }
    return grid;
  }
}
