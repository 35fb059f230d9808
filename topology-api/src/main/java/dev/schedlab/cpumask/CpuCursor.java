package dev.schedlab.cpumask;

/**
 * A forward walk over the set CPUs of a mask, of two masks' intersection, or of one mask less
 * another: {@code for_each_cpu()}, {@code for_each_cpu_and()} and {@code for_each_cpu_andnot()} as
 * a loop without a callback, keeping the current word between steps.
 *
 * <pre>{@code
 * CpuCursor cursor = new CpuCursor();           // once, e.g. a field: it is reusable
 * for (int cpu = cursor.overAnd(idle, allowed).next(); cpu != CpuMask.NO_CPU;
 *     cpu = cursor.next()) {
 *   ...
 * }
 * }</pre>
 *
 * <p>Why it exists: {@link CpuMask#next(int)} and {@link CpuMask#nextAnd(int, CpuMask)} are
 * stateless, like the kernel's {@code find_next_bit()}, so each step recomputes the word index from
 * the cursor and reloads the word: a load and a search sit on the loop-carried chain of every step.
 * This cursor peels the word it holds ({@code w & (w - 1)}) and reads the next word only when the
 * current one is exhausted (benchmarks/README.md, {@code CpuMaskBenchmark}).
 *
 * <p>What it sees of a mask changed during the walk: each word is read when the walk reaches it, so
 * CPUs set or cleared in later words are seen as a {@code next()} loop sees them, but changes to
 * the word being walked, after it was read, are not (a {@code next()} loop would see them). Loops
 * that clear CPUs ahead of the cursor within its word and must skip them use {@link
 * CpuMask#forEachCpu} or {@code next()}.
 *
 * <p>Allocates nothing after construction; one instance per thread (not thread-safe).
 */
public final class CpuCursor {

  private static final int SINGLE = 0;
  private static final int AND = 1;
  private static final int AND_NOT = 2;

  /** Backing words of the operands when they are this package's masks, else null. */
  private long[] wordsA;

  private long[] wordsB;

  /** The operands, read through {@link CpuMask#word(int)} when their words are not at hand. */
  private CpuMask maskA;

  private CpuMask maskB;
  private int mode;
  private int wordCount;

  /** Index of the word being walked. */
  private int index;

  /** The bits of that word not yet returned. */
  private long word;

  /** A cursor over nothing: {@link #next()} returns {@link CpuMask#NO_CPU} until started. */
  public CpuCursor() {}

  /** Starts a walk over {@code mask}'s set CPUs ({@code for_each_cpu()}); returns this. */
  public CpuCursor over(CpuMask mask) {
    return start(SINGLE, mask, null);
  }

  /**
   * Starts a walk over the CPUs set in both masks ({@code for_each_cpu_and()}); returns this.
   *
   * @throws IllegalArgumentException if the widths differ
   */
  public CpuCursor overAnd(CpuMask a, CpuMask b) {
    return start(AND, a, b);
  }

  /**
   * Starts a walk over the CPUs set in {@code a} and clear in {@code b} ({@code
   * for_each_cpu_andnot()}); returns this.
   *
   * @throws IllegalArgumentException if the widths differ
   */
  public CpuCursor overAndNot(CpuMask a, CpuMask b) {
    return start(AND_NOT, a, b);
  }

  private CpuCursor start(int newMode, CpuMask a, CpuMask b) {
    if (b != null && a.nrCpuIds() != b.nrCpuIds()) {
      throw new IllegalArgumentException(
          "mask widths differ: " + a.nrCpuIds() + " and " + b.nrCpuIds());
    }
    mode = newMode;
    maskA = a;
    maskB = b;
    wordsA = BitmapCpuMask.wordsOf(a);
    wordsB = b == null ? null : BitmapCpuMask.wordsOf(b);
    wordCount = a.wordCount();
    index = 0;
    word = load(0);
    return this;
  }

  /**
   * The next CPU of the walk in ascending order, or {@link CpuMask#NO_CPU} when the walk is over
   * (and at every call after that, until the cursor is started again).
   */
  public int next() {
    long w = word;
    if (w == 0) {
      w = advance();
      if (w == 0) {
        return CpuMask.NO_CPU;
      }
    }
    word = w & (w - 1);
    return (index << 6) | Long.numberOfTrailingZeros(w);
  }

  /**
   * Moves to the next word with a CPU in the walked set and returns it; 0, with the index past the
   * last word, when there is none. Kept out of {@link #next()} so that the per-CPU path stays small
   * enough to inline.
   */
  private long advance() {
    while (index + 1 < wordCount) {
      long w = load(++index);
      if (w != 0) {
        return w;
      }
    }
    index = wordCount;
    return 0;
  }

  /** Word {@code i} of the walked set; 0 past the end or before any start. */
  private long load(int i) {
    if (i >= wordCount) {
      return 0;
    }
    long a = wordsA != null ? wordsA[i] : trimmed(maskA, i);
    return switch (mode) {
      case AND -> a & (wordsB != null ? wordsB[i] : maskB.word(i));
      case AND_NOT -> a & ~(wordsB != null ? wordsB[i] : maskB.word(i));
      default -> a;
    };
  }

  /** A foreign mask's word with any bits at or above its width cleared. */
  private static long trimmed(CpuMask mask, int i) {
    long w = mask.word(i);
    return i == mask.wordCount() - 1 ? w & BitmapCpuMask.lastWordMask(mask.nrCpuIds()) : w;
  }
}
