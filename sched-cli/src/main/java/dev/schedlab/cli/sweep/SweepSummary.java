package dev.schedlab.cli.sweep;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.report.Csv;
import dev.schedlab.cli.report.Json;
import dev.schedlab.cli.report.Metrics;
import dev.schedlab.cli.report.ScenarioRecord;
import dev.schedlab.cli.report.TextTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A sweep's rows summarised as {@code sweep} prints them, whichever engine ran the cells: per grid
 * point and variant the mean and spread of each metric over the seeds, the change of the mean from
 * the first variant, and the same comparison paired seed by seed; as CSV, or as a table for people.
 */
public final class SweepSummary {

  private SweepSummary() {}

  /**
   * Checks, before anything is printed, that every workload figure and plugin counter asked for was
   * reported by at least one run.
   */
  public static void requireReported(List<String> metrics, List<SweepRow> rows) {
    Set<String> reported = new LinkedHashSet<>();
    for (SweepRow row : rows) {
      reported.addAll(row.reported());
    }
    for (String key : metrics) {
      if (!Metrics.NUMBERS.contains(key) && !reported.contains(key)) {
        throw new BadInputException(
            "--metric "
                + key
                + ": no run reported it; reported: "
                + (reported.isEmpty() ? "none" : String.join(", ", reported)));
      }
    }
  }

  /**
   * One variant's summaries at one grid point.
   *
   * @param variant the variant
   * @param metrics each metric's summary over the seeds, in the order asked for
   * @param firstRun the variant's first run (the workload metric's name and unit)
   * @param paired each metric compared seed by seed with the first variant; empty for the first
   */
  public record VariantSummary(
      Variant variant,
      Map<String, Summary> metrics,
      SweepRow firstRun,
      Map<String, Paired> paired) {}

  /**
   * Whether {@code metric} is the figure {@code other} under another key: a workload's extra (its
   * {@code workload_} family) equal to it in every variant's mean, spread and range.
   */
  private static boolean sameFigure(List<VariantSummary> variants, String metric, String other) {
    if (!metric.startsWith(Metrics.WORKLOAD_PREFIX)) {
      return false;
    }
    for (VariantSummary v : variants) {
      if (!v.metrics().get(metric).equals(v.metrics().get(other))) {
        return false;
      }
    }
    return true;
  }

  /**
   * One metric of a variant compared with the first variant on the same seeds.
   *
   * @param meanChangePct the mean over seeds of the relative change, in percent (NaN when the first
   *     variant's value is 0 on every seed)
   * @param higher seeds on which this variant's value is higher
   * @param lower seeds on which it is lower
   */
  public record Paired(double meanChangePct, int higher, int lower) {

    /**
     * The two-sided sign test: the probability, were either variant as likely to be ahead on a
     * seed, of a split of the untied seeds at least as uneven as {@link #higher} against {@link
     * #lower}; 1 when every seed is tied.
     */
    public double signTestP() {
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

    /** Metric {@code m} of {@code runs} against {@code base}, run by run (same seeds). */
    public static Paired of(List<SweepRow> base, List<SweepRow> runs, int m) {
      double sum = 0;
      int counted = 0;
      int higher = 0;
      int lower = 0;
      for (int i = 0; i < runs.size(); i++) {
        double b = base.get(i).value(m);
        double v = runs.get(i).value(m);
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
  public record PointSummary(Map<String, String> point, List<VariantSummary> variants) {}

  /**
   * Mean, sample standard deviation, minimum and maximum of one metric over runs.
   *
   * @param mean arithmetic mean
   * @param stddev sample standard deviation (0 for one run)
   * @param min smallest value
   * @param max largest value
   */
  public record Summary(double mean, double stddev, double min, double max) {

    /** Metric {@code m} over {@code runs}. */
    public static Summary of(List<SweepRow> runs, int m) {
      double sum = 0;
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (SweepRow run : runs) {
        double v = run.value(m);
        sum += v;
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      double mean = sum / runs.size();
      double squares = 0;
      for (SweepRow run : runs) {
        double d = run.value(m) - mean;
        squares += d * d;
      }
      double stddev = runs.size() < 2 ? 0 : Math.sqrt(squares / (runs.size() - 1));
      return new Summary(mean, stddev, min, max);
    }
  }

  /**
   * Summarises {@code rows}, indexed by cell (grid points, then variants, then seeds).
   *
   * @param variants the plan's variants, parsed
   */
  public static List<PointSummary> summarise(
      SweepPlan plan, List<Variant> variants, SweepRow[] rows) {
    List<String> metrics = plan.metrics();
    int seedCount = plan.seedCount();
    List<SweepRow> all = Arrays.asList(rows);
    List<PointSummary> summaries = new ArrayList<>();
    int index = 0;
    for (long p = 0; p < plan.pointCount(); p++) {
      List<VariantSummary> perVariant = new ArrayList<>();
      List<SweepRow> base = null;
      for (Variant v : variants) {
        List<SweepRow> runs = all.subList(index, index + seedCount);
        index += seedCount;
        Map<String, Summary> byMetric = new LinkedHashMap<>();
        Map<String, Paired> paired = new LinkedHashMap<>();
        for (int m = 0; m < metrics.size(); m++) {
          byMetric.put(metrics.get(m), Summary.of(runs, m));
          if (base != null) {
            paired.put(metrics.get(m), Paired.of(base, runs, m));
          }
        }
        perVariant.add(new VariantSummary(v, byMetric, runs.get(0), paired));
        if (base == null) {
          base = runs;
        }
      }
      summaries.add(new PointSummary(plan.point(p), perVariant));
    }
    return summaries;
  }

  /**
   * The lines before the CSV's header, which make it self-describing as the JSON reports are:
   * {@code # schedlab {"version":...,"commit":...}} and {@code # scenario {...}}, the sweep's
   * scenario block ({@link ScenarioRecord#sweep}) as one line of JSON. CSV readers skip them as
   * comments (pandas {@code comment='#'}, R {@code comment.char='#'}, {@code grep -v '^#'}); the
   * columns are unchanged.
   */
  public static String csvComments(Map<String, Object> scenario) {
    return "# schedlab "
        + Json.compact(ScenarioRecord.build())
        + "\n# scenario "
        + Json.compact(scenario)
        + "\n";
  }

  /** Summary rows: one per grid point, variant and metric. */
  public static String csv(Scenario scenario, SweepPlan plan, List<PointSummary> summaries) {
    List<String> varying = plan.varying();
    List<String> metrics = plan.metrics();
    int seedCount = plan.seedCount();
    StringBuilder out = new StringBuilder();
    List<String> header = new ArrayList<>(List.of("machine", "workload", "variant"));
    header.addAll(varying);
    header.addAll(
        List.of(
            "metric",
            "unit",
            "runs",
            "mean",
            "stddev",
            "min",
            "max",
            "change_pct",
            "paired_change_pct",
            "seeds_higher",
            "seeds_lower",
            "sign_test_p"));
    out.append(Csv.line(header));
    for (PointSummary point : summaries) {
      Map<String, Summary> first = point.variants().get(0).metrics();
      for (VariantSummary v : point.variants()) {
        boolean base = v == point.variants().get(0);
        for (String metric : metrics) {
          Summary s = v.metrics().get(metric);
          List<String> cells =
              new ArrayList<>(
                  List.of(scenario.machineId(), scenario.workload().id(), v.variant().name()));
          for (String key : varying) {
            cells.add(point.point().get(key));
          }
          boolean main = metric.equals("throughput");
          String unit = main ? v.firstRun().throughputUnit() : "";
          double change =
              base ? Double.NaN : TextTable.changePct(first.get(metric).mean(), s.mean());
          // The workload's own metric goes by its own name (FLOP/s throughput, p99 latency...).
          String name = main ? v.firstRun().throughputMetric() : metric;
          cells.addAll(
              List.of(
                  name,
                  unit,
                  Integer.toString(seedCount),
                  Csv.value(s.mean()),
                  Csv.value(s.stddev()),
                  Csv.value(s.min()),
                  Csv.value(s.max()),
                  base ? "" : Csv.value(change)));
          Paired paired = v.paired().get(metric);
          cells.addAll(
              paired == null
                  ? List.of("", "", "", "")
                  : List.of(
                      Csv.value(paired.meanChangePct()),
                      Integer.toString(paired.higher()),
                      Integer.toString(paired.lower()),
                      Csv.value(paired.signTestP())));
          out.append(Csv.line(cells));
        }
      }
    }
    return out.toString();
  }

  /**
   * The same summaries for people: a heading naming the machine, workload and seeds, then per grid
   * point a line with its varying values and a table with a row per metric (labelled as in {@code
   * compare}) and, per variant, {@code mean ± stddev} and the change of the mean from the first
   * variant; with several seeds, a line per variant compares the workload's metric with the first
   * variant's seed by seed (runs with the same seed are paired).
   */
  public static String table(Scenario scenario, SweepPlan plan, List<PointSummary> summaries) {
    List<String> varying = plan.varying();
    List<String> metrics = plan.metrics();
    int seedCount = plan.seedCount();
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s; %d seed%s per point, mean ± standard deviation%n",
            scenario.describe(),
            seedCount,
            seedCount == 1 ? "" : "s"));
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
          header.add(
              variants.size() > 2 ? "change vs " + variants.get(0).variant().name() : "change");
        }
      }
      table.row(header.toArray(String[]::new));
      List<String> repeats = new ArrayList<>();
      for (String metric : metrics) {
        if (!metric.equals("throughput") && sameFigure(variants, metric, "throughput")) {
          // A workload's extra that is its own metric under another key: one row per figure.
          repeats.add(metric);
          continue;
        }
        List<String> cells =
            new ArrayList<>(
                List.of(
                    metric.equals("throughput")
                        ? variants.get(0).firstRun().workloadLabel()
                        : Metrics.label(metric)));
        double base = variants.get(0).metrics().get(metric).mean();
        for (int i = 0; i < variants.size(); i++) {
          Summary s = variants.get(i).metrics().get(metric);
          cells.add(TextTable.number(s.mean()) + " ± " + TextTable.number(s.stddev()));
          if (i > 0) {
            // Wall-clock figures differ from run to run: no change is a result.
            cells.add(Metrics.deterministic(metric) ? TextTable.change(base, s.mean()) : "");
          }
        }
        table.row(cells.toArray(String[]::new));
      }
      out.append(table.render());
      for (String metric : repeats) {
        out.append(
            String.format(
                "not repeated: %s (%s) is the workload's own metric, the first row%n",
                Metrics.label(metric), metric));
      }
      if (seedCount > 1) {
        // The workload's own metric, seed by seed against the first variant.
        for (VariantSummary v : variants.subList(1, variants.size())) {
          Paired p = v.paired().get("throughput");
          out.append(
              String.format(
                  Locale.ROOT,
                  "paired by seed, %s: %s higher on %d of %d seeds, lower on %d (mean of the"
                      + " per-seed changes %s; sign test p = %s)%n",
                  Metrics.words(variants.get(0).firstRun().throughputMetric()),
                  v.variant().name(),
                  p.higher(),
                  seedCount,
                  p.lower(),
                  Double.isNaN(p.meanChangePct())
                      ? "n/a"
                      : String.format(Locale.ROOT, "%+.1f %%", p.meanChangePct()),
                  TextTable.number(p.signTestP())));
        }
      }
    }
    return out.toString();
  }
}
