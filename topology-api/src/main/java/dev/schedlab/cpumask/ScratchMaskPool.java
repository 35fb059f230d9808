package dev.schedlab.cpumask;

import java.util.Optional;

/**
 * Per-CPU scratch cpumasks borrowed for the length of one operation: the equivalent of the per-CPU
 * pool of scratch-mask slots in the scheduler draft that replaces {@code select_rq_mask}, {@code
 * load_balance_mask} and {@code should_we_balance_tmpmask}.
 *
 * <p>Every simulated CPU owns {@link #slotsPerCpu()} slots, each a preallocated mask of width
 * {@link #nrCpuIds()} with a preallocated {@link ScratchMask} lease, so borrowing allocates
 * nothing:
 *
 * <pre>{@code
 * try (ScratchMask candidates = pool.acquire(thisCpu, 0)) {
 *   candidates.and(nohzIdleMask, housekeepingMask);
 *   ...
 * }
 * }</pre>
 *
 * <p>Acquiring slot {@code k} marks it held; closing the lease releases it. A caller that nests
 * (balancing calls {@code should_we_balance()}) takes a different slot, 0 then 1. A slot's mask
 * keeps whatever its previous holder left in it, as in the kernel, so write it before reading.
 *
 * <p><b>Misuse</b> (acquiring a held slot, releasing a slot not held, a slot or CPU out of range)
 * is always detected and counted; the {@link MisusePolicy} chosen at construction decides what
 * follows. Using a lease after closing it is not detected, as in the kernel.
 *
 * <p>One pool belongs to one simulation: there is no static state, and the pool is not thread-safe
 * (the kernel protects a slot by running with interrupts off on its own CPU; the simulator protects
 * it by running one simulation per thread). It allocates {@code nrCpuIds x slotsPerCpu} masks up
 * front, about 24 MiB at 8192 CPUs with 3 slots.
 */
public final class ScratchMaskPool {

  /** What happens when the pool detects misuse. */
  public enum MisusePolicy {
    /** Throw {@link IllegalStateException}: for tests, where misuse must fail loudly. */
    THROW,
    /**
     * Equivalent of the draft's {@code WARN_ON_ONCE()}: log the first misuse, count every one, and
     * let {@link ScratchMaskPool#acquire} yield no mask ({@code null}).
     */
    WARN_ONCE
  }

  /** Slots per CPU in the kernel draft. */
  public static final int DEFAULT_SLOTS_PER_CPU = 3;

  /** Slots per CPU are tracked as bits of one {@code long}, as the draft tracks them in a word. */
  public static final int MAX_SLOTS_PER_CPU = Long.SIZE;

  private static final System.Logger LOGGER = System.getLogger(ScratchMaskPool.class.getName());

  private final int nrCpuIds;
  private final int slotsPerCpu;
  private final MisusePolicy policy;
  private final ScratchMask[] leases;

  /** Per CPU, bit {@code k} set while slot {@code k} is held. */
  private final long[] heldSlots;

  private long misuseCount;
  private String firstMisuse;

  /**
   * A pool with {@link #DEFAULT_SLOTS_PER_CPU} slots for each of CPUs {@code 0..nrCpuIds-1}.
   *
   * @throws IllegalArgumentException if {@code nrCpuIds} is outside {@code [1, MAX_CPUS]}
   */
  public ScratchMaskPool(int nrCpuIds, MisusePolicy policy) {
    this(nrCpuIds, DEFAULT_SLOTS_PER_CPU, policy);
  }

  /**
   * A pool with {@code slotsPerCpu} slots for each of CPUs {@code 0..nrCpuIds-1}; every mask has
   * width {@code nrCpuIds}.
   *
   * @throws IllegalArgumentException if {@code nrCpuIds} is outside {@code [1, MAX_CPUS]} or {@code
   *     slotsPerCpu} outside {@code [1, MAX_SLOTS_PER_CPU]}
   */
  public ScratchMaskPool(int nrCpuIds, int slotsPerCpu, MisusePolicy policy) {
    BitmapCpuMask.checkWidth(nrCpuIds);
    if (slotsPerCpu < 1 || slotsPerCpu > MAX_SLOTS_PER_CPU) {
      throw new IllegalArgumentException(
          "slotsPerCpu " + slotsPerCpu + " outside the allowed range 1-" + MAX_SLOTS_PER_CPU);
    }
    if (policy == null) {
      throw new NullPointerException("policy");
    }
    this.nrCpuIds = nrCpuIds;
    this.slotsPerCpu = slotsPerCpu;
    this.policy = policy;
    this.heldSlots = new long[nrCpuIds];
    this.leases = new ScratchMask[nrCpuIds * slotsPerCpu];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      for (int slot = 0; slot < slotsPerCpu; slot++) {
        leases[cpu * slotsPerCpu + slot] =
            new ScratchMask(this, cpu, slot, new MutableBitmapCpuMask(nrCpuIds));
      }
    }
  }

  /**
   * Borrows slot {@code slot} of CPU {@code cpu}: the equivalent of the draft's scoped scratch-mask
   * acquire. Returns the slot's preallocated lease; close it (try-with-resources) to release.
   * Allocates nothing.
   *
   * @return the lease, or {@code null} under {@link MisusePolicy#WARN_ONCE} when the slot is
   *     already held or {@code cpu} or {@code slot} is out of range
   * @throws IllegalStateException on such misuse under {@link MisusePolicy#THROW}
   */
  public ScratchMask acquire(int cpu, int slot) {
    if (!inRange(cpu, slot, "acquire")) {
      return null;
    }
    long bit = 1L << slot;
    if ((heldSlots[cpu] & bit) != 0) {
      misuse("scratch mask slot " + slot + " of CPU " + cpu + " acquired while already held");
      return null;
    }
    heldSlots[cpu] |= bit;
    return leases[cpu * slotsPerCpu + slot];
  }

  /** Releases a slot; reached through {@link ScratchMask#close()}. */
  void release(int cpu, int slot) {
    long bit = 1L << slot;
    if ((heldSlots[cpu] & bit) == 0) {
      misuse("scratch mask slot " + slot + " of CPU " + cpu + " released while not held");
      return;
    }
    heldSlots[cpu] &= ~bit;
  }

  /**
   * Whether slot {@code slot} of CPU {@code cpu} is currently held.
   *
   * @throws IndexOutOfBoundsException if {@code cpu} or {@code slot} is out of range
   */
  public boolean isHeld(int cpu, int slot) {
    if (cpu < 0 || cpu >= nrCpuIds || slot < 0 || slot >= slotsPerCpu) {
      throw new IndexOutOfBoundsException(
          "CPU "
              + cpu
              + " slot "
              + slot
              + " outside CPUs 0-"
              + (nrCpuIds - 1)
              + " slots 0-"
              + (slotsPerCpu - 1));
    }
    return (heldSlots[cpu] & (1L << slot)) != 0;
  }

  private boolean inRange(int cpu, int slot, String action) {
    if (cpu < 0 || cpu >= nrCpuIds) {
      misuse("scratch mask " + action + " for CPU " + cpu + " outside CPUs 0-" + (nrCpuIds - 1));
      return false;
    }
    if (slot < 0 || slot >= slotsPerCpu) {
      misuse(
          "scratch mask "
              + action
              + " of slot "
              + slot
              + " on CPU "
              + cpu
              + " outside slots 0-"
              + (slotsPerCpu - 1));
      return false;
    }
    return true;
  }

  private void misuse(String message) {
    misuseCount++;
    if (firstMisuse == null) {
      firstMisuse = message;
      if (policy == MisusePolicy.WARN_ONCE) {
        LOGGER.log(System.Logger.Level.WARNING, message);
      }
    }
    if (policy == MisusePolicy.THROW) {
      throw new IllegalStateException(message);
    }
  }

  /** Width of every scratch mask, and the number of CPUs that own slots. */
  public int nrCpuIds() {
    return nrCpuIds;
  }

  /** Slots per CPU. */
  public int slotsPerCpu() {
    return slotsPerCpu;
  }

  /** The misuse policy chosen at construction. */
  public MisusePolicy policy() {
    return policy;
  }

  /**
   * How many times misuse was detected, under either policy (the kernel's {@code WARN_ON_ONCE()}
   * reports only the first; this keeps counting so a run can show how often it happened).
   */
  public long misuseCount() {
    return misuseCount;
  }

  /** The message describing the first misuse detected, if any. */
  public Optional<String> firstMisuse() {
    return Optional.ofNullable(firstMisuse);
  }
}
