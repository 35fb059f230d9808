package dev.schedlab.oracle.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The oracle's report: facts about the run (kernel, accelerator, shape, boot time, commands) and
 * the comparison rows. Plain data for the CLI's writers; {@link #toText()} renders it for a
 * terminal.
 *
 * @param facts what was run, in insertion order
 * @param rows the comparison
 */
public record OracleReport(Map<String, String> facts, List<OracleRow> rows) {

  /** Copies both. */
  public OracleReport {
    facts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    rows = List.copyOf(rows);
  }

  /** The rows of one section. */
  public List<OracleRow> section(String section) {
    return rows.stream().filter(r -> r.section().equals(section)).toList();
  }

  /** Whether every row agrees. */
  public boolean agrees() {
    return rows.stream().allMatch(OracleRow::agrees);
  }

  /** A plain-text table: facts, then one block per section with kernel, simulator and ratio. */
  public String toText() {
    StringBuilder out = new StringBuilder();
    facts.forEach((k, v) -> out.append(k).append(": ").append(v).append('\n'));
    String section = null;
    List<String[]> block = new ArrayList<>();
    for (OracleRow r : rows) {
      if (!r.section().equals(section)) {
        flush(out, section, block);
        section = r.section();
        block.clear();
      }
      block.add(
          new String[] {
            r.item(),
            r.kernel(),
            r.simulator(),
            r.ratio().isPresent()
                ? String.format(java.util.Locale.ROOT, "%.2f", r.ratio().getAsDouble())
                : "",
            r.agrees() ? "" : "differs"
          });
    }
    flush(out, section, block);
    return out.toString();
  }

  private static void flush(StringBuilder out, String section, List<String[]> block) {
    if (section == null || block.isEmpty()) {
      return;
    }
    String[] header = {section, "kernel", "simulator", "sim/kernel", ""};
    int[] width = new int[header.length];
    List<String[]> all = new ArrayList<>();
    all.add(header);
    all.addAll(block);
    for (String[] row : all) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], Math.min(row[i].length(), 60));
      }
    }
    out.append('\n');
    for (String[] row : all) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        String cell = row[i];
        line.append(i == 0 ? "" : "  ");
        line.append(i == 0 ? pad(cell, width[i]) : padLeft(cell, width[i]));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }

  private static String pad(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }

  private static String padLeft(String s, int width) {
    return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
  }
}
