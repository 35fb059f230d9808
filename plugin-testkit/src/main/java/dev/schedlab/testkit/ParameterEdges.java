package dev.schedlab.testkit;

import dev.schedlab.spi.ParameterSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The values at the edges of a parameter's documented range, written as a user would: the bounds
 * themselves (and every choice) must be accepted, the values just outside them rejected.
 */
final class ParameterEdges {

  private ParameterEdges() {}

  /** Values the parameter must accept: its bounds, every choice, both booleans. */
  static List<String> inside(ParameterSpec spec) {
    Set<String> values = new LinkedHashSet<>();
    switch (spec.type()) {
      case INT:
      case LONG:
        values.add(Long.toString(lowest(spec)));
        values.add(Long.toString(highest(spec)));
        break;
      case DURATION:
        values.add(lowest(spec) + "ns");
        values.add(highest(spec) + "ns");
        break;
      case DOUBLE:
        values.add(Double.toString(spec.min()));
        values.add(Double.toString(spec.max()));
        break;
      case CHOICE:
        values.addAll(spec.choices());
        break;
      case BOOLEAN:
        values.add("true");
        values.add("false");
        break;
      default:
        values.add(spec.defaultValue());
    }
    return List.copyOf(values);
  }

  /** Inside values other than the default: what an engine run with non-default values uses. */
  static List<String> insideButNotDefault(ParameterSpec spec) {
    Object def = spec.parse(spec.defaultValue());
    List<String> values = new ArrayList<>();
    for (String value : inside(spec)) {
      if (!spec.parse(value).equals(def)) {
        values.add(value);
      }
    }
    return values;
  }

  /** Values the parameter must reject with a message naming its range. */
  static List<String> outside(ParameterSpec spec) {
    List<String> values = new ArrayList<>();
    switch (spec.type()) {
      case INT:
      case LONG:
        {
          long lo = lowest(spec);
          long hi = highest(spec);
          if (lo != Long.MIN_VALUE) {
            values.add(Long.toString(lo - 1));
          }
          if (hi != Long.MAX_VALUE) {
            values.add(Long.toString(hi + 1));
          }
          break;
        }
      case DURATION:
        {
          long lo = lowest(spec);
          long hi = highest(spec);
          if (lo > 0) {
            values.add((lo - 1) + "ns");
          }
          if (hi < (1L << 53)) {
            values.add((hi + 1) + "ns");
          }
          break;
        }
      case DOUBLE:
        {
          double below = Math.nextDown(spec.min());
          double above = Math.nextUp(spec.max());
          if (Double.isFinite(below)) {
            values.add(Double.toString(below));
          }
          if (Double.isFinite(above)) {
            values.add(Double.toString(above));
          }
          break;
        }
      case CHOICE:
        values.add("not-a-choice");
        break;
      case BOOLEAN:
        values.add("maybe");
        break;
      case CPULIST:
        values.add("not-a-cpulist");
        break;
      default:
        break;
    }
    return values;
  }

  private static long lowest(ParameterSpec spec) {
    return (long) Math.ceil(spec.min());
  }

  private static long highest(ParameterSpec spec) {
    return (long) Math.floor(spec.max());
  }
}
