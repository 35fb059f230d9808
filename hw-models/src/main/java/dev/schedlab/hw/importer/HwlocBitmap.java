package dev.schedlab.hw.importer;

import dev.schedlab.text.InputText;
import java.util.BitSet;

/**
 * Parses hwloc's bitmap text: comma-separated 32-bit hex words, most significant first, each
 * written {@code 0x0000ffff} (an empty word means 0); a leading {@code 0xf...f} word means every
 * higher bit is set as well.
 *
 * @param bits the finite bits
 * @param infinite whether every bit above the written words is set too
 */
record HwlocBitmap(BitSet bits, boolean infinite) {

  private static final int MAX_BITS = 8192;

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException describing the first bad word; the caller adds the file and
   *     the attribute
   */
  static HwlocBitmap parse(String text) {
    String trimmed = text.trim();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("empty bitmap");
    }
    String[] words = trimmed.split(",", -1);
    boolean infinite = false;
    int start = 0;
    if (words[0].equalsIgnoreCase("0xf...f")) {
      infinite = true;
      start = 1;
    }
    int finiteWords = words.length - start;
    if (finiteWords * 32 > MAX_BITS + 32) {
      throw new IllegalArgumentException(
          "bitmap "
              + InputText.quote(abbreviate(trimmed))
              + " is wider than "
              + MAX_BITS
              + " bits");
    }
    BitSet bits = new BitSet();
    for (int i = start; i < words.length; i++) {
      String w = words[i].trim();
      int shift = 32 * (words.length - 1 - i);
      if (w.isEmpty()) {
        continue;
      }
      if (!w.startsWith("0x") && !w.startsWith("0X")) {
        throw new IllegalArgumentException(
            "bitmap word " + InputText.quote(w) + " does not start with 0x");
      }
      String hex = w.substring(2);
      if (hex.isEmpty() || hex.length() > 8 || !hex.chars().allMatch(HwlocBitmap::isHex)) {
        throw new IllegalArgumentException(
            "bitmap word " + InputText.quote(w) + " is not 1 to 8 hex digits after 0x");
      }
      long value = Long.parseLong(hex, 16);
      for (int b = 0; b < 32; b++) {
        if ((value >>> b & 1) != 0) {
          if (shift + b >= MAX_BITS) {
            throw new IllegalArgumentException(
                "bitmap sets bit " + (shift + b) + "; at most " + MAX_BITS + " CPUs are supported");
          }
          bits.set(shift + b);
        }
      }
    }
    return new HwlocBitmap(bits, infinite);
  }

  private static boolean isHex(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 37) + "...";
  }
}
