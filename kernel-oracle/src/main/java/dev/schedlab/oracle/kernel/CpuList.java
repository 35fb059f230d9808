package dev.schedlab.oracle.kernel;

import java.util.BitSet;

/**
 * CPU lists as the kernel prints them with {@code %*pbl} ({@code 0-3,8,10-11}), and the hex masks
 * of {@code /proc/schedstat} ({@code %*pb}: 32-bit words, most significant first, separated by
 * commas).
 */
public final class CpuList {

  private CpuList() {}

  /**
   * Parses a list such as {@code 0-3,8}; the empty string is the empty set.
   *
   * @throws IllegalArgumentException when a part is not a number or a range
   */
  public static BitSet parse(String text) {
    BitSet out = new BitSet();
    String t = text.trim();
    if (t.isEmpty()) {
      return out;
    }
    for (String part : t.split(",")) {
      String[] ends = part.trim().split("-");
      try {
        int from = Integer.parseInt(ends[0].trim());
        int to = ends.length > 1 ? Integer.parseInt(ends[1].trim()) : from;
        if (ends.length > 2 || to < from) {
          throw new IllegalArgumentException("bad CPU range '" + part + "' in '" + text + "'");
        }
        out.set(from, to + 1);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad CPU list '" + text + "'", e);
      }
    }
    return out;
  }

  /** Parses a hex mask such as {@code 00000000,0000ff0f}. */
  public static BitSet parseHex(String text) {
    String hex = text.trim().replace(",", "");
    BitSet out = new BitSet();
    int bit = 0;
    for (int i = hex.length() - 1; i >= 0; i--, bit += 4) {
      int digit = Character.digit(hex.charAt(i), 16);
      if (digit < 0) {
        throw new IllegalArgumentException("bad hex CPU mask '" + text + "'");
      }
      for (int b = 0; b < 4; b++) {
        if ((digit & (1 << b)) != 0) {
          out.set(bit + b);
        }
      }
    }
    return out;
  }

  /** The list form of a set: ranges joined by commas. */
  public static String format(BitSet set) {
    StringBuilder out = new StringBuilder();
    int from = set.nextSetBit(0);
    while (from >= 0) {
      int to = set.nextClearBit(from) - 1;
      out.append(out.length() == 0 ? "" : ",").append(from);
      if (to > from) {
        out.append('-').append(to);
      }
      from = set.nextSetBit(to + 1);
    }
    return out.toString();
  }

  /** Normalises a list, e.g. {@code 0,1,2} to {@code 0-2}. */
  public static String normalise(String text) {
    return format(parse(text));
  }
}
