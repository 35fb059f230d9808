package dev.schedlab.cpumask;

/**
 * The writable mask: the equivalent of a {@code cpumask_var_t} a caller owns. Every write keeps the
 * bits at or above the width clear, which the searches and {@link #isFull()} rely on.
 *
 * <p>Binary operations whose operands are this package's masks run a plain loop over the backing
 * arrays (no call per word, no trimming, since such operands already have those bits clear), which
 * the JIT can unroll and vectorise; other operands go through {@link CpuMask#word(int)}.
 */
final class MutableBitmapCpuMask extends BitmapCpuMask implements MutableCpuMask {

  private final long lastWordMask;

  MutableBitmapCpuMask(int nrCpuIds) {
    this(nrCpuIds, new long[wordCountFor(checkWidth(nrCpuIds))]);
  }

  MutableBitmapCpuMask(int nrCpuIds, long[] words) {
    super(nrCpuIds, words);
    this.lastWordMask = lastWordMask(nrCpuIds);
  }

  /** Drops bits a foreign {@link CpuMask} implementation may have set above the width. */
  private void trimLastWord() {
    words[words.length - 1] &= lastWordMask;
  }

  @Override
  public void set(int cpu) {
    checkCpu(cpu);
    words[cpu >>> 6] |= 1L << cpu;
  }

  @Override
  public void setRange(int from, int to) {
    checkCpu(from);
    checkCpu(to);
    if (from > to) {
      throw new IllegalArgumentException("range start " + from + " above its end " + to);
    }
    setBits(words, from, to);
  }

  @Override
  public void clear(int cpu) {
    checkCpu(cpu);
    words[cpu >>> 6] &= ~(1L << cpu);
  }

  @Override
  public boolean testAndSet(int cpu) {
    checkCpu(cpu);
    long bit = 1L << cpu;
    long old = words[cpu >>> 6];
    words[cpu >>> 6] = old | bit;
    return (old & bit) != 0;
  }

  @Override
  public boolean testAndClear(int cpu) {
    checkCpu(cpu);
    long bit = 1L << cpu;
    long old = words[cpu >>> 6];
    words[cpu >>> 6] = old & ~bit;
    return (old & bit) != 0;
  }

  @Override
  public void clearAll() {
    for (int i = 0; i < words.length; i++) {
      words[i] = 0;
    }
  }

  @Override
  public void fill() {
    for (int i = 0; i < words.length; i++) {
      words[i] = -1L;
    }
    trimLastWord();
  }

  @Override
  public void copyFrom(CpuMask src) {
    checkSameWidth(src);
    long[] source = wordsOf(src);
    if (source != null) {
      System.arraycopy(source, 0, words, 0, words.length);
      return;
    }
    for (int i = 0; i < words.length; i++) {
      words[i] = src.word(i);
    }
    trimLastWord();
  }

  @Override
  public boolean and(CpuMask a, CpuMask b) {
    checkSameWidth(a);
    checkSameWidth(b);
    long[] left = wordsOf(a);
    long[] right = wordsOf(b);
    if (left != null && right != null) {
      long[] words = this.words;
      long any = 0;
      for (int i = 0; i < words.length; i++) {
        long w = left[i] & right[i];
        words[i] = w;
        any |= w;
      }
      return any != 0;
    }
    long any = 0;
    int last = words.length - 1;
    for (int i = 0; i <= last; i++) {
      long w = a.word(i) & b.word(i);
      if (i == last) {
        w &= lastWordMask;
      }
      words[i] = w;
      any |= w;
    }
    return any != 0;
  }

  @Override
  public void or(CpuMask a, CpuMask b) {
    checkSameWidth(a);
    checkSameWidth(b);
    long[] left = wordsOf(a);
    long[] right = wordsOf(b);
    if (left != null && right != null) {
      long[] words = this.words;
      for (int i = 0; i < words.length; i++) {
        words[i] = left[i] | right[i];
      }
      return;
    }
    for (int i = 0; i < words.length; i++) {
      words[i] = a.word(i) | b.word(i);
    }
    trimLastWord();
  }

  @Override
  public void xor(CpuMask a, CpuMask b) {
    checkSameWidth(a);
    checkSameWidth(b);
    long[] left = wordsOf(a);
    long[] right = wordsOf(b);
    if (left != null && right != null) {
      long[] words = this.words;
      for (int i = 0; i < words.length; i++) {
        words[i] = left[i] ^ right[i];
      }
      return;
    }
    for (int i = 0; i < words.length; i++) {
      words[i] = a.word(i) ^ b.word(i);
    }
    trimLastWord();
  }

  @Override
  public boolean andNot(CpuMask a, CpuMask b) {
    checkSameWidth(a);
    checkSameWidth(b);
    long[] left = wordsOf(a);
    long[] right = wordsOf(b);
    if (left != null && right != null) {
      long[] words = this.words;
      long any = 0;
      for (int i = 0; i < words.length; i++) {
        long w = left[i] & ~right[i];
        words[i] = w;
        any |= w;
      }
      return any != 0;
    }
    long any = 0;
    int last = words.length - 1;
    for (int i = 0; i <= last; i++) {
      long w = a.word(i) & ~b.word(i);
      if (i == last) {
        w &= lastWordMask;
      }
      words[i] = w;
      any |= w;
    }
    return any != 0;
  }

  @Override
  public boolean andWith(CpuMask other) {
    return and(this, other);
  }

  @Override
  public void orWith(CpuMask other) {
    or(this, other);
  }

  @Override
  public boolean andNotWith(CpuMask other) {
    return andNot(this, other);
  }

  @Override
  public void removeAll(CpuMask other) {
    checkSameWidth(other);
    long[] words = this.words;
    if (other instanceof ImmutableBitmapCpuMask immutable && immutable.nonZeroWords != null) {
      // A sparse constant such as cpu_smt_mask(): only its few non-zero words can clear anything.
      long[] others = immutable.words;
      for (int i : immutable.nonZeroWords) {
        words[i] &= ~others[i];
      }
      return;
    }
    long[] others = wordsOf(other);
    if (others != null) {
      for (int i = 0; i < words.length; i++) {
        words[i] &= ~others[i];
      }
      return;
    }
    // Clearing can only drop bits, so a foreign mask's bits above the width do no harm here.
    for (int i = 0; i < words.length; i++) {
      words[i] &= ~other.word(i);
    }
  }

  @Override
  public CpuMask asUnmodifiable() {
    return new UnmodifiableBitmapCpuMask(nrCpuIds, words);
  }
}
