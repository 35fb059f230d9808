package dev.schedlab.cli.report;

import dev.schedlab.core.stats.SimulationResult;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One figure of the reports, declared once in {@link Metrics#CATALOGUE}: its key in JSON and CSV,
 * how the comparison table labels it, its unit and direction of improvement, where it appears
 * besides JSON and CSV, what it counts and its kernel counterpart (for {@code docs/reports.md}),
 * and how it is read from a run. Built with {@link #of} and the {@code with...} methods.
 *
 * @param key the JSON and CSV key
 * @param label the figure's label in tables (the comparison table's row when it is used as {@link
 *     Use#TABLE}), or null for the text figures and {@code throughput}, which the workload names
 * @param unit the unit ({@code us}, {@code %}, {@code 1/s}, ...), empty for counts and text
 * @param better the direction of improvement
 * @param uses where the figure appears besides JSON and CSV
 * @param family the key pattern of the family it belongs to ({@code lb_skip_<reason>}), or null
 * @param counts what it counts, in the words of {@code docs/reports.md}
 * @param kernel its kernel counterpart, or {@code —}
 * @param read its value in a run: a {@code Long}, {@code Double}, {@code Boolean}, {@code String}
 *     or a map of per-level values, as JSON prints it
 */
public record Metric(
    String key,
    String label,
    String unit,
    Better better,
    Set<Use> uses,
    String family,
    String counts,
    String kernel,
    Function<SimulationResult, Object> read)
    implements Metrics.Entry {

  /** Which way a figure improves. */
  public enum Better {
    /** Higher is better. */
    HIGHER,
    /** Lower is better. */
    LOWER,
    /** Neither: a figure that explains, not one to optimise. */
    NEITHER,
    /** As the workload says ({@code higher_is_better}): its own metric. */
    WORKLOAD
  }

  /** Where a figure appears besides the JSON and CSV of {@code run} and {@code compare}. */
  public enum Use {
    /** A number (a sweep may summarise it with {@code --metric}); text and breakdowns are not. */
    NUMBER,
    /** A row of the comparison table. */
    TABLE,
    /** A bar chart of the HTML page. */
    CHART,
    /** A default metric of {@code sweep}. */
    SWEEP,
    /** Wall-clock: differs from run to run of the same seed. */
    WALL_CLOCK
  }

  public Metric {
    uses = Set.copyOf(uses);
  }

  /** A number read by {@code read}, without label, docs or uses beyond JSON and CSV. */
  public static Metric of(String key, Function<SimulationResult, Object> read) {
    return new Metric(key, null, "", Better.NEITHER, EnumSet.of(Use.NUMBER), null, "", "—", read);
  }

  /** This figure with the comparison table's row {@code value}. */
  public Metric withLabel(String value) {
    return new Metric(key, value, unit, better, with(Use.TABLE), family, counts, kernel, read);
  }

  /**
   * This figure labelled {@code value} where it is named (a sweep's {@code --metric} row) without a
   * row of the comparison table.
   */
  public Metric withName(String value) {
    return new Metric(key, value, unit, better, uses, family, counts, kernel, read);
  }

  /** This figure in {@code value} units. */
  public Metric withUnit(String value) {
    return new Metric(key, label, value, better, uses, family, counts, kernel, read);
  }

  /** This figure improving {@code value}-wards. */
  public Metric withBetter(Better value) {
    return new Metric(key, label, unit, value, uses, family, counts, kernel, read);
  }

  /** This figure also used as {@code extra}. */
  public Metric withUse(Use extra) {
    return new Metric(key, label, unit, better, with(extra), family, counts, kernel, read);
  }

  /** This figure as a text or breakdown: not a number. */
  public Metric notANumber() {
    Set<Use> without = EnumSet.noneOf(Use.class);
    without.addAll(uses);
    without.remove(Use.NUMBER);
    return new Metric(key, label, unit, better, without, family, counts, kernel, read);
  }

  /** This figure as a member of the family {@code pattern}. */
  public Metric inFamily(String pattern) {
    return new Metric(key, label, unit, better, uses, pattern, counts, kernel, read);
  }

  /** This figure documented: what it {@code counts} and its {@code kernel} counterpart. */
  public Metric withDoc(String countsText, String kernelText) {
    return new Metric(key, label, unit, better, uses, family, countsText, kernelText, read);
  }

  /** Whether this figure appears as {@code use}. */
  public boolean is(Use use) {
    return uses.contains(use);
  }

  @Override
  public void put(SimulationResult result, Map<String, Object> into) {
    into.put(key, read.apply(result));
  }

  private Set<Use> with(Use extra) {
    Set<Use> all = EnumSet.of(extra);
    all.addAll(uses);
    return all;
  }
}
