package dev.schedlab.cli.sweep;

import dev.schedlab.cli.args.BadInputException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * The columns of a sweep's rows file, the same for every format: the sweep's fingerprint, the
 * cell's number, variant name, seed and grid values, the workload metric's name, unit and
 * direction, the workload figures and plugin counters the run reported, then one column per
 * summarised metric. Numbers are written so that they read back exactly ({@link Double#toString}),
 * since a resumed sweep must summarise the same values.
 */
public final class RowColumns {

  /** The sweep's fingerprint ({@link SweepPlan#id()}). */
  public static final String SWEEP = "sweep";

  /** The cell's number in the plan. */
  public static final String CELL = "cell";

  /** The variant's name. */
  public static final String VARIANT = "variant";

  /** The run's seed. */
  public static final String SEED = "seed";

  /** The workload metric's name. */
  public static final String THROUGHPUT_METRIC = "throughput_metric";

  /** The workload metric's unit. */
  public static final String THROUGHPUT_UNIT = "throughput_unit";

  /** Whether more of the workload metric is better. */
  public static final String HIGHER_IS_BETTER = "higher_is_better";

  /** The workload figures and plugin counters the run reported, separated by {@code ;}. */
  public static final String REPORTED = "reported";

  private RowColumns() {}

  /** Every column, in order. */
  public static List<String> header(SweepPlan plan) {
    List<String> header = new ArrayList<>(List.of(SWEEP, CELL, VARIANT, SEED));
    header.addAll(plan.grid().keySet());
    header.addAll(List.of(THROUGHPUT_METRIC, THROUGHPUT_UNIT, HIGHER_IS_BETTER, REPORTED));
    header.addAll(plan.metrics());
    return header;
  }

  /** A variant's name: its text up to the {@code =}. */
  public static String variantName(String variant) {
    int eq = variant.indexOf('=');
    return eq < 0 ? variant : variant.substring(0, eq);
  }

  /** The row's cells as text, in {@link #header} order; an unreported metric is empty. */
  public static List<String> cells(SweepPlan plan, SweepRow row) {
    SweepCell cell = plan.cell(row.cell());
    List<String> cells =
        new ArrayList<>(
            List.of(
                plan.id(),
                Long.toString(row.cell()),
                variantName(cell.variant()),
                Long.toString(cell.seed())));
    cells.addAll(pointValues(plan, cell.point()));
    cells.addAll(
        List.of(
            row.throughputMetric(),
            row.throughputUnit(),
            Boolean.toString(row.higherIsBetter()),
            String.join(";", row.reported())));
    for (int m = 0; m < plan.metrics().size(); m++) {
      cells.add(row.missing().get(m) ? "" : number(row.value(m)));
    }
    return cells;
  }

  /**
   * The row of {@code cells} (in {@link #header} order), checked against the plan.
   *
   * @param where the file and line, for messages
   * @throws BadInputException when the row belongs to another sweep or does not parse
   */
  public static SweepRow parse(SweepPlan plan, List<String> cells, String where) {
    List<String> header = header(plan);
    if (cells.size() != header.size()) {
      throw new BadInputException(
          where + ": " + cells.size() + " columns, expected " + header.size());
    }
    long index;
    long seed;
    try {
      index = Long.parseLong(cells.get(1));
      seed = Long.parseLong(cells.get(3));
    } catch (NumberFormatException e) {
      throw new BadInputException(where + ": cell and seed must be integers", e);
    }
    int gridKeys = plan.grid().size();
    List<String> point = cells.subList(4, 4 + gridKeys);
    verify(plan, where, cells.get(0), index, cells.get(2), seed, point);
    int at = 4 + gridKeys;
    String metric = cells.get(at);
    String unit = cells.get(at + 1);
    boolean higher = Boolean.parseBoolean(cells.get(at + 2));
    String reported = cells.get(at + 3);
    int metrics = plan.metrics().size();
    double[] values = new double[metrics];
    BitSet missing = new BitSet();
    for (int m = 0; m < metrics; m++) {
      String text = cells.get(at + 4 + m);
      if (text.isEmpty()) {
        missing.set(m);
        values[m] = Double.NaN;
      } else {
        try {
          values[m] = Double.parseDouble(text);
        } catch (NumberFormatException e) {
          throw new BadInputException(
              where + ": " + plan.metrics().get(m) + " is not a number: " + text, e);
        }
      }
    }
    return new SweepRow(
        index,
        metric,
        unit,
        higher,
        values,
        missing,
        reported.isEmpty() ? List.of() : List.of(reported.split(";")));
  }

  /**
   * Checks that a stored row's key columns are those of cell {@code index} of this plan.
   *
   * @throws BadInputException naming the first difference
   */
  public static void verify(
      SweepPlan plan,
      String where,
      String sweep,
      long index,
      String variant,
      long seed,
      List<String> point) {
    if (!sweep.equals(plan.id())) {
      throw new BadInputException(
          where
              + ": written by another sweep ("
              + sweep
              + "; this one is "
              + plan.id()
              + "); resume with the arguments that wrote it");
    }
    if (index < 0 || index >= plan.cellCount()) {
      throw new BadInputException(
          where + ": cell " + index + " is not one of this sweep's " + plan.cellCount());
    }
    SweepCell cell = plan.cell(index);
    List<String> expected = pointValues(plan, cell.point());
    if (!variantName(cell.variant()).equals(variant)
        || cell.seed() != seed
        || !expected.equals(point)) {
      throw new BadInputException(
          where
              + ": cell "
              + index
              + " is "
              + variant
              + " seed "
              + seed
              + " "
              + point
              + " but this sweep's is "
              + variantName(cell.variant())
              + " seed "
              + cell.seed()
              + " "
              + expected);
    }
  }

  /** A value as a rows file holds it: integers without a fraction, others exactly. */
  public static String number(double v) {
    boolean negativeZero = v == 0 && 1 / v < 0;
    if (v == Math.rint(v) && Math.abs(v) < 1e15 && !negativeZero) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }

  /** A grid point's values in grid-key order, as the rows file's grid columns hold them. */
  public static List<String> pointValues(SweepPlan plan, Map<String, String> point) {
    List<String> values = new ArrayList<>();
    for (String key : plan.grid().keySet()) {
      values.add(point.get(key));
    }
    return values;
  }
}
