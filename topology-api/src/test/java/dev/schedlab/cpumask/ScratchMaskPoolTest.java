package dev.schedlab.cpumask;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cpumask.ScratchMaskPool.MisusePolicy;
import org.junit.jupiter.api.Test;

/**
 * The scratch-mask pool lends each CPU's preallocated slots through try-with-resources, lets
 * callers nest on different slots (0, then 1), hands out the same lease object every time, and
 * detects every misuse (a held slot acquired again, a slot released twice, a slot or CPU out of
 * range): under {@link MisusePolicy#THROW} by throwing, under {@link MisusePolicy#WARN_ONCE} by
 * counting, remembering the first message, and yielding no mask.
 */
final class ScratchMaskPoolTest {

  @Test
  void acquire_tryWithResources_holdsThenReleasesSlot() {
    ScratchMaskPool pool = new ScratchMaskPool(8, MisusePolicy.THROW);
    try (ScratchMask mask = pool.acquire(3, 0)) {
      assertThat(pool.isHeld(3, 0)).isTrue();
      assertThat(mask.cpu()).isEqualTo(3);
      assertThat(mask.slot()).isZero();
      assertThat(mask.nrCpuIds()).isEqualTo(8);
    }
    assertThat(pool.isHeld(3, 0)).isFalse();
    assertThat(pool.misuseCount()).isZero();
    assertThat(pool.firstMisuse()).isEmpty();
  }

  @Test
  void acquire_nestedSlotsZeroThenOne_bothSucceedWithDistinctMasks() {
    ScratchMaskPool pool = new ScratchMaskPool(352, MisusePolicy.THROW);
    CpuMask idle = CpuMasks.range(352, 0, 87);
    CpuMask housekeeping = CpuMasks.range(352, 40, 351);
    try (ScratchMask outer = pool.acquire(5, 0)) {
      outer.and(idle, housekeeping);
      try (ScratchMask inner = pool.acquire(5, 1)) {
        assertThat(inner).isNotSameAs(outer);
        inner.copyFrom(outer);
        inner.clear(40);
        assertThat(pool.isHeld(5, 0)).isTrue();
        assertThat(pool.isHeld(5, 1)).isTrue();
      }
      assertThat(outer.toCpuList()).as("inner slot wrote its own mask").isEqualTo("40-87");
      assertThat(pool.isHeld(5, 1)).isFalse();
    }
    assertThat(pool.misuseCount()).isZero();
  }

  @Test
  void acquire_sameSlotOfOtherCpu_isIndependent() {
    ScratchMaskPool pool = new ScratchMaskPool(4, MisusePolicy.THROW);
    try (ScratchMask cpu0 = pool.acquire(0, 0);
        ScratchMask cpu1 = pool.acquire(1, 0)) {
      cpu0.fill();
      cpu1.clearAll();
      assertThat(cpu0.isFull()).isTrue();
      assertThat(cpu1.isEmpty()).isTrue();
    }
  }

  @Test
  void acquire_afterRelease_returnsTheSameLeaseAndKeepsContents() {
    ScratchMaskPool pool = new ScratchMaskPool(64, MisusePolicy.THROW);
    ScratchMask first;
    try (ScratchMask mask = pool.acquire(2, 2)) {
      mask.set(63);
      first = mask;
    }
    try (ScratchMask mask = pool.acquire(2, 2)) {
      assertThat(mask).isSameAs(first);
      assertThat(mask.toCpuList()).as("contents persist, as in the kernel").isEqualTo("63");
    }
  }

  @Test
  void lease_asMutableMask_delegatesAndEqualsPlainMask() {
    ScratchMaskPool pool = new ScratchMaskPool(65, MisusePolicy.THROW);
    try (ScratchMask mask = pool.acquire(0, 0)) {
      mask.clearAll();
      mask.setRange(60, 64);
      assertThat(mask.weight()).isEqualTo(5);
      assertThat(mask.first()).isEqualTo(60);
      assertThat(mask.last()).isEqualTo(64);
      assertThat(mask.toHex()).isEqualTo("1,f0000000,00000000");
      CpuMask plain = CpuMasks.range(65, 60, 64);
      assertThat(mask).isEqualTo(plain).hasSameHashCodeAs(plain);
      assertThat(plain).isEqualTo(mask);
      assertThat(mask.andNotWith(CpuMasks.of(65, 64))).isTrue();
      assertThat(CpuMasks.range(65, 0, 63).isSubsetOf(mask)).isFalse();
      assertThat(mask.toImmutable()).isEqualTo(CpuMasks.range(65, 60, 63));
      assertThat(mask.toString()).contains("CPU 0", "slot 0", "60-63");
    }
  }

  @Test
  void throwPolicy_acquireHeldSlot_throwsIllegalState() {
    ScratchMaskPool pool = new ScratchMaskPool(8, MisusePolicy.THROW);
    ScratchMask held = pool.acquire(1, 0);
    assertThatThrownBy(() -> pool.acquire(1, 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("slot 0 of CPU 1 acquired while already held");
    assertThat(pool.misuseCount()).isEqualTo(1);
    assertThat(pool.isHeld(1, 0)).isTrue();
    held.close();
    assertThat(pool.isHeld(1, 0)).isFalse();
  }

  @Test
  void throwPolicy_closeTwice_throwsIllegalState() {
    ScratchMaskPool pool = new ScratchMaskPool(8, MisusePolicy.THROW);
    ScratchMask mask = pool.acquire(7, 2);
    mask.close();
    assertThatThrownBy(mask::close)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("slot 2 of CPU 7 released while not held");
  }

  @Test
  void throwPolicy_slotOrCpuOutOfRange_throwsIllegalState() {
    ScratchMaskPool pool = new ScratchMaskPool(8, MisusePolicy.THROW);
    assertThatThrownBy(() -> pool.acquire(0, 3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("slot 3")
        .hasMessageContaining("slots 0-2");
    assertThatThrownBy(() -> pool.acquire(0, -1)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> pool.acquire(8, 0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("CPU 8")
        .hasMessageContaining("CPUs 0-7");
    assertThatThrownBy(() -> pool.acquire(-1, 0)).isInstanceOf(IllegalStateException.class);
    assertThat(pool.misuseCount()).isEqualTo(4);
    assertThat(pool.firstMisuse())
        .hasValueSatisfying(message -> assertThat(message).contains("slot 3"));
  }

  @Test
  void warnOncePolicy_acquireHeldSlot_yieldsNullAndCountsEveryTime() {
    ScratchMaskPool pool = new ScratchMaskPool(8, MisusePolicy.WARN_ONCE);
    ScratchMask held = pool.acquire(4, 1);
    assertThat(pool.acquire(4, 1)).isNull();
    assertThat(pool.acquire(4, 1)).isNull();
    assertThat(pool.misuseCount()).isEqualTo(2);
    assertThat(pool.firstMisuse())
        .hasValue("scratch mask slot 1 of CPU 4 acquired while already held");
    assertThat(pool.isHeld(4, 1)).as("the holder keeps its slot").isTrue();
    held.close();
    assertThat(pool.acquire(4, 1)).isSameAs(held);
  }

  @Test
  void warnOncePolicy_allMisuseKinds_countedFirstMessageKept() {
    ScratchMaskPool pool = new ScratchMaskPool(8, 2, MisusePolicy.WARN_ONCE);
    ScratchMask mask = pool.acquire(0, 1);
    mask.close();
    mask.close();
    assertThat(pool.acquire(0, 2)).isNull();
    assertThat(pool.acquire(9, 0)).isNull();
    assertThat(pool.acquire(-1, 0)).isNull();
    assertThat(pool.misuseCount()).isEqualTo(4);
    assertThat(pool.firstMisuse()).hasValue("scratch mask slot 1 of CPU 0 released while not held");
    assertThat(pool.isHeld(0, 1)).isFalse();
  }

  @Test
  void constructor_badArguments_throw() {
    assertThatThrownBy(() -> new ScratchMaskPool(0, MisusePolicy.THROW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1-8192");
    assertThatThrownBy(() -> new ScratchMaskPool(8, 0, MisusePolicy.THROW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1-64");
    assertThatThrownBy(() -> new ScratchMaskPool(8, 65, MisusePolicy.THROW))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ScratchMaskPool(8, null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void pool_defaults_matchKernelDraft() {
    ScratchMaskPool pool = new ScratchMaskPool(352, MisusePolicy.WARN_ONCE);
    assertThat(pool.slotsPerCpu()).isEqualTo(3);
    assertThat(pool.nrCpuIds()).isEqualTo(352);
    assertThat(pool.policy()).isEqualTo(MisusePolicy.WARN_ONCE);
    assertThatThrownBy(() -> pool.isHeld(0, 3)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void pool_largestWidth_lendsEverySlotOfLastCpu() {
    ScratchMaskPool pool = new ScratchMaskPool(8192, MisusePolicy.THROW);
    try (ScratchMask a = pool.acquire(8191, 0);
        ScratchMask b = pool.acquire(8191, 1);
        ScratchMask c = pool.acquire(8191, 2)) {
      a.fill();
      b.copyFrom(a);
      c.andNot(a, b);
      assertThat(b.isFull()).isTrue();
      assertThat(c.isEmpty()).isTrue();
    }
  }
}
