package dev.schedlab.cpumask;

import org.eclipse.collections.api.block.procedure.primitive.IntProcedure;

/**
 * A read-only view of a fixed-width CPU bitmap: the equivalent of {@code const struct cpumask *}.
 *
 * <p>Bit {@code n} stands for CPU {@code n}; the width {@link #nrCpuIds()} is fixed at creation
 * (the kernel's {@code nr_cpu_ids}) and lies in {@code [1, }{@link #MAX_CPUS}{@code ]}. Bits are
 * stored as {@code long} words, bit {@code n} in word {@code n / 64}; bits at or above {@code
 * nrCpuIds} are always zero.
 *
 * <p><b>Not found.</b> Every search method returns {@link #NO_CPU} ({@code -1}) when there is no
 * such CPU, where the kernel returns a value {@code >= nr_cpu_ids}. The loop idiom is {@code for
 * (int cpu = m.first(); cpu != NO_CPU; cpu = m.next(cpu))}. Such a cursor loop reads the live mask
 * at every step, so it stays correct when the mask being walked is shrunk during the walk (bits
 * cleared ahead of the cursor are not visited), which is what {@code find_new_ilb()} relies on when
 * it prunes SMT siblings.
 *
 * <p>Masks of different widths never mix: binary operations throw {@link IllegalArgumentException}
 * when widths differ. No method allocates unless it says so.
 */
public interface CpuMask {

  /** Returned by search methods when there is no such CPU. */
  int NO_CPU = -1;

  /** The widest mask supported: {@code NR_CPUS} on x86-64 with {@code MAXSMP}. */
  int MAX_CPUS = 8192;

  /** Width of the mask: the kernel's {@code nr_cpu_ids}. */
  int nrCpuIds();

  /** Number of {@code long} words backing the mask: {@code ceil(nrCpuIds / 64)}. */
  int wordCount();

  /**
   * Word {@code index} of the bitmap (bit {@code n} of the mask is bit {@code n % 64} of word
   * {@code n / 64}).
   */
  long word(int index);

  /** Equivalent of {@code cpumask_test_cpu()}. Throws for a CPU outside {@code [0, nrCpuIds)}. */
  boolean test(int cpu);

  /** Equivalent of {@code cpumask_weight()}: the number of set bits. */
  int weight();

  /** Equivalent of {@code cpumask_weight_and()}: the weight of {@code this & other}. */
  int weightAnd(CpuMask other);

  /** Equivalent of {@code cpumask_empty()}. */
  boolean isEmpty();

  /** Equivalent of {@code cpumask_full()}: every CPU below {@code nrCpuIds} is set. */
  boolean isFull();

  /** Equivalent of {@code cpumask_first()}; {@link #NO_CPU} when empty. */
  int first();

  /** Equivalent of {@code cpumask_last()}; {@link #NO_CPU} when empty. */
  int last();

  /**
   * Equivalent of {@code cpumask_next(cpu, mask)}: the first set CPU strictly above {@code cpu};
   * {@code next(-1)} is {@link #first()}. {@link #NO_CPU} when none.
   */
  int next(int cpu);

  /**
   * Equivalent of {@code cpumask_first_and()}: lowest CPU set in both masks, or {@link #NO_CPU}.
   */
  int firstAnd(CpuMask other);

  /** Equivalent of {@code cpumask_next_and()}: lowest CPU above {@code cpu} set in both masks. */
  int nextAnd(int cpu, CpuMask other);

  /**
   * Equivalent of {@code cpumask_first_andnot()}: lowest CPU set here and clear in {@code other}.
   */
  int firstAndNot(CpuMask other);

  /** Equivalent of {@code cpumask_next_andnot()}. */
  int nextAndNot(int cpu, CpuMask other);

  /**
   * Equivalent of {@code cpumask_next_wrap(cpu, mask)}: the first set CPU strictly above {@code
   * cpu}, wrapping to the start of the mask; may return {@code cpu} itself when it is the only set
   * bit. {@link #NO_CPU} when empty.
   */
  int nextWrap(int cpu);

  /**
   * Visits set CPUs in {@code for_each_cpu_wrap(cpu, mask, start)} order: from {@code start} upward
   * to the end, then from 0 up to {@code start - 1}; {@code start} itself need not be set. The live
   * mask is read at each step.
   */
  void forEachCpuWrap(int start, IntProcedure procedure);

  /** Equivalent of {@code for_each_cpu()}: ascending set CPUs; reads the live mask at each step. */
  void forEachCpu(IntProcedure procedure);

  /** Equivalent of {@code for_each_cpu_and()}: ascending CPUs set in both masks, lazily. */
  void forEachCpuAnd(CpuMask other, IntProcedure procedure);

  /** Equivalent of {@code cpumask_intersects()}. */
  boolean intersects(CpuMask other);

  /**
   * Equivalent of {@code cpumask_subset(this, other)}: every CPU set here is set in {@code other}.
   */
  boolean isSubsetOf(CpuMask other);

  /** Equivalent of {@code cpumask_equal()} (content equality; widths must match). */
  boolean contentEquals(CpuMask other);

  /**
   * Masks are equal when they have the same width and the same bits, whatever their mutability;
   * {@link #hashCode()} is consistent with that across implementations.
   */
  @Override
  boolean equals(Object other);

  @Override
  int hashCode();

  /**
   * The cpulist form, e.g. {@code 0-87,176-263}; empty mask prints as the empty string. Allocates.
   */
  String toCpuList();

  /**
   * The comma-separated 32-bit hex form of {@code %*pb} (sysfs {@code cpumap}, {@code
   * /proc/schedstat}), over {@code nrCpuIds} bits. Allocates.
   */
  String toHex();

  /** A new mutable copy. Allocates. */
  MutableCpuMask mutableCopy();

  /** An immutable snapshot (returns {@code this} when already immutable). Allocates otherwise. */
  ImmutableCpuMask toImmutable();
}
