package dev.schedlab.cli.sweep;

import dev.schedlab.cli.report.Metrics;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one cell measured, as the sweep keeps it: the workload metric's name, unit and direction,
 * the value of each summarised metric ({@link SweepPlan#metrics()} order), which of them the run
 * did not report, and the workload figures and plugin counters it reported (for the check that an
 * asked-for one was reported by some run).
 *
 * @param cell the cell's number in its plan
 * @param throughputMetric the workload metric's name ({@code throughput_metric})
 * @param throughputUnit its unit
 * @param higherIsBetter its direction
 * @param values each metric's value; NaN where {@code missing}
 * @param missing the metrics the run did not report
 * @param reported the workload figure and plugin counter keys the run reported, in order
 */
public record SweepRow(
    long cell,
    String throughputMetric,
    String throughputUnit,
    boolean higherIsBetter,
    double[] values,
    BitSet missing,
    List<String> reported)
    implements Serializable {

  public SweepRow {
    reported = List.copyOf(reported);
  }

  /** The row of a run's figures ({@link Metrics#of}), keeping {@code metrics}. */
  public static SweepRow of(long cell, Map<String, Object> figures, List<String> metrics) {
    double[] values = new double[metrics.size()];
    BitSet missing = new BitSet();
    for (int m = 0; m < values.length; m++) {
      values[m] = Metrics.number(figures, metrics.get(m));
      if (!figures.containsKey(metrics.get(m))) {
        missing.set(m);
      }
    }
    List<String> reported = new ArrayList<>();
    for (String key : figures.keySet()) {
      if (Metrics.isPrefixed(key)) {
        reported.add(key);
      }
    }
    return new SweepRow(
        cell,
        String.valueOf(figures.get("throughput_metric")),
        String.valueOf(figures.get("throughput_unit")),
        Boolean.TRUE.equals(figures.get("higher_is_better")),
        values,
        missing,
        reported);
  }

  /** Metric {@code m}'s value, NaN when the run did not report it. */
  public double value(int m) {
    return values[m];
  }

  /** The workload metric's label, as {@link Metrics#workloadLabel} writes it. */
  public String workloadLabel() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("throughput_metric", throughputMetric);
    run.put("throughput_unit", throughputUnit);
    run.put("higher_is_better", higherIsBetter);
    return Metrics.workloadLabel(run);
  }
}
