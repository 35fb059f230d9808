package dev.schedlab.cli.report;

import java.util.List;

/** RFC 4180 CSV cells and lines. */
public final class Csv {

  private Csv() {}

  /** A line of cells, quoted where needed, ending with a newline. */
  public static String line(List<String> cells) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      String cell = cells.get(i) == null ? "" : cells.get(i);
      if (cell.indexOf(',') >= 0 || cell.indexOf('"') >= 0 || cell.indexOf('\n') >= 0) {
        out.append('"').append(cell.replace("\"", "\"\"")).append('"');
      } else {
        out.append(cell);
      }
    }
    return out.append('\n').toString();
  }

  /** A value as a cell: numbers as JSON writes them, null as empty. */
  public static String value(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof Number n) {
      StringBuilder out = new StringBuilder();
      Json.number(out, n);
      return out.toString().equals("null") ? "" : out.toString();
    }
    return v.toString();
  }
}
