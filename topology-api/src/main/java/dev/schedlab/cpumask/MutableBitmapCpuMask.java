package dev.schedlab.cpumask;

/**
 * The writable mask: the equivalent of a {@code cpumask_var_t} a caller owns. Every write keeps
 * the bits at or above the width clear, which the searches and {@link #isFull()} rely on.
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
    for (int i = 0; i < words.length; i++) {
      words[i] = src.word(i);
    }
    trimLastWord();
  }

  @Override
  public boolean and(CpuMask a, CpuMask b) {
    checkSameWidth(a);
    checkSameWidth(b);
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
    for (int i = 0; i < words.length; i++) {
      words[i] = a.word(i) | b.word(i);
    }
    trimLastWord();
  }

  @Override
  public void xor(CpuMask a, CpuMask b) {
    checkSameWidth(a);
    checkSameWidth(b);
    for (int i = 0; i < words.length; i++) {
      words[i] = a.word(i) ^ b.word(i);
    }
    trimLastWord();
  }

  @Override
  public boolean andNot(CpuMask a, CpuMask b) {
    checkSameWidth(a);
    checkSameWidth(b);
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
  public CpuMask asUnmodifiable() {
    return new UnmodifiableBitmapCpuMask(nrCpuIds, words);
  }
}
