package dev.schedlab.cli.report;

import dev.schedlab.oracle.report.OracleReport;
import dev.schedlab.oracle.report.OracleRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code schedlab kernel}'s report in the three formats {@code compare} prints: the run's facts
 * (shape, kernel, accelerator, boot time, workload, simulator settings), then the guest kernel and
 * the simulator side by side, one block per section, with the ratio simulator/kernel and a mark
 * where the two do not agree.
 */
public final class KernelReport {

  private static final List<String> CSV_HEADER =
      List.of(
          "section",
          "item",
          "kernel",
          "simulator",
          "kernel_value",
          "simulator_value",
          "ratio",
          "agrees");

  private final OracleReport report;
  private final List<String> differences;

  /**
   * @param report the oracle's facts and rows
   * @param differences domain differences in full (the rows summarize them), at most a few dozen
   */
  public KernelReport(OracleReport report, List<String> differences) {
    this.report = report;
    this.differences = List.copyOf(differences);
  }

  /** Facts, then a table per section: item, kernel, simulator, sim/kernel, agreement. */
  public String table() {
    StringBuilder out = new StringBuilder();
    report.facts().forEach((k, v) -> out.append(k).append(": ").append(v).append('\n'));
    String section = null;
    TextTable table = null;
    for (OracleRow r : report.rows()) {
      if (!r.section().equals(section)) {
        if (table != null) {
          out.append('\n').append(table.render());
        }
        section = r.section();
        table = new TextTable(1).row(section, "kernel", "simulator", "sim/kernel", "");
      }
      table.row(r.item(), r.kernel(), r.simulator(), ratio(r), r.agrees() ? "" : "differs");
    }
    if (table != null) {
      out.append('\n').append(table.render());
    }
    if (!differences.isEmpty()) {
      out.append("\ndifferences:\n");
      differences.forEach(d -> out.append("  ").append(d).append('\n'));
    }
    return out.toString();
  }

  /** {@code {facts, agrees, rows: [{section, item, kernel, simulator, ..., ratio}], ...}}. */
  public Map<String, Object> json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("facts", report.facts());
    root.put("agrees", report.agrees());
    List<Object> rows = new ArrayList<>();
    for (OracleRow r : report.rows()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("section", r.section());
      row.put("item", r.item());
      row.put("kernel", r.kernel());
      row.put("simulator", r.simulator());
      row.put("kernel_value", r.kernelValue());
      row.put("simulator_value", r.simulatorValue());
      row.put("ratio", r.ratio().isPresent() ? r.ratio().getAsDouble() : null);
      row.put("agrees", r.agrees());
      rows.add(row);
    }
    root.put("rows", rows);
    root.put("differences", differences);
    return root;
  }

  /** One CSV line per row, numbers as JSON writes them. */
  public String csv() {
    StringBuilder out = new StringBuilder(Csv.line(CSV_HEADER));
    for (OracleRow r : report.rows()) {
      out.append(
          Csv.line(
              List.of(
                  r.section(),
                  r.item(),
                  r.kernel(),
                  r.simulator(),
                  Csv.value(r.kernelValue()),
                  Csv.value(r.simulatorValue()),
                  r.ratio().isPresent() ? Csv.value(r.ratio().getAsDouble()) : "",
                  Boolean.toString(r.agrees()))));
    }
    return out.toString();
  }

  private static String ratio(OracleRow r) {
    return r.ratio().isPresent() ? String.format(Locale.ROOT, "%.2f", r.ratio().getAsDouble()) : "";
  }
}
