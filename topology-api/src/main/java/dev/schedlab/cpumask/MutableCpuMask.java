package dev.schedlab.cpumask;

/**
 * A CPU bitmap that can be written: the equivalent of {@code struct cpumask *}. Every operation
 * writes into {@code this} and allocates nothing. Not thread-safe.
 */
public interface MutableCpuMask extends CpuMask {

  /** Equivalent of {@code cpumask_set_cpu()}. */
  void set(int cpu);

  /** Sets CPUs {@code from..to} inclusive (the cpulist range {@code from-to}). */
  void setRange(int from, int to);

  /** Equivalent of {@code cpumask_clear_cpu()}. */
  void clear(int cpu);

  /** Equivalent of {@code cpumask_test_and_set_cpu()}: sets the CPU, returns its old value. */
  boolean testAndSet(int cpu);

  /** Equivalent of {@code cpumask_test_and_clear_cpu()}: clears the CPU, returns its old value. */
  boolean testAndClear(int cpu);

  /** Equivalent of {@code cpumask_clear()}: clears every CPU. */
  void clearAll();

  /** Equivalent of {@code cpumask_setall()}: sets every CPU below {@code nrCpuIds}. */
  void fill();

  /** Equivalent of {@code cpumask_copy(this, src)}. */
  void copyFrom(CpuMask src);

  /** Equivalent of {@code cpumask_and(this, a, b)}; returns true iff the result is non-empty. */
  boolean and(CpuMask a, CpuMask b);

  /** Equivalent of {@code cpumask_or(this, a, b)}. */
  void or(CpuMask a, CpuMask b);

  /** Equivalent of {@code cpumask_xor(this, a, b)}. */
  void xor(CpuMask a, CpuMask b);

  /** Equivalent of {@code cpumask_andnot(this, a, b)}; returns true iff the result is non-empty. */
  boolean andNot(CpuMask a, CpuMask b);

  /** {@code this &= other}; returns true iff the result is non-empty. */
  boolean andWith(CpuMask other);

  /** {@code this |= other}. */
  void orWith(CpuMask other);

  /** {@code this &= ~other}: the one-mask prune used to drop SMT siblings; true iff non-empty. */
  boolean andNotWith(CpuMask other);

  /**
   * Equivalent of {@code cpumask_andnot(this, this, other)} when the caller ignores its result:
   * {@code this &= ~other}, clearing every CPU set in {@code other}. Unlike {@link
   * #andNotWith(CpuMask)} it does not report whether the result is empty, so it need not look at
   * every word: removing a sparse immutable mask such as {@code cpu_smt_mask()} costs the words
   * that mask occupies, not the whole width, which keeps a walk that prunes at every step linear.
   *
   * @throws IllegalArgumentException if the widths differ
   */
  default void removeAll(CpuMask other) {
    andNotWith(other);
  }

  /** A read-only view backed by this mask (changes show through). Allocates once per call. */
  CpuMask asUnmodifiable();
}
