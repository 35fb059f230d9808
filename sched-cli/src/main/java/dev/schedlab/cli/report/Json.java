package dev.schedlab.cli.report;

import java.util.Collection;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * Writes JSON from plain values: {@link Map} (insertion order kept), {@link Collection}, {@link
 * String}, {@link Number}, {@link Boolean} and null. Non-finite numbers become null, integral
 * doubles print without a fraction. Small on purpose: the reports are trees of a few hundred
 * values; the trace writer streams its own events.
 */
public final class Json {

  private Json() {}

  /** {@code value} as indented JSON (two spaces), ending with a newline. */
  public static String pretty(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value, 0, true);
    return out.append('\n').toString();
  }

  /** {@code value} as compact JSON on one line. */
  public static String compact(Object value) {
    StringBuilder out = new StringBuilder();
    write(out, value, 0, false);
    return out.toString();
  }

  private static void write(StringBuilder out, Object value, int depth, boolean pretty) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      string(out, s);
    } else if (value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Number n) {
      number(out, n);
    } else if (value instanceof Map<?, ?> map) {
      container(
          out,
          '{',
          '}',
          map.entrySet().iterator(),
          depth,
          pretty,
          (entry, d) -> {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) entry;
            string(out, String.valueOf(e.getKey()));
            out.append(pretty ? ": " : ":");
            write(out, e.getValue(), d, pretty);
          });
    } else if (value instanceof Collection<?> list) {
      container(
          out, '[', ']', list.iterator(), depth, pretty, (item, d) -> write(out, item, d, pretty));
    } else {
      string(out, value.toString());
    }
  }

  private interface Element {
    void write(Object item, int depth);
  }

  private static void container(
      StringBuilder out,
      char open,
      char close,
      Iterator<?> items,
      int depth,
      boolean pretty,
      Element element) {
    out.append(open);
    if (!items.hasNext()) {
      out.append(close);
      return;
    }
    boolean first = true;
    while (items.hasNext()) {
      Object item = items.next();
      if (!first) {
        out.append(',');
      }
      first = false;
      if (pretty) {
        out.append('\n').append("  ".repeat(depth + 1));
      }
      element.write(item, depth + 1);
    }
    if (pretty) {
      out.append('\n').append("  ".repeat(depth));
    }
    out.append(close);
  }

  /** Appends a number: integers as they are, doubles with up to 6 significant digits. */
  static void number(StringBuilder out, Number n) {
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      if (!Double.isFinite(d)) {
        out.append("null");
      } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
        out.append((long) d);
      } else {
        out.append(significant(d));
      }
    } else {
      out.append(n);
    }
  }

  /** {@code d} with six significant digits, trailing fraction zeros dropped: 0.25, 1.5e+12. */
  static String significant(double d) {
    String text = String.format(Locale.ROOT, "%.6g", d);
    int exponent = text.indexOf('e');
    String mantissa = exponent < 0 ? text : text.substring(0, exponent);
    String suffix = exponent < 0 ? "" : text.substring(exponent);
    if (mantissa.indexOf('.') >= 0) {
      mantissa = mantissa.replaceFirst("0+$", "");
      if (mantissa.endsWith(".")) {
        mantissa = mantissa.substring(0, mantissa.length() - 1);
      }
    }
    return mantissa + suffix;
  }

  /** Appends {@code s} as a JSON string literal. */
  static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
