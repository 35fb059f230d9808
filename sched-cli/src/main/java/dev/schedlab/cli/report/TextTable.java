package dev.schedlab.cli.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An aligned text table for people: the first {@code labelColumns} columns left-aligned, the rest
 * right-aligned, two spaces between columns; plus the number formats the reports share.
 */
public final class TextTable {

  private final int labelColumns;
  private final List<String[]> rows = new ArrayList<>();

  public TextTable(int labelColumns) {
    this.labelColumns = labelColumns;
  }

  /** Adds a row; missing trailing cells are blank. */
  public TextTable row(String... cells) {
    rows.add(cells);
    return this;
  }

  /** The table, each line ending with a newline, without trailing spaces. */
  public String render() {
    int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i] == null ? 0 : row[i].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        String cell = i < row.length && row[i] != null ? row[i] : "";
        if (i > 0) {
          line.append("  ");
        }
        String pad = " ".repeat(width[i] - cell.length());
        line.append(i < labelColumns ? cell + pad : pad + cell);
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }

  /**
   * A number for people: integers as they are below a million, large values with an SI prefix
   * ({@code 9.402 T}), others with four significant digits.
   */
  public static String number(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    double abs = Math.abs(v);
    if (abs >= 1e6) {
      String[] prefixes = {"k", "M", "G", "T", "P", "E"};
      int exponent = Math.min(prefixes.length, (int) Math.floor(Math.log10(abs) / 3));
      return significant(v / Math.pow(1000, exponent)) + " " + prefixes[exponent - 1];
    }
    if (v == Math.rint(v)) {
      return Long.toString((long) v);
    }
    return significant(v);
  }

  private static String significant(double v) {
    return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }

  /** {@code n} of {@code noun} in English: {@code 1 package}, {@code 2 packages}. */
  public static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** The relative change from {@code base} to {@code v} in percent: {@code +51.6 %}. */
  public static String change(double base, double v) {
    if (Double.isNaN(base) || Double.isNaN(v)) {
      return "";
    }
    if (base == 0) {
      return v == 0 ? "0.0 %" : "n/a";
    }
    return String.format(Locale.ROOT, "%+.1f %%", changePct(base, v));
  }

  /** The relative change from {@code base} to {@code v} in percent; NaN when {@code base} is 0. */
  public static double changePct(double base, double v) {
    return base == 0 ? Double.NaN : (v - base) / Math.abs(base) * 100;
  }
}
