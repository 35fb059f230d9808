package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.EngineSettings;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.args.RunSpec;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.ScenarioOptions;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.report.Csv;
import dev.schedlab.cli.report.Metrics;
import dev.schedlab.cli.report.RunOutcome;
import dev.schedlab.cli.report.TextTable;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.ParameterType;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WorkloadProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code schedlab sweep}: a grid of runs (variants × workload parameter values × seeds) in
 * parallel on all cores, summarised as CSV (or, with {@code --format table}, a table for people)
 * with the mean and spread of each metric per variant and grid point, the change of the mean from
 * the first variant, and the same comparison paired seed by seed.
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
 */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Run variants over seeds and -M/-W/-E value grids (e.g. -W key=a,b) in"
        + " parallel; CSV with mean and spread per variant.")
public final class SweepCommand implements Callable<Integer> {

  /** Grid keys (and CSV columns) of {@code -M} parameters start with this. */
  static final String MACHINE_PREFIX = "M.";

  /** Grid keys (and CSV columns) of {@code -E} settings start with this. */
  static final String ENGINE_PREFIX = "E.";

  /** The most runs one sweep may ask for. */
  static final int MAX_RUNS = 100_000;

  private final Cli cli;

  @Mixin ScenarioOptions scenario;

  @Option(names = "--variant", required = true,
      paramLabel = "NAME=PROFILE_OR_PLUGIN[+PLUGIN[:k=v;...]]",
      description = "a variant; repeatable")
  List<String> variants = new ArrayList<>();

  @Option(names = "--seeds", paramLabel = "A..B|A,B,...", defaultValue = "1..8",
      description = "seeds to run each point with (default ${DEFAULT-VALUE})")
  String seeds;

  @Option(names = "--metric", split = ",", paramLabel = "KEY",
      description = "also summarise these figures, by their key in `run --format csv`, e.g."
          + " workload_wakeup_p999_us or ilb_duration_mean_us; repeatable")
  List<String> extraMetrics = new ArrayList<>();

  @Option(names = "--threads", paramLabel = "N",
      description = "simulations at once (default: every core)")
  Integer threads;

  /** Output formats on stdout. */
  enum Format { csv, table }

  @Option(names = "--format", paramLabel = "csv|table",
      description = "stdout format: csv (default), or table for people: a block per grid point,"
          + " mean ± standard deviation per variant and the change of the mean")
  Format format = Format.csv;

public   SweepCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    PluginRegistry registry = cli.registry();
    List<Long> seedList = parseSeeds(seeds);
    int parallel = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    if (parallel < 1) {
      throw new BadInputException("--threads " + parallel + ": must be at least 1");
    }
    List<Variant> parsed = Variant.parseAll(variants, registry);
    List<String> metrics = metrics(extraMetrics);
    WorkloadProvider workload =
        PluginArguments.require(registry, scenario.workload, WorkloadProvider.class);
    HardwareModelProvider machine =
        PluginArguments.require(registry, scenario.machine, HardwareModelProvider.class);
    Map<String, List<String>> grid = grid(machine.descriptor(), MACHINE_PREFIX,
        PluginArguments.keyValues("-M", scenario.machineParameters));
    grid.putAll(grid(workload.descriptor(), "",
        PluginArguments.keyValues("-W", scenario.workloadParameters)));
    grid.putAll(grid(null, ENGINE_PREFIX,
        PluginArguments.keyValues("-E", scenario.engineSettings)));
    List<Map<String, String>> points = points(grid);
    long runs = (long) points.size() * parsed.size() * seedList.size();
    if (runs > MAX_RUNS) {
      throw new BadInputException("the sweep asks for " + runs + " runs; at most " + MAX_RUNS
          + " allowed (fewer seeds or grid values)");
    }
    // Every point is resolved (machine built, every value checked) before anything runs.
    List<Scenario> scenarios = new ArrayList<>();
    for (Map<String, String> point : points) {
      scenarios.add(Scenario.resolve(registry, scenario, part(point, MACHINE_PREFIX),
          part(point, ""), EngineSettings.parse(items(part(point, ENGINE_PREFIX)))));
    }
    Scenario resolved = scenarios.get(0);
    List<RunSpec> specs = new ArrayList<>();
    for (int p = 0; p < points.size(); p++) {
      for (Variant v : parsed) {
        for (long seed : seedList) {
          specs.add(new RunSpec(v, seed, points.get(p), scenarios.get(p)));
        }
      }
    }
    boolean progress = cli.interactive() && !scenario.quiet;
    List<RunOutcome> outcomes = Runner.run(cli, registry, resolved, specs, parallel,
        Runner.Record.NONE, progress);
    List<Map<String, Object>> figures = new ArrayList<>();
    for (RunOutcome o : outcomes) {
      figures.add(Metrics.of(o.result()));
    }
    requireReported(metrics, figures);
    List<PointSummary> summaries =
        summarise(points, parsed, seedList.size(), figures, metrics);
    cli.out().print(format == Format.table
        ? table(resolved, grid, summaries, seedList.size(), metrics)
        : csv(resolved, grid, summaries, seedList.size(), metrics));
    return 0;
  }

  /**
   * {@link Metrics#SWEEP_DEFAULTS} followed by the {@code --metric} keys not among them.
   *
   * @throws BadInputException for a key that no run can report: not a run metric and not a
   *     workload figure, plugin counter or engine counter
   */
  static List<String> metrics(List<String> extra) {
    List<String> metrics = new ArrayList<>(Metrics.SWEEP_DEFAULTS);
    for (String key : extra) {
      String k = key.trim();
      boolean deferred = Metrics.isPrefixed(k);
      if (!deferred && !Metrics.NUMBERS.contains(k)) {
        throw new BadInputException("--metric " + k + ": unknown; allowed: "
            + String.join(", ", Metrics.NUMBERS) + ", or workload_<figure>, plugin_<counter> and"
            + " engine_<counter>"
            + " as `run --format csv` prints them");
      }
      if (!metrics.contains(k)) {
        metrics.add(k);
      }
    }
    return metrics;
  }

  /**
   * Checks, before anything is printed, that every workload figure and plugin counter asked for
   * was reported by at least one run.
   */
  static void requireReported(List<String> metrics, List<Map<String, Object>> figures) {
    Set<String> reported = new LinkedHashSet<>();
    for (Map<String, Object> run : figures) {
      for (String k : run.keySet()) {
        if (Metrics.isPrefixed(k)) {
          reported.add(k);
        }
      }
    }
    for (String key : metrics) {
      if (!Metrics.NUMBERS.contains(key) && !reported.contains(key)) {
        throw new BadInputException("--metric " + key + ": no run reported it; reported: "
            + (reported.isEmpty() ? "none" : String.join(", ", reported)));
      }
    }
  }

  /**
   * One variant's summaries at one grid point.
   *
   * @param variant the variant
   * @param metrics each metric's summary over the seeds, in the order asked for
   * @param firstRun the figures of the variant's first run (the workload metric's name and unit)
   * @param paired each metric compared seed by seed with the first variant; empty for the first
   */
  record VariantSummary(
      Variant variant, Map<String, Summary> metrics, Map<String, Object> firstRun,
      Map<String, Paired> paired) {}

  /**
   * One metric of a variant compared with the first variant on the same seeds.
   *
   * @param meanChangePct the mean over seeds of the relative change, in percent (NaN when the
   *     first variant's value is 0 on every seed)
   * @param higher seeds on which this variant's value is higher
   * @param lower seeds on which it is lower
   */
  record Paired(double meanChangePct, int higher, int lower) {

    /**
     * The two-sided sign test: the probability, were either variant as likely to be ahead on a
     * seed, of a split of the untied seeds at least as uneven as {@link #higher} against {@link
     * #lower}; 1 when every seed is tied.
     */
    double signTestP() {
      int n = higher + lower;
      if (n == 0) {
        return 1;
      }
      int k = Math.max(higher, lower);
      // P(X >= k) for X ~ Binomial(n, 1/2), summed in log space to stay finite for large n.
      double tail = 0;
      double logHalfN = n * Math.log(0.5);
      double logChoose = 0;
      for (int j = 0; j <= n; j++) {
        if (j > 0) {
          logChoose += Math.log((double) (n - j + 1) / j);
        }
        if (j >= k) {
          tail += Math.exp(logChoose + logHalfN);
        }
      }
      return Math.min(1, 2 * tail);
    }

    static Paired of(List<Map<String, Object>> base, List<Map<String, Object>> runs,
        String metric) {
      double sum = 0;
      int counted = 0;
      int higher = 0;
      int lower = 0;
      for (int i = 0; i < runs.size(); i++) {
        double b = Metrics.number(base.get(i), metric);
        double v = Metrics.number(runs.get(i), metric);
        if (v > b) {
          higher++;
        } else if (v < b) {
          lower++;
        }
        if (b != 0) {
          sum += TextTable.changePct(b, v);
          counted++;
        }
      }
      return new Paired(counted == 0 ? Double.NaN : sum / counted, higher, lower);
    }
  }

  /**
   * The summaries of one grid point.
   *
   * @param point the grid point's values
   * @param variants one summary per variant, in command-line order
   */
  record PointSummary(Map<String, String> point, List<VariantSummary> variants) {}

  /**
   * Summarises {@code figures}, which hold the runs in the order the sweep made them: grid points,
   * then variants, then seeds.
   */
  static List<PointSummary> summarise(
      List<Map<String, String>> points, List<Variant> variants, int seedCount,
      List<Map<String, Object>> figures, List<String> metrics) {
    List<PointSummary> summaries = new ArrayList<>();
    int index = 0;
    for (Map<String, String> point : points) {
      List<VariantSummary> perVariant = new ArrayList<>();
      List<Map<String, Object>> base = null;
      for (Variant v : variants) {
        List<Map<String, Object>> runs = figures.subList(index, index + seedCount);
        index += seedCount;
        Map<String, Summary> byMetric = new LinkedHashMap<>();
        Map<String, Paired> paired = new LinkedHashMap<>();
        for (String metric : metrics) {
          byMetric.put(metric, Summary.of(runs, metric));
          if (base != null) {
            paired.put(metric, Paired.of(base, runs, metric));
          }
        }
        perVariant.add(new VariantSummary(v, byMetric, runs.get(0), paired));
        if (base == null) {
          base = runs;
        }
      }
      summaries.add(new PointSummary(point, perVariant));
    }
    return summaries;
  }

  /** Summary rows: one per grid point, variant and metric. */
  static String csv(
      Scenario scenario, Map<String, List<String>> grid, List<PointSummary> summaries,
      int seedCount, List<String> metrics) {
    List<String> varying = varying(grid);
    StringBuilder out = new StringBuilder();
    List<String> header = new ArrayList<>(List.of("machine", "workload", "variant"));
    header.addAll(varying);
    header.addAll(List.of("metric", "unit", "runs", "mean", "stddev", "min", "max",
        "change_pct", "paired_change_pct", "seeds_higher", "seeds_lower", "sign_test_p"));
    out.append(Csv.line(header));
    for (PointSummary point : summaries) {
      Map<String, Summary> first = point.variants().get(0).metrics();
      for (VariantSummary v : point.variants()) {
        boolean base = v == point.variants().get(0);
        for (String metric : metrics) {
          Summary s = v.metrics().get(metric);
          List<String> cells = new ArrayList<>(List.of(scenario.machineId(),
              scenario.workload().id(), v.variant().name()));
          for (String key : varying) {
            cells.add(point.point().get(key));
          }
          boolean main = metric.equals("throughput");
          String unit = main ? String.valueOf(v.firstRun().get("throughput_unit")) : "";
          double change = base ? Double.NaN
              : TextTable.changePct(first.get(metric).mean(), s.mean());
          // The workload's own metric goes by its own name (FLOP/s throughput, p99 latency...).
          String name = main ? String.valueOf(v.firstRun().get("throughput_metric")) : metric;
          cells.addAll(List.of(name, unit, Integer.toString(seedCount), Csv.value(s.mean()),
              Csv.value(s.stddev()), Csv.value(s.min()), Csv.value(s.max()),
              base ? "" : Csv.value(change)));
          Paired paired = v.paired().get(metric);
          cells.addAll(paired == null ? List.of("", "", "", "")
              : List.of(Csv.value(paired.meanChangePct()), Integer.toString(paired.higher()),
                  Integer.toString(paired.lower()), Csv.value(paired.signTestP())));
          out.append(Csv.line(cells));
        }
      }
    }
    return out.toString();
  }

  /**
   * The same summaries for people: a heading naming the machine, workload and seeds, then per
   * grid point a line with its varying values and a table with a row per metric (labelled as in
   * {@code compare}) and, per variant, {@code mean ± stddev} and the change of the mean from the
   * first variant; with several seeds, a line per variant compares the workload's metric with
   * the first variant's seed by seed (runs with the same seed are paired).
   */
  static String table(
      Scenario scenario, Map<String, List<String>> grid, List<PointSummary> summaries,
      int seedCount, List<String> metrics) {
    List<String> varying = varying(grid);
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%s; %d seed%s per point, mean ± standard deviation%n",
        scenario.describe(), seedCount, seedCount == 1 ? "" : "s"));
    for (VariantSummary v : summaries.get(0).variants()) {
      out.append("  ").append(v.variant().definition()).append('\n');
    }
    for (PointSummary point : summaries) {
      out.append('\n');
      if (!varying.isEmpty()) {
        List<String> values = new ArrayList<>();
        for (String key : varying) {
          values.add(key + "=" + point.point().get(key));
        }
        out.append(String.join(", ", values)).append('\n');
      }
      List<VariantSummary> variants = point.variants();
      TextTable table = new TextTable(1);
      List<String> header = new ArrayList<>(List.of("metric"));
      for (int i = 0; i < variants.size(); i++) {
        header.add(variants.get(i).variant().name());
        if (i > 0) {
          header.add(variants.size() > 2
              ? "change vs " + variants.get(0).variant().name() : "change");
        }
      }
      table.row(header.toArray(String[]::new));
      for (String metric : metrics) {
        List<String> cells = new ArrayList<>(List.of(metric.equals("throughput")
            ? Metrics.workloadLabel(variants.get(0).firstRun()) : Metrics.label(metric)));
        double base = variants.get(0).metrics().get(metric).mean();
        for (int i = 0; i < variants.size(); i++) {
          Summary s = variants.get(i).metrics().get(metric);
          cells.add(TextTable.number(s.mean()) + " ± " + TextTable.number(s.stddev()));
          if (i > 0) {
            cells.add(TextTable.change(base, s.mean()));
          }
        }
        table.row(cells.toArray(String[]::new));
      }
      out.append(table.render());
      if (seedCount > 1) {
        // The workload's own metric, seed by seed against the first variant.
        for (VariantSummary v : variants.subList(1, variants.size())) {
          Paired p = v.paired().get("throughput");
          out.append(String.format(Locale.ROOT,
              "paired by seed, %s: %s higher on %d of %d seeds, lower on %d (mean of the"
                  + " per-seed changes %s; sign test p = %s)%n",
              variants.get(0).firstRun().get("throughput_metric"), v.variant().name(),
              p.higher(), seedCount, p.lower(),
              Double.isNaN(p.meanChangePct()) ? "n/a"
                  : String.format(Locale.ROOT, "%+.1f %%", p.meanChangePct()),
              TextTable.number(p.signTestP())));
        }
      }
    }
    return out.toString();
  }

  /** The grid keys with more than one value, in grid order. */
  private static List<String> varying(Map<String, List<String>> grid) {
    List<String> varying = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : grid.entrySet()) {
      if (e.getValue().size() > 1) {
        varying.add(e.getKey());
      }
    }
    return varying;
  }

  /**
   * Mean, sample standard deviation, minimum and maximum of one metric over runs.
   *
   * @param mean arithmetic mean
   * @param stddev sample standard deviation (0 for one run)
   * @param min smallest value
   * @param max largest value
   */
  record Summary(double mean, double stddev, double min, double max) {
    static Summary of(List<Map<String, Object>> runs, String metric) {
      double sum = 0;
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (Map<String, Object> run : runs) {
        double v = Metrics.number(run, metric);
        sum += v;
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      double mean = sum / runs.size();
      double squares = 0;
      for (Map<String, Object> run : runs) {
        double d = Metrics.number(run, metric) - mean;
        squares += d * d;
      }
      double stddev = runs.size() < 2 ? 0 : Math.sqrt(squares / (runs.size() - 1));
      return new Summary(mean, stddev, min, max);
    }
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
            throw new BadInputException("--seeds " + text + ": range " + p + " must go upwards"
                + " and hold at most " + MAX_RUNS + " seeds");
          }
          for (long s = from; s <= to; s++) {
            list.add(s);
          }
        } else {
          list.add(Long.parseLong(p));
        }
      }
    } catch (NumberFormatException e) {
      throw new BadInputException("--seeds " + text + ": expected A..B or a comma-separated list"
          + " of integers, e.g. 1..8 or 1,2,5", e);
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
      boolean cpulist = descriptor != null && descriptor.parameter(e.getKey())
          .map(ParameterSpec::type).orElse(ParameterType.STRING) == ParameterType.CPULIST;
      List<String> alternatives = new ArrayList<>();
      for (String v : e.getValue().split(cpulist ? ";" : ",", -1)) {
        alternatives.add(v.trim());
      }
      grid.put(prefix + e.getKey(), alternatives);
    }
    return grid;
  }

  /**
   * The values of a grid point that belong to {@code prefix} ({@value #MACHINE_PREFIX}, {@value
   * #ENGINE_PREFIX}, or {@code ""} for the workload's), without the prefix.
   */
  static Map<String, String> part(Map<String, String> point, String prefix) {
    Map<String, String> part = new LinkedHashMap<>();
    point.forEach((key, value) -> {
      boolean workloadKey = !key.startsWith(MACHINE_PREFIX) && !key.startsWith(ENGINE_PREFIX);
      if (prefix.isEmpty() ? workloadKey : key.startsWith(prefix)) {
        part.put(key.substring(prefix.length()), value);
      }
    });
    return part;
  }

  private static List<String> items(Map<String, String> values) {
    List<String> items = new ArrayList<>();
    values.forEach((key, value) -> items.add(key + "=" + value));
    return items;
  }

  /** Every combination of the grid's values, first key varying slowest. */
  static List<Map<String, String>> points(Map<String, List<String>> grid) {
    List<Map<String, String>> points = new ArrayList<>();
    points.add(new LinkedHashMap<>());
    for (Map.Entry<String, List<String>> e : grid.entrySet()) {
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> point : points) {
        for (String value : e.getValue()) {
          Map<String, String> extended = new LinkedHashMap<>(point);
          extended.put(e.getKey(), value);
          next.add(extended);
        }
      }
      points = next;
    }
    return points;
  }
}
