package dev.schedlab.cpumask;

import static dev.schedlab.cpumask.CpuMask.NO_CPU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every {@link CpuMask} and {@link MutableCpuMask} operation gives the kernel's answer at the
 * widths that matter (one CPU, either side of a word boundary, the 352- and 384-CPU test machines,
 * and the largest widths), rejects widths and CPUs outside range, refuses to mix widths, and lets a
 * cursor walk survive bits being cleared ahead of it.
 */
final class CpuMaskOperationsTest {

  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @ParameterizedTest(name = "nrCpuIds={0}")
  @ValueSource(ints = {1, 63, 64, 65, 352, 384, 4096, 8192})
  @interface AllWidths {}

  /** CPU 0, the middle CPU and the last CPU (one, two or three distinct CPUs). */
  private static MutableCpuMask ends(int nr) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    mask.set(0);
    mask.set(nr / 2);
    mask.set(nr - 1);
    return mask;
  }

  private static MutableCpuMask evens(int nr) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    for (int cpu = 0; cpu < nr; cpu += 2) {
      mask.set(cpu);
    }
    return mask;
  }

  private static List<Integer> cpus(CpuMask mask) {
    List<Integer> cpus = new ArrayList<>();
    mask.forEachCpu(cpus::add);
    return cpus;
  }

  private static int otherWidth(int nr) {
    return nr == CpuMask.MAX_CPUS ? nr - 1 : nr + 1;
  }

  @Test
  void width_outsideRange_throwsNamingTheRange() {
    for (int bad : new int[] {0, -1, 8193, Integer.MAX_VALUE}) {
      assertThatThrownBy(() -> CpuMasks.mutable(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(String.valueOf(bad))
          .hasMessageContaining("1-8192");
      assertThatThrownBy(() -> CpuMasks.empty(bad)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> CpuMasks.full(bad)).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> CpuMasks.parseCpuList("", bad))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @AllWidths
  void factories_anyWidth_haveThatWidthAndWordCount(int nr) {
    assertThat(CpuMasks.mutable(nr).nrCpuIds()).isEqualTo(nr);
    assertThat(CpuMasks.empty(nr).wordCount()).isEqualTo((nr + 63) / 64);
    assertThat(CpuMasks.full(nr).weight()).isEqualTo(nr);
    assertThat(CpuMasks.empty(nr).isEmpty()).isTrue();
    assertThat(CpuMasks.full(nr).isFull()).isTrue();
    assertThat(CpuMasks.mutable(nr).isEmpty()).isTrue();
  }

  @AllWidths
  void full_lastWord_hasNoBitsAboveWidth(int nr) {
    CpuMask full = CpuMasks.full(nr);
    long expectedTop = nr % 64 == 0 ? -1L : (1L << (nr % 64)) - 1;
    assertThat(full.word(full.wordCount() - 1)).isEqualTo(expectedTop);
  }

  @AllWidths
  void of_listedCpus_setsExactlyThose(int nr) {
    CpuMask mask = CpuMasks.of(nr, nr - 1, 0, nr - 1);
    assertThat(cpus(mask)).containsExactlyElementsOf(nr == 1 ? List.of(0) : List.of(0, nr - 1));
    assertThat(mask).isInstanceOf(ImmutableCpuMask.class).isNotInstanceOf(MutableCpuMask.class);
    assertThatThrownBy(() -> CpuMasks.of(nr, nr)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> CpuMasks.of(nr, -1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @AllWidths
  void range_fromToInclusive_setsTheRun(int nr) {
    CpuMask mask = CpuMasks.range(nr, nr / 3, nr - 1);
    assertThat(mask.first()).isEqualTo(nr / 3);
    assertThat(mask.last()).isEqualTo(nr - 1);
    assertThat(mask.weight()).isEqualTo(nr - nr / 3);
    assertThat(CpuMasks.range(nr, 0, nr - 1).isFull()).isTrue();
    if (nr > 1) {
      assertThatThrownBy(() -> CpuMasks.range(nr, 1, 0))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> CpuMasks.range(nr, 0, nr))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @AllWidths
  void setClearTest_boundaryCpus_changeOnlyThatBit(int nr) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    mask.set(nr - 1);
    assertThat(mask.test(nr - 1)).isTrue();
    assertThat(mask.weight()).isEqualTo(1);
    mask.set(0);
    assertThat(mask.test(0)).isTrue();
    mask.clear(nr - 1);
    assertThat(mask.test(nr - 1)).isFalse();
    assertThat(mask.test(0)).isEqualTo(nr > 1);
    mask.clear(0);
    assertThat(mask.isEmpty()).isTrue();
  }

  @AllWidths
  void cpuArguments_outsideWidth_throwIndexOutOfBounds(int nr) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    for (int bad : new int[] {-1, nr, Integer.MIN_VALUE}) {
      assertThatThrownBy(() -> mask.test(bad)).isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> mask.set(bad)).isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> mask.clear(bad)).isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> mask.testAndSet(bad)).isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> mask.testAndClear(bad))
          .isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> mask.forEachCpuWrap(bad, cpu -> {}))
          .isInstanceOf(IndexOutOfBoundsException.class);
    }
    assertThatThrownBy(() -> mask.next(-2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> mask.next(nr)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> mask.nextWrap(nr)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @AllWidths
  void testAndSetTestAndClear_anyCpu_returnOldValue(int nr) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    int cpu = nr - 1;
    assertThat(mask.testAndSet(cpu)).isFalse();
    assertThat(mask.testAndSet(cpu)).isTrue();
    assertThat(mask.test(cpu)).isTrue();
    assertThat(mask.testAndClear(cpu)).isTrue();
    assertThat(mask.testAndClear(cpu)).isFalse();
    assertThat(mask.isEmpty()).isTrue();
  }

  @AllWidths
  void setRange_acrossWords_setsInclusiveRun(int nr) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    int from = nr / 4;
    int to = nr - 1 - nr / 4;
    mask.setRange(from, to);
    assertThat(mask.weight()).isEqualTo(to - from + 1);
    assertThat(mask.first()).isEqualTo(from);
    assertThat(mask.last()).isEqualTo(to);
    mask.setRange(0, 0);
    assertThat(mask.test(0)).isTrue();
    if (nr > 1) {
      assertThatThrownBy(() -> mask.setRange(nr - 1, nr - 2))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @AllWidths
  void weight_evenCpus_isHalfRoundedUp(int nr) {
    assertThat(evens(nr).weight()).isEqualTo((nr + 1) / 2);
    int evenEnds = (int) cpus(ends(nr)).stream().filter(cpu -> cpu % 2 == 0).count();
    assertThat(evens(nr).weightAnd(ends(nr))).isEqualTo(evenEnds);
  }

  @AllWidths
  void isFull_oneCpuMissing_isFalse(int nr) {
    MutableCpuMask mask = CpuMasks.full(nr).mutableCopy();
    assertThat(mask.isFull()).isTrue();
    mask.clear(nr - 1);
    assertThat(mask.isFull()).isFalse();
    assertThat(mask.isEmpty()).isEqualTo(nr == 1);
  }

  @AllWidths
  void firstLastNext_endsMask_walkAscending(int nr) {
    CpuMask mask = ends(nr);
    List<Integer> walked = new ArrayList<>();
    for (int cpu = mask.first(); cpu != NO_CPU; cpu = mask.next(cpu)) {
      walked.add(cpu);
    }
    assertThat(walked).isEqualTo(cpus(mask)).isSorted().doesNotHaveDuplicates();
    assertThat(walked).contains(0, nr / 2, nr - 1);
    assertThat(mask.last()).isEqualTo(nr - 1);
    assertThat(mask.next(-1)).isEqualTo(0);
    assertThat(mask.next(nr - 1)).isEqualTo(NO_CPU);
    assertThat(CpuMasks.empty(nr).first()).isEqualTo(NO_CPU);
    assertThat(CpuMasks.empty(nr).last()).isEqualTo(NO_CPU);
  }

  @AllWidths
  void andSearches_evensAndEnds_findCommonAndDifferentCpus(int nr) {
    CpuMask evens = evens(nr);
    CpuMask ends = ends(nr);
    List<Integer> both = new ArrayList<>();
    for (int cpu = evens.firstAnd(ends); cpu != NO_CPU; cpu = evens.nextAnd(cpu, ends)) {
      both.add(cpu);
    }
    List<Integer> lazily = new ArrayList<>();
    evens.forEachCpuAnd(ends, lazily::add);
    List<Integer> expectedBoth = cpus(ends).stream().filter(cpu -> cpu % 2 == 0).toList();
    assertThat(both).isEqualTo(lazily).isEqualTo(expectedBoth);

    List<Integer> endsOnly = new ArrayList<>();
    for (int cpu = ends.firstAndNot(evens); cpu != NO_CPU; cpu = ends.nextAndNot(cpu, evens)) {
      endsOnly.add(cpu);
    }
    assertThat(endsOnly).isEqualTo(cpus(ends).stream().filter(cpu -> cpu % 2 == 1).toList());
    assertThat(evens.firstAnd(CpuMasks.empty(nr))).isEqualTo(NO_CPU);
    assertThat(evens.firstAndNot(CpuMasks.full(nr))).isEqualTo(NO_CPU);
  }

  @AllWidths
  void nextWrap_pastLastCpu_wrapsToFirst(int nr) {
    CpuMask mask = ends(nr);
    assertThat(mask.nextWrap(nr - 1)).isEqualTo(0);
    assertThat(mask.nextWrap(-1)).isEqualTo(0);
    if (nr > 2) {
      assertThat(mask.nextWrap(0)).isEqualTo(nr / 2);
      assertThat(mask.nextWrap(nr / 2)).isEqualTo(nr - 1);
    }
    CpuMask single = CpuMasks.of(nr, nr / 2);
    assertThat(single.nextWrap(nr / 2)).as("only set bit returns itself").isEqualTo(nr / 2);
    assertThat(CpuMasks.empty(nr).nextWrap(0)).isEqualTo(NO_CPU);
  }

  @AllWidths
  void forEachCpuWrap_startInMiddle_visitsUpperThenLower(int nr) {
    CpuMask mask = ends(nr);
    List<Integer> visited = new ArrayList<>();
    int start = nr / 2;
    mask.forEachCpuWrap(start, visited::add);
    List<Integer> expected = new ArrayList<>();
    cpus(mask).stream().filter(cpu -> cpu >= start).forEach(expected::add);
    cpus(mask).stream().filter(cpu -> cpu < start).forEach(expected::add);
    assertThat(visited).isEqualTo(expected);

    if (nr > 4) {
      List<Integer> fromUnset = new ArrayList<>();
      mask.forEachCpuWrap(1, fromUnset::add);
      assertThat(fromUnset).as("start need not be set").containsExactly(nr / 2, nr - 1, 0);
    }
  }

  @AllWidths
  void forEachCpu_clearingBitsAheadOfCursor_skipsThem(int nr) {
    MutableCpuMask mask = CpuMasks.full(nr).mutableCopy();
    List<Integer> visited = new ArrayList<>();
    // Like find_new_ilb() pruning SMT siblings: every visited CPU removes its odd neighbour.
    mask.forEachCpu(
        cpu -> {
          visited.add(cpu);
          if (cpu + 1 < nr) {
            mask.clear(cpu + 1);
          }
        });
    assertThat(visited).isEqualTo(cpus(evens(nr)));

    MutableCpuMask walked = CpuMasks.full(nr).mutableCopy();
    List<Integer> cursor = new ArrayList<>();
    for (int cpu = walked.first(); cpu != NO_CPU; cpu = walked.next(cpu)) {
      cursor.add(cpu);
      for (int ahead = cpu + 1; ahead < Math.min(nr, cpu + 3); ahead++) {
        walked.clear(ahead);
      }
    }
    assertThat(cursor).allMatch(cpu -> cpu % 3 == 0).hasSize((nr + 2) / 3);
  }

  @AllWidths
  void forEachCpuAndWrap_clearingAhead_seeTheLiveMask(int nr) {
    MutableCpuMask mask = CpuMasks.full(nr).mutableCopy();
    CpuMask all = CpuMasks.full(nr);
    List<Integer> visited = new ArrayList<>();
    mask.forEachCpuAnd(
        all,
        cpu -> {
          visited.add(cpu);
          mask.clear(nr - 1);
        });
    assertThat(visited).hasSize(Math.max(1, nr - 1));

    MutableCpuMask wrapped = CpuMasks.full(nr).mutableCopy();
    List<Integer> wrapVisited = new ArrayList<>();
    wrapped.forEachCpuWrap(
        nr / 2,
        cpu -> {
          wrapVisited.add(cpu);
          wrapped.clear(0);
        });
    assertThat(wrapVisited).doesNotContain(nr == 1 ? -1 : 0).hasSize(nr == 1 ? 1 : nr - 1);
  }

  @AllWidths
  void predicates_evensEndsFull_answerLikeTheKernel(int nr) {
    CpuMask evens = evens(nr);
    CpuMask full = CpuMasks.full(nr);
    CpuMask empty = CpuMasks.empty(nr);
    assertThat(evens.intersects(ends(nr))).isTrue();
    assertThat(evens.intersects(empty)).isFalse();
    assertThat(evens.isSubsetOf(full)).isTrue();
    assertThat(empty.isSubsetOf(evens)).isTrue();
    assertThat(full.isSubsetOf(evens)).isEqualTo(nr == 1);
    assertThat(evens.contentEquals(evens(nr))).isTrue();
    assertThat(evens.contentEquals(full)).isEqualTo(nr == 1);
  }

  @AllWidths
  void binaryOps_differentWidths_throw(int nr) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    CpuMask other = CpuMasks.full(otherWidth(nr));
    List<Runnable> ops =
        List.of(
            () -> mask.weightAnd(other),
            () -> mask.firstAnd(other),
            () -> mask.nextAnd(-1, other),
            () -> mask.firstAndNot(other),
            () -> mask.nextAndNot(-1, other),
            () -> mask.forEachCpuAnd(other, cpu -> {}),
            () -> mask.intersects(other),
            () -> mask.isSubsetOf(other),
            () -> mask.contentEquals(other),
            () -> mask.copyFrom(other),
            () -> mask.and(mask, other),
            () -> mask.or(other, mask),
            () -> mask.xor(mask, other),
            () -> mask.andNot(other, mask),
            () -> mask.andWith(other),
            () -> mask.orWith(other),
            () -> mask.andNotWith(other),
            () -> mask.removeAll(other),
            () -> mask.removeAll(CpuMasks.of(otherWidth(nr), 0)));
    for (Runnable op : ops) {
      assertThatThrownBy(op::run)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(String.valueOf(nr))
          .hasMessageContaining(String.valueOf(otherWidth(nr)));
    }
    assertThat(mask.equals(CpuMasks.empty(otherWidth(nr)))).isFalse();
  }

  @AllWidths
  void clearAllFillCopyFrom_anyMask_overwriteEverything(int nr) {
    MutableCpuMask mask = ends(nr);
    mask.fill();
    assertThat(mask.isFull()).isTrue();
    assertThat(mask).isEqualTo(CpuMasks.full(nr));
    mask.clearAll();
    assertThat(mask.isEmpty()).isTrue();
    mask.copyFrom(evens(nr));
    assertThat(mask).isEqualTo(evens(nr));
  }

  @AllWidths
  void setAlgebra_evensAndEnds_matchesElementwiseLogic(int nr) {
    CpuMask evens = evens(nr);
    CpuMask ends = ends(nr);
    MutableCpuMask result = CpuMasks.mutable(nr);
    List<Integer> all = java.util.stream.IntStream.range(0, nr).boxed().toList();

    boolean nonEmpty = result.and(evens, ends);
    assertThat(cpus(result))
        .isEqualTo(all.stream().filter(cpu -> evens.test(cpu) && ends.test(cpu)).toList());
    assertThat(nonEmpty).isTrue();

    result.or(evens, ends);
    assertThat(cpus(result))
        .isEqualTo(all.stream().filter(cpu -> evens.test(cpu) || ends.test(cpu)).toList());

    result.xor(evens, ends);
    assertThat(cpus(result))
        .isEqualTo(all.stream().filter(cpu -> evens.test(cpu) != ends.test(cpu)).toList());

    boolean remains = result.andNot(evens, ends);
    List<Integer> expected =
        all.stream().filter(cpu -> evens.test(cpu) && !ends.test(cpu)).toList();
    assertThat(cpus(result)).isEqualTo(expected);
    assertThat(remains).isEqualTo(!expected.isEmpty());

    assertThat(result.and(evens, CpuMasks.empty(nr))).isFalse();
    assertThat(result.andNot(evens, CpuMasks.full(nr))).isFalse();
    assertThat(result.isEmpty()).isTrue();
  }

  @AllWidths
  void inPlaceOps_evensWithEnds_updateThis(int nr) {
    MutableCpuMask mask = evens(nr);
    mask.orWith(ends(nr));
    List<Integer> oddEnds = cpus(ends(nr)).stream().filter(cpu -> cpu % 2 == 1).toList();
    assertThat(mask.weight()).isEqualTo(evens(nr).weight() + oddEnds.size());
    assertThat(mask.andNotWith(evens(nr))).isEqualTo(!oddEnds.isEmpty());
    assertThat(cpus(mask)).isEqualTo(oddEnds);
    assertThat(mask.isSubsetOf(ends(nr))).isTrue();
    assertThat(mask.andWith(evens(nr))).isFalse();
    assertThat(mask.isEmpty()).isTrue();

    MutableCpuMask aliased = evens(nr);
    aliased.xor(aliased, aliased);
    assertThat(aliased.isEmpty()).isTrue();
  }

  @AllWidths
  void equalsHashCode_sameBitsAnyMutability_areEqual(int nr) {
    MutableCpuMask mutable = ends(nr);
    CpuMask immutable = mutable.toImmutable();
    CpuMask view = mutable.asUnmodifiable();
    CpuMask parsed = CpuMasks.parseCpuList(mutable.toCpuList(), nr);
    for (CpuMask mask : List.of(immutable, view, parsed, CpuMasks.copyOf(mutable))) {
      assertThat(mask).isEqualTo(mutable).hasSameHashCodeAs(mutable);
      assertThat(mutable).isEqualTo(mask);
    }
    assertThat(mutable).isNotEqualTo(CpuMasks.empty(nr)).isNotEqualTo("0");
    assertThat(CpuMasks.empty(nr)).isNotEqualTo(CpuMasks.empty(otherWidth(nr)));
    assertThat(CpuMasks.empty(nr).hashCode())
        .isNotEqualTo(CpuMasks.empty(otherWidth(nr)).hashCode());
  }

  @AllWidths
  void copies_laterWrites_doNotShowThrough(int nr) {
    MutableCpuMask mask = ends(nr);
    MutableCpuMask copy = mask.mutableCopy();
    ImmutableCpuMask snapshot = mask.toImmutable();
    CpuMask view = mask.asUnmodifiable();
    mask.clearAll();
    assertThat(copy).isEqualTo(ends(nr));
    assertThat(snapshot).isEqualTo(ends(nr));
    assertThat(view.isEmpty()).as("a view shows its owner's writes").isTrue();
    assertThat(view).isNotInstanceOf(MutableCpuMask.class).isNotInstanceOf(ImmutableCpuMask.class);
    assertThat(snapshot.toImmutable()).isSameAs(snapshot);
    assertThat(CpuMasks.copyOf(snapshot)).isSameAs(snapshot);
    copy.clearAll();
    assertThat(snapshot).isEqualTo(ends(nr));
  }

  @AllWidths
  void textForms_fullAndEmpty_printKernelForms(int nr) {
    assertThat(CpuMasks.empty(nr).toCpuList()).isEmpty();
    assertThat(CpuMasks.full(nr).toCpuList()).isEqualTo(nr == 1 ? "0" : "0-" + (nr - 1));
    String fullHex = CpuMasks.full(nr).toHex();
    assertThat(fullHex.replace(",", "")).matches("[137f]f*");
    assertThat(fullHex.split(",", -1)).hasSize((nr + 31) / 32);
    assertThat(CpuMasks.full(nr).toString()).contains(String.valueOf(nr));
  }

  @Test
  void foreignImplementation_asOperand_isReadThroughWords() {
    CpuMask foreign = ForeignMask.withBits(65, 0b101L, 1L);
    MutableCpuMask mask = CpuMasks.mutable(65);
    mask.copyFrom(foreign);
    assertThat(mask.toCpuList()).isEqualTo("0,2,64");
    assertThat(mask).isEqualTo(foreign);
    assertThat(mask.hashCode()).isEqualTo(BitmapCpuMask.hashOf(foreign));
    assertThat(CpuMasks.copyOf(foreign)).isEqualTo(mask);
  }

  @Test
  void foreignImplementation_withBitsAboveWidth_doesNotLeakThem() {
    CpuMask foreign = ForeignMask.withBits(65, 0L, -1L);
    MutableCpuMask mask = CpuMasks.mutable(65);
    mask.copyFrom(foreign);
    assertThat(mask.toCpuList()).isEqualTo("64");
    assertThat(mask.and(foreign, foreign)).isTrue();
    assertThat(mask.isFull()).isFalse();
    mask.or(foreign, foreign);
    assertThat(mask.weight()).isEqualTo(1);
  }

  @AllWidths
  void removeAll_siblingLikeMask_clearsOnlyItsCpus(int nr) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    mask.fill();
    CpuMask pair = CpuMasks.of(nr, nr / 2, nr - 1);
    mask.removeAll(pair);
    assertThat(mask.weight()).isEqualTo(nr - pair.weight());
    assertThat(mask.intersects(pair)).isFalse();
    mask.removeAll(CpuMasks.full(nr));
    assertThat(mask.isEmpty()).isTrue();
  }

  @Test
  void immutableMask_sparseOrDense_indexesNonZeroWordsOnlyWhenSparse() {
    ImmutableBitmapCpuMask siblings = (ImmutableBitmapCpuMask) CpuMasks.of(8192, 5, 4101);
    assertThat(siblings.nonZeroWords).containsExactly(0, 64);
    assertThat(((ImmutableBitmapCpuMask) CpuMasks.empty(8192)).nonZeroWords).isEmpty();
    assertThat(((ImmutableBitmapCpuMask) CpuMasks.range(8192, 0, 4095)).nonZeroWords).isNull();
    assertThat(((ImmutableBitmapCpuMask) CpuMasks.of(64, 3)).nonZeroWords).isNull();
    assertThat(((ImmutableBitmapCpuMask) CpuMasks.of(256, 3)).nonZeroWords).containsExactly(0);
  }
}
