package dev.schedlab.spi;

import dev.schedlab.text.InputText;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A typed plugin parameter: name, type, description, default and allowed values. Validation
 * messages always name the parameter and what is allowed, e.g. {@code imbalance_pct=300 is out of
 * range: allowed 105..200}.
 *
 * @param name lower-case name as written on the command line ({@code imbalance_pct})
 * @param type value type
 * @param description one line; states units and, for assumed numbers, their source
 * @param defaultValue the default, written as a user would write it
 * @param min inclusive lower bound for numeric types (ns for durations)
 * @param max inclusive upper bound for numeric types (ns for durations)
 * @param choices allowed words for {@link ParameterType#CHOICE}, empty otherwise
 */
public record ParameterSpec(
    String name,
    ParameterType type,
    String description,
    String defaultValue,
    double min,
    double max,
    List<String> choices) {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");
  private static final Pattern CPULIST =
      Pattern.compile("\\s*|(\\d+(-\\d+(:\\d+/\\d+)?)?)(,\\d+(-\\d+(:\\d+/\\d+)?)?)*");
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s)?");

  public ParameterSpec {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(defaultValue, "defaultValue");
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "parameter name "
              + (name == null ? "null" : InputText.quote(name))
              + " must match [a-z][a-z0-9_]*");
    }
    choices = List.copyOf(choices);
    if (type == ParameterType.CHOICE && choices.isEmpty()) {
      throw new IllegalArgumentException("choice parameter " + name + " has no choices");
    }
    if (min > max) {
      throw new IllegalArgumentException("parameter " + name + ": min " + min + " > max " + max);
    }
    // A default outside its own range is a programming error. Fields are not assigned yet in a
    // compact constructor, so the check runs on the parameters.
    new Validator(name, type, min, max, choices).parse(defaultValue);
  }

  /** An integer parameter with an inclusive range. */
  public static ParameterSpec ofInt(String name, String description, int def, int min, int max) {
    return new ParameterSpec(
        name, ParameterType.INT, description, Integer.toString(def), min, max, List.of());
  }

  /** A long parameter with an inclusive range. */
  public static ParameterSpec ofLong(
      String name, String description, long def, long min, long max) {
    return new ParameterSpec(
        name, ParameterType.LONG, description, Long.toString(def), min, max, List.of());
  }

  /** A floating-point parameter with an inclusive range. */
  public static ParameterSpec ofDouble(
      String name, String description, double def, double min, double max) {
    return new ParameterSpec(
        name, ParameterType.DOUBLE, description, formatDouble(def), min, max, List.of());
  }

  /** A boolean parameter. */
  public static ParameterSpec ofBoolean(String name, String description, boolean def) {
    return new ParameterSpec(
        name, ParameterType.BOOLEAN, description, Boolean.toString(def), 0, 1, List.of());
  }

  /** A parameter taking one of a few words. */
  public static ParameterSpec ofChoice(
      String name, String description, String def, String... choices) {
    return new ParameterSpec(name, ParameterType.CHOICE, description, def, 0, 0, List.of(choices));
  }

  /** A free-text parameter. */
  public static ParameterSpec ofString(String name, String description, String def) {
    return new ParameterSpec(name, ParameterType.STRING, description, def, 0, 0, List.of());
  }

  /** A cpulist parameter (empty allowed). */
  public static ParameterSpec ofCpuList(String name, String description, String def) {
    return new ParameterSpec(name, ParameterType.CPULIST, description, def, 0, 0, List.of());
  }

  /** A duration parameter with an inclusive range in nanoseconds. */
  public static ParameterSpec ofDuration(
      String name, String description, String def, long minNs, long maxNs) {
    return new ParameterSpec(
        name, ParameterType.DURATION, description, def, minNs, maxNs, List.of());
  }

  /**
   * Parses and validates a raw value: {@link Integer}, {@link Long} (also durations, in ns), {@link
   * Double}, {@link Boolean} or {@link String}.
   *
   * @throws IllegalArgumentException naming the parameter, the value and what is allowed
   */
  public Object parse(String raw) {
    return new Validator(name, type, min, max, choices).parse(raw);
  }

  /** What values are allowed, in words: {@code 105..200}, {@code v2|v3|v4}, {@code true|false}. */
  public String allowed() {
    return new Validator(name, type, min, max, choices).allowed();
  }

  /** Formats nanoseconds with the largest unit that divides them. */
  public static String formatDurationNs(long ns) {
    if (ns != 0 && ns % 1_000_000_000L == 0) {
      return ns / 1_000_000_000L + "s";
    }
    if (ns != 0 && ns % 1_000_000L == 0) {
      return ns / 1_000_000L + "ms";
    }
    if (ns != 0 && ns % 1_000L == 0) {
      return ns / 1_000L + "us";
    }
    return ns + "ns";
  }

  /** Parsing and range checks, usable before the record's fields are assigned. */
  private static final class Validator {
    private final String name;
    private final ParameterType type;
    private final double min;
    private final double max;
    private final List<String> choices;

    Validator(String name, ParameterType type, double min, double max, List<String> choices) {
      this.name = name;
      this.type = type;
      this.min = min;
      this.max = max;
      this.choices = choices;
    }

    Object parse(String raw) {
      String value = raw == null ? "" : raw.trim();
      try {
        switch (type) {
          case INT:
            {
              long v = Long.parseLong(value);
              checkRange(value, v);
              return (int) v;
            }
          case LONG:
            {
              long v = Long.parseLong(value);
              checkRange(value, v);
              return v;
            }
          case DOUBLE:
            {
              double v = Double.parseDouble(value);
              if (Double.isNaN(v)) {
                throw invalid(value);
              }
              checkRange(value, v);
              return v;
            }
          case BOOLEAN:
            {
              String lower = value.toLowerCase(Locale.ROOT);
              if (lower.equals("true") || lower.equals("1") || lower.equals("on")) {
                return Boolean.TRUE;
              }
              if (lower.equals("false") || lower.equals("0") || lower.equals("off")) {
                return Boolean.FALSE;
              }
              throw invalid(value);
            }
          case CHOICE:
            if (!choices.contains(value)) {
              throw invalid(value);
            }
            return value;
          case CPULIST:
            if (!CPULIST.matcher(value).matches()) {
              throw invalid(value);
            }
            return value;
          case DURATION:
            {
              long ns = parseDurationNs(value);
              checkRange(value, ns);
              return ns;
            }
          case STRING:
          default:
            return value;
        }
      } catch (NumberFormatException e) {
        throw invalid(value);
      }
    }

    String allowed() {
      switch (type) {
        case INT:
        case LONG:
          return (long) min + ".." + (long) max;
        case DOUBLE:
          return formatDouble(min) + ".." + formatDouble(max);
        case BOOLEAN:
          return "true|false";
        case CHOICE:
          return String.join("|", choices);
        case CPULIST:
          return "a cpulist such as 0-3,8,10-11";
        case DURATION:
          return formatDurationNs((long) min)
              + ".."
              + formatDurationNs((long) max)
              + " (units ns, us, ms, s)";
        case STRING:
        default:
          return "any text";
      }
    }

    private void checkRange(String value, double v) {
      if (v < min || v > max) {
        throw new IllegalArgumentException(
            name + "=" + InputText.printable(value) + " is out of range: allowed " + allowed());
      }
    }

    private IllegalArgumentException invalid(String value) {
      return new IllegalArgumentException(
          name
              + "="
              + InputText.printable(value)
              + " is not a valid "
              + type.name().toLowerCase(Locale.ROOT)
              + ": allowed "
              + allowed());
    }

    private long parseDurationNs(String value) {
      var m = DURATION.matcher(value);
      if (!m.matches()) {
        throw invalid(value);
      }
      double number = Double.parseDouble(m.group(1));
      if (m.group(2) == null && number != 0) {
        // 500 could be meant as us or ms as easily as ns: a unit is required (0 needs none).
        throw new IllegalArgumentException(
            name
                + "="
                + value
                + " has no unit: write it with"
                + " ns, us, ms or s, e.g. "
                + name
                + "="
                + value
                + "us; allowed "
                + allowed());
      }
      String unit = m.group(2) == null ? "ns" : m.group(2);
      double scale;
      switch (unit) {
        case "s":
          scale = 1e9;
          break;
        case "ms":
          scale = 1e6;
          break;
        case "us":
          scale = 1e3;
          break;
        default:
          scale = 1;
      }
      double ns = number * scale;
      if (ns > Long.MAX_VALUE) {
        throw invalid(value);
      }
      return Math.round(ns);
    }
  }

  private static String formatDouble(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
