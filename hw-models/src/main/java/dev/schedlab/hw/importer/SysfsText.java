package dev.schedlab.hw.importer;

import dev.schedlab.text.InputText;
import java.util.BitSet;

/** Parsers for the text forms of Linux sysfs files: cpulists and comma-separated hex masks. */
final class SysfsText {

  private static final int MAX_CPUS = 8192;

  private SysfsText() {}

  /**
   * Parses a cpulist such as {@code 0-3,8,10-11} (the empty text is the empty set).
   *
   * @throws IllegalArgumentException describing the bad entry
   */
  static BitSet parseCpuList(String text) {
    BitSet set = new BitSet();
    String trimmed = text.trim();
    if (trimmed.isEmpty()) {
      return set;
    }
    for (String entry : trimmed.split(",", -1)) {
      String e = entry.trim();
      int dash = e.indexOf('-');
      int from;
      int to;
      try {
        if (dash < 0) {
          from = Integer.parseInt(e);
          to = from;
        } else {
          from = Integer.parseInt(e.substring(0, dash));
          to = Integer.parseInt(e.substring(dash + 1));
        }
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException(
            "bad cpulist entry " + InputText.quote(e) + " in " + InputText.quote(trimmed));
      }
      if (from < 0 || to < from || to >= MAX_CPUS) {
        throw new IllegalArgumentException(
            "bad cpulist range \""
                + e
                + "\" in \""
                + trimmed
                + "\" (CPUs must lie in 0.."
                + (MAX_CPUS - 1)
                + ", start ≤ end)");
      }
      set.set(from, to + 1);
    }
    return set;
  }

  /**
   * Parses the comma-separated 32-bit hex form of sysfs {@code *_map} files, most significant word
   * first, such as {@code 00000000,000aaaa0}.
   */
  static BitSet parseHexMask(String text) {
    String trimmed = text.trim();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("empty hex mask");
    }
    String[] words = trimmed.split(",", -1);
    if (words.length * 32L > MAX_CPUS + 32L * 8) {
      throw new IllegalArgumentException("hex mask wider than " + MAX_CPUS + " CPUs");
    }
    BitSet set = new BitSet();
    for (int i = 0; i < words.length; i++) {
      String w = words[i].trim();
      if (w.isEmpty() || w.length() > 8 || !w.chars().allMatch(SysfsText::isHex)) {
        throw new IllegalArgumentException(
            "bad hex mask word " + InputText.quote(w) + " in " + InputText.quote(trimmed));
      }
      long value = Long.parseLong(w, 16);
      int shift = 32 * (words.length - 1 - i);
      for (int b = 0; b < 32; b++) {
        if ((value >>> b & 1) != 0) {
          if (shift + b >= MAX_CPUS) {
            throw new IllegalArgumentException("hex mask sets CPU " + (shift + b));
          }
          set.set(shift + b);
        }
      }
    }
    return set;
  }

  /** Parses a cache size such as {@code 32K}, {@code 30720K}, {@code 2M} or {@code 512}. */
  static long parseSize(String text) {
    String t = text.trim().toUpperCase(java.util.Locale.ROOT);
    long scale = 1;
    if (t.endsWith("K")) {
      scale = 1024;
    } else if (t.endsWith("M")) {
      scale = 1024L * 1024;
    } else if (t.endsWith("G")) {
      scale = 1024L * 1024 * 1024;
    }
    String digits = scale == 1 ? t : t.substring(0, t.length() - 1);
    try {
      return Long.parseLong(digits) * scale;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad size " + InputText.quote(text.trim()));
    }
  }

  /** The cpulist form of {@code set}, e.g. {@code 0-3,8}. */
  static String toCpuList(BitSet set) {
    StringBuilder sb = new StringBuilder();
    for (int a = set.nextSetBit(0); a >= 0; ) {
      int b = set.nextClearBit(a) - 1;
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(a);
      if (b > a) {
        sb.append('-').append(b);
      }
      a = set.nextSetBit(b + 1);
    }
    return sb.toString();
  }

  private static boolean isHex(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
