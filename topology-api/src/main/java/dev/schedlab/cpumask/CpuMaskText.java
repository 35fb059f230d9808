package dev.schedlab.cpumask;

import dev.schedlab.text.InputText;
import java.util.Objects;

/**
 * The two text forms of a mask: the cpulist form of {@code %*pbl} / {@code cpulist_parse()} and the
 * 32-bit-chunk hex form of {@code %*pb} / {@code cpumask_parse()}.
 *
 * <p>Both parsers ignore whitespace (C {@code isspace}) before and after the text, so a sysfs file
 * read with its trailing newline parses as is, and report a problem as an {@link
 * IllegalArgumentException} quoting the whole input, the 0-based index of the offending character
 * in it, and what would have been accepted.
 */
final class CpuMaskText {

  private static final char[] HEX_DIGITS = "0123456789abcdef".toCharArray();

  private CpuMaskText() {}

  /** Equivalent of {@code bitmap_list_string()}: runs of two or more CPUs print as lo-hi. */
  static String toCpuList(BitmapCpuMask mask) {
    StringBuilder text = new StringBuilder();
    int nrCpuIds = mask.nrCpuIds;
    for (int lo = mask.findSet(0, nrCpuIds); lo != CpuMask.NO_CPU; ) {
      int hi = mask.findClear(lo) - 1;
      if (text.length() > 0) {
        text.append(',');
      }
      text.append(lo);
      if (hi > lo) {
        text.append('-').append(hi);
      }
      lo = mask.findSet(hi + 1, nrCpuIds);
    }
    return text.toString();
  }

  /**
   * Equivalent of {@code bitmap_string()}: 32-bit chunks, most significant first, 8 digits each
   * except the first, which has just enough digits for the bits of the width it holds.
   */
  static String toHex(BitmapCpuMask mask) {
    int chunks = chunkCount(mask.nrCpuIds);
    int firstDigits = (firstChunkBits(mask.nrCpuIds) + 3) >>> 2;
    StringBuilder text = new StringBuilder(chunks * 9);
    for (int chunk = chunks - 1; chunk >= 0; chunk--) {
      long value = (mask.words[chunk >>> 1] >>> ((chunk & 1) << 5)) & 0xffff_ffffL;
      for (int digit = (chunk == chunks - 1 ? firstDigits : 8) - 1; digit >= 0; digit--) {
        text.append(HEX_DIGITS[(int) (value >>> (digit << 2)) & 0xf]);
      }
      if (chunk > 0) {
        text.append(',');
      }
    }
    return text.toString();
  }

  private static int chunkCount(int nrCpuIds) {
    return (nrCpuIds + 31) >>> 5;
  }

  /** Bits of the width held by the most significant chunk: 1 to 32. */
  private static int firstChunkBits(int nrCpuIds) {
    return nrCpuIds - ((chunkCount(nrCpuIds) - 1) << 5);
  }

  /** Equivalent of {@code cpulist_parse()}; see {@link CpuMasks#parseCpuList}. */
  static long[] parseCpuList(String text, int nrCpuIds) {
    Objects.requireNonNull(text, "text");
    BitmapCpuMask.checkWidth(nrCpuIds);
    return new CpuListParser(text, nrCpuIds).parse();
  }

  /** Equivalent of {@code cpumask_parse()}; see {@link CpuMasks#parseHex}. */
  static long[] parseHex(String text, int nrCpuIds) {
    Objects.requireNonNull(text, "text");
    BitmapCpuMask.checkWidth(nrCpuIds);
    return new HexParser(text, nrCpuIds).parse();
  }

  /** Matches C {@code isspace()}, which is what the kernel parsers skip. */
  private static boolean isSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }

  private static String cpuRange(int nrCpuIds) {
    return nrCpuIds == 1 ? "CPU 0" : "CPUs 0-" + (nrCpuIds - 1);
  }

  /** The value of an ASCII hex digit, either case, or -1. */
  private static int hexValue(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  /** Shared by both parsers: the trimmed bounds of the input and error reporting. */
  private abstract static class Parser {
    final String text;
    final int nrCpuIds;
    final int end;
    int pos;

    Parser(String text, int nrCpuIds) {
      this.text = text;
      this.nrCpuIds = nrCpuIds;
      int last = text.length();
      while (last > 0 && isSpace(text.charAt(last - 1))) {
        last--;
      }
      int first = 0;
      while (first < last && isSpace(text.charAt(first))) {
        first++;
      }
      this.end = last;
      this.pos = first;
    }

    abstract String form();

    abstract String expected();

    final IllegalArgumentException fail(int position, String problem) {
      return new IllegalArgumentException(
          "invalid "
              + form()
              + " "
              + InputText.quote(text)
              + " at position "
              + position
              + ": "
              + problem
              + " ("
              + expected()
              + ")");
    }

    final boolean atEnd() {
      return pos == end;
    }

    final char peek() {
      return text.charAt(pos);
    }
  }

  /**
   * Equivalent of {@code bitmap_parselist()}: comma-separated entries {@code A}, {@code A-B} or
   * {@code A-B:USED/GROUP}, where {@code N} may stand for the last CPU. Unlike the kernel, an empty
   * entry (leading, doubled or trailing comma) is rejected.
   */
  private static final class CpuListParser extends Parser {
    private final long[] words;

    CpuListParser(String text, int nrCpuIds) {
      super(text, nrCpuIds);
      this.words = new long[BitmapCpuMask.wordCountFor(nrCpuIds)];
    }

    @Override
    String form() {
      return "cpulist";
    }

    @Override
    String expected() {
      return "expected comma-separated entries A, A-B or A-B:USED/GROUP with "
          + cpuRange(nrCpuIds)
          + ", N meaning "
          + (nrCpuIds - 1);
    }

    long[] parse() {
      if (atEnd()) {
        return words;
      }
      while (true) {
        parseEntry();
        if (atEnd()) {
          return words;
        }
        if (peek() != ',') {
          throw fail(pos, "unexpected character " + InputText.describe(peek()));
        }
        pos++;
      }
    }

    private void parseEntry() {
      if (atEnd() || peek() == ',') {
        throw fail(pos, "empty entry");
      }
      int start = parseCpu();
      if (atEnd() || peek() != '-') {
        BitmapCpuMask.setBits(words, start, start);
        return;
      }
      pos++;
      int endPosition = pos;
      int last = parseCpu();
      if (last < start) {
        throw fail(endPosition, "range end " + last + " is below its start " + start);
      }
      if (atEnd() || peek() != ':') {
        BitmapCpuMask.setBits(words, start, last);
        return;
      }
      pos++;
      int usedPosition = pos;
      long used = parseNumber("a used count");
      if (atEnd() || peek() != '/') {
        throw fail(pos, "expected '/' between the used count and the group size");
      }
      pos++;
      int groupPosition = pos;
      long group = parseNumber("a group size");
      if (group == 0) {
        throw fail(groupPosition, "group size 0");
      }
      if (used > group) {
        throw fail(usedPosition, "used count " + used + " exceeds group size " + group);
      }
      for (long groupStart = start; groupStart <= last; groupStart += group) {
        long setEnd = Math.min(last, groupStart + used - 1);
        if (setEnd >= groupStart) {
          BitmapCpuMask.setBits(words, (int) groupStart, (int) setEnd);
        }
      }
    }

    private int parseCpu() {
      int numberPosition = pos;
      if (!atEnd() && peek() == 'N') {
        pos++;
        return nrCpuIds - 1;
      }
      if (!atEnd() && peek() == '-') {
        throw fail(pos, "negative CPU");
      }
      long cpu = parseNumber("a CPU number");
      if (cpu >= nrCpuIds) {
        throw fail(numberPosition, "CPU " + cpu + " out of range");
      }
      return (int) cpu;
    }

    private long parseNumber(String what) {
      int numberPosition = pos;
      if (atEnd()) {
        throw fail(pos, "expected " + what + " but the text ends");
      }
      if (!isDigit(peek())) {
        throw fail(pos, "expected " + what + " but found " + InputText.describe(peek()));
      }
      long value = 0;
      while (!atEnd() && isDigit(peek())) {
        value = value * 10 + (peek() - '0');
        if (value > Integer.MAX_VALUE) {
          throw fail(numberPosition, "number too large");
        }
        pos++;
      }
      return value;
    }

    private static boolean isDigit(char c) {
      return c >= '0' && c <= '9';
    }
  }

  /**
   * Parses the {@code %*pb} form, stricter than {@code bitmap_parse()} so that a mask of the wrong
   * width is caught: exactly {@code ceil(nrCpuIds / 32)} comma-separated chunks; every chunk but
   * the first has exactly 8 hex digits; the first has 1 to 8 digits (the kernel prints just enough
   * digits for the width, and shorter forms zero-extend) and no bit at or above {@code nrCpuIds}.
   * Upper- and lower-case digits are accepted; a {@code 0x} prefix is not.
   */
  private static final class HexParser extends Parser {

    HexParser(String text, int nrCpuIds) {
      super(text, nrCpuIds);
    }

    @Override
    String form() {
      return "hex cpumask";
    }

    @Override
    String expected() {
      int chunks = chunkCount(nrCpuIds);
      String range = " for " + nrCpuIds + (nrCpuIds == 1 ? " CPU" : " CPUs");
      String limit = ", no CPU above " + (nrCpuIds - 1);
      if (chunks == 1) {
        return "expected 1 chunk of 1-8 hex digits" + range + limit;
      }
      return "expected "
          + chunks
          + " comma-separated chunks"
          + range
          + ": the first of 1-8 hex digits"
          + limit
          + ", then 8 hex digits each";
    }

    long[] parse() {
      int textStart = pos;
      if (atEnd()) {
        throw fail(pos, "no hex digits");
      }
      int chunks = 1;
      for (int i = pos; i < end; i++) {
        if (text.charAt(i) == ',') {
          chunks++;
        }
      }
      long[] chunkValues = new long[chunks];
      for (int chunk = 0; chunk < chunks; chunk++) {
        chunkValues[chunk] = parseChunk(chunk == 0);
        pos++;
      }
      int expectedChunks = chunkCount(nrCpuIds);
      if (chunks != expectedChunks) {
        throw fail(
            textStart,
            "found " + chunks + (chunks == 1 ? " chunk" : " chunks") + ", need " + expectedChunks);
      }
      int firstBits = firstChunkBits(nrCpuIds);
      if (firstBits < 32 && (chunkValues[0] >>> firstBits) != 0) {
        throw fail(textStart, "bits set at or above CPU " + nrCpuIds);
      }
      long[] words = new long[BitmapCpuMask.wordCountFor(nrCpuIds)];
      for (int chunk = 0; chunk < chunks; chunk++) {
        int bitChunk = chunks - 1 - chunk;
        words[bitChunk >>> 1] |= chunkValues[chunk] << ((bitChunk & 1) << 5);
      }
      return words;
    }

    /** Parses one chunk up to the next comma or the end; leaves {@code pos} on the comma. */
    private long parseChunk(boolean first) {
      int chunkStart = pos;
      long value = 0;
      while (!atEnd() && peek() != ',') {
        int digit = hexValue(peek());
        if (digit < 0) {
          throw fail(pos, InputText.describe(peek()) + " is not a hex digit");
        }
        if (pos - chunkStart == 8) {
          throw fail(chunkStart, "chunk longer than 8 hex digits");
        }
        value = (value << 4) | digit;
        pos++;
      }
      int digits = pos - chunkStart;
      if (digits == 0) {
        throw fail(chunkStart, "empty chunk");
      }
      if (!first && digits != 8) {
        throw fail(
            chunkStart,
            "chunk of " + digits + " hex digits; only the first chunk may have fewer than 8");
      }
      return value;
    }
  }
}
