package dev.schedlab.cpumask;

/**
 * The rotating cursor behind {@code cpumask_any_distribute()} and {@code
 * cpumask_any_and_distribute()}: the kernel's per-CPU {@code distribute_cpu_mask_prev}, so keep one
 * instance per simulated CPU.
 *
 * <p>The cursor starts at CPU 0 and moves to every CPU it returns; each call returns the next set
 * CPU strictly after the cursor, wrapping around. Successive calls on one instance therefore
 * round-robin through a mask, and the very first call skips CPU 0 whenever another CPU is set. An
 * empty result leaves the cursor where it was. Allocates nothing; not thread-safe.
 */
public final class DistributeCursor {

  private int previous;

  /** A cursor at CPU 0, as {@code distribute_cpu_mask_prev} is at boot. */
  public DistributeCursor() {}

  /**
   * Equivalent of {@code cpumask_any_distribute(mask)}: the first CPU of {@code mask} after the
   * cursor, wrapping to the start of the mask; the cursor moves to it.
   *
   * @return the chosen CPU, or {@link CpuMask#NO_CPU} when {@code mask} is empty
   */
  public int anyDistribute(CpuMask mask) {
    int next = mask.nextWrap(cursorFor(mask));
    if (next != CpuMask.NO_CPU) {
      previous = next;
    }
    return next;
  }

  /**
   * Equivalent of {@code cpumask_any_and_distribute(a, b)}: as {@link #anyDistribute} over {@code a
   * & b}, without building the intersection.
   *
   * @return the chosen CPU, or {@link CpuMask#NO_CPU} when {@code a} and {@code b} are disjoint
   * @throws IllegalArgumentException if the widths differ
   */
  public int anyAndDistribute(CpuMask a, CpuMask b) {
    int cursor = cursorFor(a);
    int next = a.nextAnd(cursor, b);
    if (next == CpuMask.NO_CPU) {
      next = a.firstAnd(b);
    }
    if (next != CpuMask.NO_CPU) {
      previous = next;
    }
    return next;
  }

  /** The cursor position, or -1 (search from CPU 0) if it lies beyond a narrower mask. */
  private int cursorFor(CpuMask mask) {
    return previous < mask.nrCpuIds() ? previous : -1;
  }
}
