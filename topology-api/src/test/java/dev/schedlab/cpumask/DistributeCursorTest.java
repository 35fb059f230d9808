package dev.schedlab.cpumask;

import static dev.schedlab.cpumask.CpuMask.NO_CPU;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@link DistributeCursor} behaves as {@code cpumask_any_distribute()} and {@code
 * cpumask_any_and_distribute()}: the cursor starts at CPU 0, so the first pick skips CPU 0 when
 * another CPU is set, successive picks round-robin through the mask, an empty mask yields {@link
 * CpuMask#NO_CPU} without moving the cursor, and cursors of different CPUs are independent.
 */
final class DistributeCursorTest {

  @Test
  void anyDistribute_firstCall_skipsCpuZero() {
    DistributeCursor cursor = new DistributeCursor();
    assertThat(cursor.anyDistribute(CpuMasks.of(8, 0, 1, 2))).isEqualTo(1);
  }

  @Test
  void anyDistribute_repeatedCalls_roundRobin() {
    DistributeCursor cursor = new DistributeCursor();
    CpuMask mask = CpuMasks.of(8, 0, 3, 5);
    int[] picks = new int[7];
    for (int i = 0; i < picks.length; i++) {
      picks[i] = cursor.anyDistribute(mask);
    }
    assertThat(picks).containsExactly(3, 5, 0, 3, 5, 0, 3);
  }

  @Test
  void anyDistribute_onlyCpuZero_returnsIt() {
    DistributeCursor cursor = new DistributeCursor();
    CpuMask mask = CpuMasks.of(8, 0);
    assertThat(cursor.anyDistribute(mask)).isZero();
    assertThat(cursor.anyDistribute(mask)).isZero();
  }

  @Test
  void anyDistribute_emptyMask_returnsNoCpuAndKeepsCursor() {
    DistributeCursor cursor = new DistributeCursor();
    CpuMask mask = CpuMasks.of(8, 2, 6);
    assertThat(cursor.anyDistribute(mask)).isEqualTo(2);
    assertThat(cursor.anyDistribute(CpuMasks.empty(8))).isEqualTo(NO_CPU);
    assertThat(cursor.anyDistribute(mask)).isEqualTo(6);
  }

  @Test
  void anyDistribute_maskChangesBetweenCalls_continuesAfterLastPick() {
    DistributeCursor cursor = new DistributeCursor();
    assertThat(cursor.anyDistribute(CpuMasks.range(352, 170, 180))).isEqualTo(170);
    assertThat(cursor.anyDistribute(CpuMasks.of(352, 10, 171, 300))).isEqualTo(171);
    assertThat(cursor.anyDistribute(CpuMasks.of(352, 10, 171))).isEqualTo(10);
  }

  @Test
  void anyDistribute_cursorBeyondNarrowerMask_startsFromCpuZero() {
    DistributeCursor cursor = new DistributeCursor();
    assertThat(cursor.anyDistribute(CpuMasks.of(352, 300))).isEqualTo(300);
    assertThat(cursor.anyDistribute(CpuMasks.of(8, 0, 4))).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 63, 64, 65, 352, 384, 4096, 8192})
  void anyDistribute_fullMask_visitsEveryCpuOncePerRound(int nr) {
    DistributeCursor cursor = new DistributeCursor();
    CpuMask full = CpuMasks.full(nr);
    MutableCpuMask seen = CpuMasks.mutable(nr);
    for (int i = 0; i < nr; i++) {
      int cpu = cursor.anyDistribute(full);
      assertThat(cpu).isEqualTo((i + 1) % nr);
      assertThat(seen.testAndSet(cpu)).isFalse();
    }
    assertThat(seen.isFull()).isTrue();
  }

  @Test
  void anyAndDistribute_intersection_roundRobinsThroughIt() {
    DistributeCursor cursor = new DistributeCursor();
    CpuMask idle = CpuMasks.of(8, 0, 1, 2, 4, 6);
    CpuMask allowed = CpuMasks.of(8, 0, 2, 3, 6, 7);
    int[] picks = new int[5];
    for (int i = 0; i < picks.length; i++) {
      picks[i] = cursor.anyAndDistribute(idle, allowed);
    }
    assertThat(picks).containsExactly(2, 6, 0, 2, 6);
  }

  @Test
  void anyAndDistribute_disjoint_returnsNoCpuAndKeepsCursor() {
    DistributeCursor cursor = new DistributeCursor();
    CpuMask a = CpuMasks.of(8, 1, 5);
    assertThat(cursor.anyAndDistribute(a, CpuMasks.full(8))).isEqualTo(1);
    assertThat(cursor.anyAndDistribute(a, CpuMasks.of(8, 0, 2))).isEqualTo(NO_CPU);
    assertThat(cursor.anyAndDistribute(a, a)).isEqualTo(5);
  }

  @Test
  void anyAndDistribute_onlyCursorCpuInIntersection_returnsIt() {
    DistributeCursor cursor = new DistributeCursor();
    CpuMask a = CpuMasks.of(8, 3);
    assertThat(cursor.anyAndDistribute(a, a)).isEqualTo(3);
    assertThat(cursor.anyAndDistribute(a, CpuMasks.full(8))).isEqualTo(3);
  }

  @Test
  void cursors_ofDifferentCpus_areIndependent() {
    DistributeCursor cpu0 = new DistributeCursor();
    DistributeCursor cpu1 = new DistributeCursor();
    CpuMask mask = CpuMasks.of(8, 0, 1, 2);
    assertThat(cpu0.anyDistribute(mask)).isEqualTo(1);
    assertThat(cpu0.anyDistribute(mask)).isEqualTo(2);
    assertThat(cpu1.anyDistribute(mask)).isEqualTo(1);
  }
}
