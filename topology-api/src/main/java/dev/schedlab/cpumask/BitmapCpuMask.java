package dev.schedlab.cpumask;

import java.util.Arrays;
import org.eclipse.collections.api.block.procedure.primitive.IntProcedure;

/**
 * The shared read side of every mask in this package: a fixed width and the {@code long} words
 * holding the bits, the equivalent of {@code struct cpumask} with {@code nr_cpumask_bits} set to
 * the width.
 *
 * <p>Subclasses differ only in who may write the words. Every search reads the live words, so
 * cursor loops see bits cleared ahead of the cursor. Another mask taking part in an operation is
 * read straight from its {@code long[]} when it is one of this package's masks or a scratch-mask
 * lease ({@link #wordsOf}), and through {@link CpuMask#word(int)} otherwise, which keeps foreign
 * implementations working without copies.
 */
abstract sealed class BitmapCpuMask implements CpuMask
    permits MutableBitmapCpuMask, ImmutableBitmapCpuMask, UnmodifiableBitmapCpuMask {

  final int nrCpuIds;
  final long[] words;

  /**
   * The words {@code [scanStart, scanEnd)} are the only ones that can hold set bits: all of them
   * for a writable mask or a view, only those from the first to the last non-zero word for a frozen
   * one. Searches start and stop there, so a small span of a wide machine (an SMT group of 8192
   * CPUs) costs its own words, not a scan of the other 127 to the end or from the start.
   */
  final int scanStart;

  final int scanEnd;

  /** Takes ownership of {@code words}, which must be {@code wordCountFor(nrCpuIds)} long. */
  BitmapCpuMask(int nrCpuIds, long[] words) {
    this(nrCpuIds, words, 0, words.length);
  }

  /** As above, for words that never change outside {@code [scanStart, scanEnd)}, all zero. */
  BitmapCpuMask(int nrCpuIds, long[] words, int scanStart, int scanEnd) {
    this.nrCpuIds = nrCpuIds;
    this.words = words;
    this.scanStart = scanStart;
    this.scanEnd = scanEnd;
  }

  /**
   * The backing words of one of this package's masks (a scratch-mask lease gives its slot's), or
   * {@code null} for a foreign implementation. Such words never have bits at or above the width
   * set, so operations on them need no trimming; callers only read them.
   */
  static long[] wordsOf(CpuMask mask) {
    if (mask instanceof BitmapCpuMask bitmap) {
      return bitmap.words;
    }
    if (mask instanceof ScratchMask lease) {
      return lease.words();
    }
    return null;
  }

  /** Validates a mask width; returns it. */
  static int checkWidth(int nrCpuIds) {
    if (nrCpuIds < 1 || nrCpuIds > MAX_CPUS) {
      throw new IllegalArgumentException(
          "nrCpuIds " + nrCpuIds + " outside the allowed range 1-" + MAX_CPUS);
    }
    return nrCpuIds;
  }

  static int wordCountFor(int nrCpuIds) {
    return (nrCpuIds + 63) >>> 6;
  }

  /** The valid bits of the top word; Java masks the shift count, so a multiple of 64 gives ~0. */
  static long lastWordMask(int nrCpuIds) {
    return -1L >>> -nrCpuIds;
  }

  /** Sets bits {@code from..toInclusive} of {@code words}; the caller has checked the range. */
  static void setBits(long[] words, int from, int toInclusive) {
    int firstWord = from >>> 6;
    int lastWord = toInclusive >>> 6;
    long firstMask = -1L << from;
    long lastMask = -1L >>> (63 - (toInclusive & 63));
    if (firstWord == lastWord) {
      words[firstWord] |= firstMask & lastMask;
      return;
    }
    words[firstWord] |= firstMask;
    for (int i = firstWord + 1; i < lastWord; i++) {
      words[i] = -1L;
    }
    words[lastWord] |= lastMask;
  }

  /** The hash every mask implementation uses, so equal masks hash alike whatever their class. */
  static int hashOf(CpuMask mask) {
    // Each word goes through a 64-bit finaliser before it is combined, so masks that differ
    // only in which half of a word is set (CPU c versus c + 32) do not collide.
    long hash = mask.nrCpuIds();
    for (int i = 0, n = mask.wordCount(); i < n; i++) {
      hash = (hash ^ mix64(mask.word(i))) * 0x9E3779B97F4A7C15L;
    }
    return (int) (mix64(hash) >>> 32);
  }

  /** The finaliser of MurmurHash3 ({@code fmix64}): every input bit affects every output bit. */
  private static long mix64(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb93fe53a87c3L;
    return z ^ (z >>> 33);
  }

  static String describe(CpuMask mask) {
    return "CpuMask[" + mask.toCpuList() + " of " + mask.nrCpuIds() + "]";
  }

  final void checkCpu(int cpu) {
    if (cpu < 0 || cpu >= nrCpuIds) {
      throw new IndexOutOfBoundsException("CPU " + cpu + " out of range 0-" + (nrCpuIds - 1));
    }
  }

  /** Cursor arguments may also be -1, meaning "before the first CPU". */
  final void checkCursor(int cpu) {
    if (cpu < -1 || cpu >= nrCpuIds) {
      throw new IndexOutOfBoundsException("CPU cursor " + cpu + " outside -1 to " + (nrCpuIds - 1));
    }
  }

  final void checkSameWidth(CpuMask other) {
    // The field, not the interface call, for this package's own masks (the usual case: a call
    // through CpuMask is a megamorphic dispatch on every mask operation).
    int width = other instanceof BitmapCpuMask bitmap ? bitmap.nrCpuIds : other.nrCpuIds();
    if (width != nrCpuIds) {
      throw new IllegalArgumentException(
          "CPU masks of different widths: " + nrCpuIds + " and " + other.nrCpuIds());
    }
  }

  /** Lowest set bit in {@code [from, limit)}, or {@link #NO_CPU}. */
  final int findSet(int from, int limit) {
    if (from >= limit) {
      return NO_CPU;
    }
    int i = from >>> 6;
    long w = words[i] & (-1L << from);
    while (w == 0) {
      if ((++i << 6) >= limit) {
        return NO_CPU;
      }
      w = words[i];
    }
    int cpu = (i << 6) + Long.numberOfTrailingZeros(w);
    return cpu < limit ? cpu : NO_CPU;
  }

  /**
   * Lowest set bit at or above {@code from} (in {@code [0, nrCpuIds]}), or {@link #NO_CPU}: {@link
   * #findSet} up to the width, cheaper because bits above the width are always clear.
   */
  final int findNext(int from) {
    long[] words = this.words;
    int end = Math.min(scanEnd, words.length);
    int i = from >>> 6;
    if (i < scanStart) {
      i = scanStart;
      from = 0;
    }
    if (i >= end) {
      return NO_CPU;
    }
    long w = words[i] & (-1L << from);
    if (w != 0) {
      return (i << 6) + Long.numberOfTrailingZeros(w);
    }
    // A plain counted loop, which the JIT unrolls without range checks.
    for (i++; i < end; i++) {
      if (words[i] != 0) {
        return (i << 6) + Long.numberOfTrailingZeros(words[i]);
      }
    }
    return NO_CPU;
  }

  /** Lowest set bit of {@code this & other} at or above {@code from}, or {@link #NO_CPU}. */
  final int findSetAnd(int from, CpuMask other) {
    if (from >= nrCpuIds) {
      return NO_CPU;
    }
    long[] others = wordsOf(other);
    if (others != null) {
      return findSetAnd(from, others);
    }
    int i = from >>> 6;
    long w = words[i] & other.word(i) & (-1L << from);
    while (w == 0) {
      if (++i == words.length) {
        return NO_CPU;
      }
      w = words[i] & other.word(i);
    }
    return (i << 6) + Long.numberOfTrailingZeros(w);
  }

  private int findSetAnd(int from, long[] others) {
    long[] words = this.words;
    int end = Math.min(scanEnd, words.length);
    int i = from >>> 6;
    if (i < scanStart) {
      i = scanStart;
      from = 0;
    }
    if (i >= end) {
      return NO_CPU;
    }
    long w = words[i] & others[i] & (-1L << from);
    while (w == 0) {
      if (++i == end) {
        return NO_CPU;
      }
      w = words[i] & others[i];
    }
    return (i << 6) + Long.numberOfTrailingZeros(w);
  }

  /** Lowest set bit of {@code this & ~other} at or above {@code from}, or {@link #NO_CPU}. */
  final int findSetAndNot(int from, CpuMask other) {
    if (from >= nrCpuIds) {
      return NO_CPU;
    }
    int i = from >>> 6;
    long w = words[i] & ~other.word(i) & (-1L << from);
    while (w == 0) {
      if (++i == words.length) {
        return NO_CPU;
      }
      w = words[i] & ~other.word(i);
    }
    return (i << 6) + Long.numberOfTrailingZeros(w);
  }

  /** Lowest clear bit at or above {@code from}, or {@code nrCpuIds} when all are set. */
  final int findClear(int from) {
    if (from >= nrCpuIds) {
      return nrCpuIds;
    }
    int i = from >>> 6;
    long w = ~words[i] & (-1L << from);
    while (w == 0) {
      if (++i == words.length) {
        return nrCpuIds;
      }
      w = ~words[i];
    }
    // Bits above the width are always zero, so their complement stops the search there.
    return Math.min((i << 6) + Long.numberOfTrailingZeros(w), nrCpuIds);
  }

  @Override
  public final int nrCpuIds() {
    return nrCpuIds;
  }

  @Override
  public final int wordCount() {
    return words.length;
  }

  @Override
  public final long word(int index) {
    return words[index];
  }

  @Override
  public final boolean test(int cpu) {
    checkCpu(cpu);
    return (words[cpu >>> 6] & (1L << cpu)) != 0;
  }

  @Override
  public final int weight() {
    int weight = 0;
    for (int i = scanStart; i < scanEnd; i++) {
      weight += Long.bitCount(words[i]);
    }
    return weight;
  }

  @Override
  public final int weightAnd(CpuMask other) {
    checkSameWidth(other);
    int weight = 0;
    for (int i = scanStart; i < scanEnd; i++) {
      weight += Long.bitCount(words[i] & other.word(i));
    }
    return weight;
  }

  @Override
  public final boolean isEmpty() {
    for (int i = scanStart; i < scanEnd; i++) {
      if (words[i] != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public final boolean isFull() {
    int last = words.length - 1;
    for (int i = 0; i < last; i++) {
      if (words[i] != -1L) {
        return false;
      }
    }
    return words[last] == lastWordMask(nrCpuIds);
  }

  @Override
  public final int first() {
    return findNext(0);
  }

  @Override
  public final int last() {
    for (int i = Math.min(scanEnd, words.length) - 1; i >= scanStart; i--) {
      long w = words[i];
      if (w != 0) {
        return (i << 6) + 63 - Long.numberOfLeadingZeros(w);
      }
    }
    return NO_CPU;
  }

  @Override
  public final int next(int cpu) {
    checkCursor(cpu);
    return findNext(cpu + 1);
  }

  @Override
  public final int firstAnd(CpuMask other) {
    checkSameWidth(other);
    return findSetAnd(0, other);
  }

  @Override
  public final int nextAnd(int cpu, CpuMask other) {
    checkCursor(cpu);
    checkSameWidth(other);
    return findSetAnd(cpu + 1, other);
  }

  @Override
  public final int firstAndNot(CpuMask other) {
    checkSameWidth(other);
    return findSetAndNot(0, other);
  }

  @Override
  public final int nextAndNot(int cpu, CpuMask other) {
    checkCursor(cpu);
    checkSameWidth(other);
    return findSetAndNot(cpu + 1, other);
  }

  @Override
  public final int nextWrap(int cpu) {
    checkCursor(cpu);
    int found = findSet(cpu + 1, nrCpuIds);
    return found != NO_CPU ? found : findSet(0, cpu + 1);
  }

  @Override
  public final void forEachCpuWrap(int start, IntProcedure procedure) {
    checkCpu(start);
    forEachCpuIn(start, nrCpuIds, procedure);
    forEachCpuIn(0, start, procedure);
  }

  /** {@link #forEachCpu} restricted to {@code [from, limit)}, reading the live mask likewise. */
  private void forEachCpuIn(int from, int limit, IntProcedure procedure) {
    if (from >= limit) {
      return;
    }
    long[] words = this.words;
    int firstWord = from >>> 6;
    int lastWord = (limit - 1) >>> 6;
    long lastMask = -1L >>> (63 - ((limit - 1) & 63));
    for (int i = firstWord; i <= lastWord; i++) {
      long range = (i == firstWord ? -1L << from : -1L) & (i == lastWord ? lastMask : -1L);
      for (long w = words[i] & range; w != 0; ) {
        int bit = Long.numberOfTrailingZeros(w);
        procedure.value((i << 6) + bit);
        long next = w & (w - 1);
        long live = words[i] & range & (-2L << bit);
        if (live != next) {
          next = live;
        }
        w = next;
      }
    }
  }

  @Override
  public final void forEachCpu(IntProcedure procedure) {
    long[] words = this.words;
    for (int i = 0; i < words.length; i++) {
      for (long w = words[i]; w != 0; ) {
        int bit = Long.numberOfTrailingZeros(w);
        procedure.value((i << 6) + bit);
        // The live word past the visited bit, so CPUs the procedure cleared (or set) ahead of the
        // cursor are skipped (or visited) exactly as a first()/next() loop would. Usually it is
        // what clearing the visited bit gives, and taking that on the branch's predicted path
        // keeps the bit search off the loop's dependency chain.
        long next = w & (w - 1);
        long live = words[i] & (-2L << bit);
        if (live != next) {
          next = live;
        }
        w = next;
      }
    }
  }

  @Override
  public final void forEachCpuAnd(CpuMask other, IntProcedure procedure) {
    checkSameWidth(other);
    long[] words = this.words;
    long[] others = wordsOf(other);
    for (int i = 0; i < words.length; i++) {
      long w = words[i] & (others != null ? others[i] : other.word(i));
      while (w != 0) {
        int bit = Long.numberOfTrailingZeros(w);
        procedure.value((i << 6) + bit);
        // Both masks are reread past the visited bit, as nextAnd() would read them (see
        // forEachCpu for why the reread is compared rather than used directly).
        long next = w & (w - 1);
        long live = words[i] & (others != null ? others[i] : other.word(i)) & (-2L << bit);
        if (live != next) {
          next = live;
        }
        w = next;
      }
    }
  }

  @Override
  public final boolean intersects(CpuMask other) {
    checkSameWidth(other);
    // Outside [scanStart, scanEnd) this mask's words are zero: nothing there can intersect.
    for (int i = scanStart; i < scanEnd; i++) {
      if ((words[i] & other.word(i)) != 0) {
        return true;
      }
    }
    return false;
  }

  @Override
  public final boolean isSubsetOf(CpuMask other) {
    checkSameWidth(other);
    for (int i = scanStart; i < scanEnd; i++) {
      if ((words[i] & ~other.word(i)) != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public final boolean contentEquals(CpuMask other) {
    checkSameWidth(other);
    return other == this || sameWords(other);
  }

  private boolean sameWords(CpuMask other) {
    for (int i = 0; i < words.length; i++) {
      if (words[i] != other.word(i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public final boolean equals(Object other) {
    if (other == this) {
      return true;
    }
    return other instanceof CpuMask mask && mask.nrCpuIds() == nrCpuIds && sameWords(mask);
  }

  @Override
  public int hashCode() {
    return hashOf(this);
  }

  @Override
  public final String toCpuList() {
    return CpuMaskText.toCpuList(this);
  }

  @Override
  public final String toHex() {
    return CpuMaskText.toHex(this);
  }

  @Override
  public final MutableCpuMask mutableCopy() {
    return new MutableBitmapCpuMask(nrCpuIds, Arrays.copyOf(words, words.length));
  }

  @Override
  public ImmutableCpuMask toImmutable() {
    return new ImmutableBitmapCpuMask(nrCpuIds, Arrays.copyOf(words, words.length));
  }

  @Override
  public final String toString() {
    return describe(this);
  }
}
