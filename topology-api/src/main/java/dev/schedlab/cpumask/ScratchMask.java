package dev.schedlab.cpumask;

import org.eclipse.collections.api.block.procedure.primitive.IntProcedure;

/**
 * A borrowed scratch mask: the equivalent of a held slot of the scheduler draft's per-CPU
 * scratch-mask pool. Obtained from {@link ScratchMaskPool#acquire(int, int)}, it behaves as the
 * slot's {@link MutableCpuMask} (every method delegates to it) until {@link #close()} releases the
 * slot. Each slot has exactly one lease object, reused by every acquire, so borrowing allocates
 * nothing. Equal to any mask with the same width and bits. Not thread-safe.
 */
public final class ScratchMask implements MutableCpuMask, AutoCloseable {

  private final ScratchMaskPool pool;
  private final int cpu;
  private final int slot;
  private final MutableBitmapCpuMask mask;

  ScratchMask(ScratchMaskPool pool, int cpu, int slot, MutableBitmapCpuMask mask) {
    this.pool = pool;
    this.cpu = cpu;
    this.slot = slot;
    this.mask = mask;
  }

  /** The simulated CPU owning this slot. */
  public int cpu() {
    return cpu;
  }

  /** The slot number within the CPU's pool. */
  public int slot() {
    return slot;
  }

  /**
   * Releases the slot: the equivalent of the draft's scratch-mask release. Closing a lease whose
   * slot is not held (closing twice) is misuse, handled by the pool's {@link
   * ScratchMaskPool.MisusePolicy}.
   *
   * @throws IllegalStateException on misuse under {@link ScratchMaskPool.MisusePolicy#THROW}
   */
  @Override
  public void close() {
    pool.release(cpu, slot);
  }

  /** The slot mask's backing words, for the fast paths of {@link BitmapCpuMask#wordsOf}. */
  long[] words() {
    return mask.words;
  }

  @Override
  public int nrCpuIds() {
    return mask.nrCpuIds();
  }

  @Override
  public int wordCount() {
    return mask.wordCount();
  }

  @Override
  public long word(int index) {
    return mask.word(index);
  }

  @Override
  public boolean test(int cpu) {
    return mask.test(cpu);
  }

  @Override
  public int weight() {
    return mask.weight();
  }

  @Override
  public int weightAnd(CpuMask other) {
    return mask.weightAnd(other);
  }

  @Override
  public boolean isEmpty() {
    return mask.isEmpty();
  }

  @Override
  public boolean isFull() {
    return mask.isFull();
  }

  @Override
  public int first() {
    return mask.first();
  }

  @Override
  public int last() {
    return mask.last();
  }

  @Override
  public int next(int cpu) {
    return mask.next(cpu);
  }

  @Override
  public int firstAnd(CpuMask other) {
    return mask.firstAnd(other);
  }

  @Override
  public int nextAnd(int cpu, CpuMask other) {
    return mask.nextAnd(cpu, other);
  }

  @Override
  public int firstAndNot(CpuMask other) {
    return mask.firstAndNot(other);
  }

  @Override
  public int nextAndNot(int cpu, CpuMask other) {
    return mask.nextAndNot(cpu, other);
  }

  @Override
  public int nextWrap(int cpu) {
    return mask.nextWrap(cpu);
  }

  @Override
  public void forEachCpuWrap(int start, IntProcedure procedure) {
    mask.forEachCpuWrap(start, procedure);
  }

  @Override
  public void forEachCpu(IntProcedure procedure) {
    mask.forEachCpu(procedure);
  }

  @Override
  public void forEachCpuAnd(CpuMask other, IntProcedure procedure) {
    mask.forEachCpuAnd(other, procedure);
  }

  @Override
  public boolean intersects(CpuMask other) {
    return mask.intersects(other);
  }

  @Override
  public boolean isSubsetOf(CpuMask other) {
    return mask.isSubsetOf(other);
  }

  @Override
  public boolean contentEquals(CpuMask other) {
    return mask.contentEquals(other);
  }

  @Override
  public boolean equals(Object other) {
    return other == this || mask.equals(other);
  }

  @Override
  public int hashCode() {
    return mask.hashCode();
  }

  @Override
  public String toCpuList() {
    return mask.toCpuList();
  }

  @Override
  public String toHex() {
    return mask.toHex();
  }

  @Override
  public MutableCpuMask mutableCopy() {
    return mask.mutableCopy();
  }

  @Override
  public ImmutableCpuMask toImmutable() {
    return mask.toImmutable();
  }

  @Override
  public void set(int cpu) {
    mask.set(cpu);
  }

  @Override
  public void setRange(int from, int to) {
    mask.setRange(from, to);
  }

  @Override
  public void clear(int cpu) {
    mask.clear(cpu);
  }

  @Override
  public boolean testAndSet(int cpu) {
    return mask.testAndSet(cpu);
  }

  @Override
  public boolean testAndClear(int cpu) {
    return mask.testAndClear(cpu);
  }

  @Override
  public void clearAll() {
    mask.clearAll();
  }

  @Override
  public void fill() {
    mask.fill();
  }

  @Override
  public void copyFrom(CpuMask src) {
    mask.copyFrom(src);
  }

  @Override
  public boolean and(CpuMask a, CpuMask b) {
    return mask.and(a, b);
  }

  @Override
  public void or(CpuMask a, CpuMask b) {
    mask.or(a, b);
  }

  @Override
  public void xor(CpuMask a, CpuMask b) {
    mask.xor(a, b);
  }

  @Override
  public boolean andNot(CpuMask a, CpuMask b) {
    return mask.andNot(a, b);
  }

  @Override
  public boolean andWith(CpuMask other) {
    return mask.andWith(other);
  }

  @Override
  public void orWith(CpuMask other) {
    mask.orWith(other);
  }

  @Override
  public boolean andNotWith(CpuMask other) {
    return mask.andNotWith(other);
  }

  @Override
  public void removeAll(CpuMask other) {
    mask.removeAll(other);
  }

  @Override
  public CpuMask asUnmodifiable() {
    return mask.asUnmodifiable();
  }

  @Override
  public String toString() {
    return "ScratchMask[CPU "
        + cpu
        + " slot "
        + slot
        + ": "
        + mask.toCpuList()
        + " of "
        + mask.nrCpuIds()
        + "]";
  }
}
