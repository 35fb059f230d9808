package dev.schedlab.cpumask;

import java.util.Objects;

/**
 * Creates masks: the equivalent of {@code alloc_cpumask_var()} plus the kernel's constant masks and
 * text parsers.
 *
 * <p>Every width must lie in {@code [1, }{@link CpuMask#MAX_CPUS}{@code ]}, otherwise the factory
 * throws {@link IllegalArgumentException} naming that range. A CPU number outside {@code [0,
 * nrCpuIds)} given to a factory or to a mask method throws {@link IndexOutOfBoundsException}, as
 * {@link java.util.BitSet} does; malformed text throws {@link IllegalArgumentException}.
 */
public final class CpuMasks {

  private CpuMasks() {}

  /**
   * A new empty mutable mask: the equivalent of {@code zalloc_cpumask_var()}. Allocates.
   *
   * @throws IllegalArgumentException if {@code nrCpuIds} is outside {@code [1, MAX_CPUS]}
   */
  public static MutableCpuMask mutable(int nrCpuIds) {
    return new MutableBitmapCpuMask(nrCpuIds);
  }

  /** The immutable empty mask: the equivalent of {@code CPU_MASK_NONE}. Allocates. */
  public static ImmutableCpuMask empty(int nrCpuIds) {
    BitmapCpuMask.checkWidth(nrCpuIds);
    return new ImmutableBitmapCpuMask(nrCpuIds, new long[BitmapCpuMask.wordCountFor(nrCpuIds)]);
  }

  /**
   * The immutable mask with every CPU below {@code nrCpuIds} set: the equivalent of {@code
   * CPU_MASK_ALL} (or of {@code cpu_possible_mask} when every id is possible). Allocates.
   */
  public static ImmutableCpuMask full(int nrCpuIds) {
    MutableBitmapCpuMask mask = new MutableBitmapCpuMask(nrCpuIds);
    mask.fill();
    return freeze(mask);
  }

  /**
   * An immutable mask holding exactly {@code cpus} (duplicates allowed): for one CPU the equivalent
   * of {@code cpumask_of()}, otherwise of a series of {@code cpumask_set_cpu()}. Allocates.
   */
  public static ImmutableCpuMask of(int nrCpuIds, int... cpus) {
    MutableBitmapCpuMask mask = new MutableBitmapCpuMask(nrCpuIds);
    for (int cpu : cpus) {
      mask.set(cpu);
    }
    return freeze(mask);
  }

  /**
   * An immutable mask holding CPUs {@code from..toInclusive}: the equivalent of {@code
   * bitmap_set()} on a cleared cpumask, or the cpulist entry {@code from-toInclusive}. Allocates.
   *
   * @throws IllegalArgumentException if {@code from > toInclusive}
   */
  public static ImmutableCpuMask range(int nrCpuIds, int from, int toInclusive) {
    MutableBitmapCpuMask mask = new MutableBitmapCpuMask(nrCpuIds);
    mask.setRange(from, toInclusive);
    return freeze(mask);
  }

  /**
   * Parses the cpulist form: the equivalent of {@code cpulist_parse()} ({@code
   * bitmap_parselist()}), as written to or read from sysfs {@code *list} files.
   *
   * <p>Accepted: comma-separated entries {@code A} (one CPU), {@code A-B} (CPUs A to B, A &le; B)
   * and {@code A-B:USED/GROUP} (from A up to B, the first USED CPUs of every GROUP, so {@code
   * 0-1023:2/256} is 0,1,256,257,512,513,768,769; GROUP &gt; 0, USED &le; GROUP). {@code N} may
   * stand for a CPU and means {@code nrCpuIds - 1}. Whitespace around the whole text (such as a
   * sysfs file's trailing newline) is ignored; the empty text is the empty mask. Rejected: an empty
   * entry (unlike the kernel, also a trailing comma), whitespace inside the text, a CPU at or above
   * {@code nrCpuIds}, a negative CPU, a range whose end is below its start, a number above {@link
   * Integer#MAX_VALUE}.
   *
   * @throws IllegalArgumentException on malformed text; the message quotes the input and gives the
   *     0-based index of the offending character, e.g. {@code invalid cpulist "1,,2" at position 2:
   *     empty entry (expected ...)}
   */
  public static ImmutableCpuMask parseCpuList(String text, int nrCpuIds) {
    return new ImmutableBitmapCpuMask(nrCpuIds, CpuMaskText.parseCpuList(text, nrCpuIds));
  }

  /**
   * Parses the comma-separated 32-bit hex form printed by {@link CpuMask#toHex()}: the equivalent
   * of {@code cpumask_parse()} ({@code bitmap_parse()}), as read from sysfs {@code cpumap} files
   * and {@code /proc/schedstat} domain lines.
   *
   * <p>Stricter than the kernel, so that a mask of another width cannot slip through: the text must
   * have exactly {@code ceil(nrCpuIds / 32)} chunks, most significant first; every chunk but the
   * first has exactly 8 hex digits; the first has 1 to 8 (the kernel prints {@code ceil(bits / 4)}
   * of them, and a shorter first chunk is zero-extended as the kernel does) and must not set a bit
   * at or above {@code nrCpuIds}. Digits may be upper or lower case; whitespace around the whole
   * text is ignored. So for 40 CPUs {@code ff,ffffffff}, {@code 0ff,ffffffff} and {@code
   * f,ffffffff} are accepted, while {@code ffffffff} (one chunk), {@code 1ff,ffffffff} (CPU 40) and
   * {@code ff,ffff} (short second chunk) are not.
   *
   * @throws IllegalArgumentException on malformed text or a wrong width; the message quotes the
   *     input and gives the 0-based index of the offending character
   */
  public static ImmutableCpuMask parseHex(String text, int nrCpuIds) {
    return new ImmutableBitmapCpuMask(nrCpuIds, CpuMaskText.parseHex(text, nrCpuIds));
  }

  /**
   * An immutable snapshot of {@code mask}: the equivalent of {@code cpumask_copy()} into a newly
   * allocated mask. Returns {@code mask} itself when it is already one of this package's immutable
   * masks; allocates otherwise.
   */
  public static ImmutableCpuMask copyOf(CpuMask mask) {
    Objects.requireNonNull(mask, "mask");
    if (mask instanceof ImmutableBitmapCpuMask immutable) {
      return immutable;
    }
    MutableBitmapCpuMask copy = new MutableBitmapCpuMask(mask.nrCpuIds());
    copy.copyFrom(mask);
    return freeze(copy);
  }

  /** Hands the words of a mask nobody else references to an immutable mask. */
  private static ImmutableCpuMask freeze(MutableBitmapCpuMask mask) {
    return new ImmutableBitmapCpuMask(mask.nrCpuIds, mask.words);
  }
}
