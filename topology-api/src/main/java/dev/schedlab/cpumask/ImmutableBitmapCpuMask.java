package dev.schedlab.cpumask;

/**
 * The frozen mask: the equivalent of a {@code const struct cpumask} built once, such as a
 * sched-domain span. Nothing writes its words after construction, so it may be shared freely.
 *
 * <p>A sparse mask (at most a quarter of its words non-zero, such as {@code cpu_smt_mask()} on a
 * wide machine) also records which words are non-zero, so that {@link
 * MutableCpuMask#removeAll(CpuMask)} with it as the operand touches only those words instead of all
 * {@code nrCpuIds / 64}.
 */
final class ImmutableBitmapCpuMask extends BitmapCpuMask implements ImmutableCpuMask {

  /** Indices of the non-zero words, ascending, when the mask is sparse; otherwise {@code null}. */
  final int[] nonZeroWords;

  /** The words never change, so the hash is computed once: spans are used as map keys. */
  private final int hash;

  /** Takes ownership of {@code words}; no reference to them may escape elsewhere. */
  ImmutableBitmapCpuMask(int nrCpuIds, long[] words) {
    super(nrCpuIds, words, firstNonZero(words), lastNonZero(words) + 1);
    this.nonZeroWords = sparseIndex(words);
    this.hash = hashOf(this);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  /** Index of the first non-zero word, or 0 when there is none. */
  private static int firstNonZero(long[] words) {
    for (int i = 0; i < words.length; i++) {
      if (words[i] != 0) {
        return i;
      }
    }
    return 0;
  }

  /** Index of the last non-zero word, or -1 when there is none. */
  private static int lastNonZero(long[] words) {
    for (int i = words.length - 1; i >= 0; i--) {
      if (words[i] != 0) {
        return i;
      }
    }
    return -1;
  }

  private static int[] sparseIndex(long[] words) {
    int nonZero = 0;
    for (long w : words) {
      if (w != 0) {
        nonZero++;
      }
    }
    if (nonZero > words.length / 4) {
      return null;
    }
    int[] index = new int[nonZero];
    for (int i = 0, n = 0; i < words.length; i++) {
      if (words[i] != 0) {
        index[n++] = i;
      }
    }
    return index;
  }

  @Override
  public ImmutableCpuMask toImmutable() {
    return this;
  }
}
