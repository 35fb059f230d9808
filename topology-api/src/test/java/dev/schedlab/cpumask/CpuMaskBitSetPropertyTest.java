package dev.schedlab.cpumask;

import static dev.schedlab.cpumask.MaskSample.list;
import static dev.schedlab.cpumask.MaskSample.toBitSet;
import static dev.schedlab.cpumask.MaskSample.visited;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every {@link CpuMask} and {@link MutableCpuMask} operation agrees with the same operation on
 * {@link BitSet}, for random widths in {@code [1, 8192]}, random densities and shapes, every kind
 * of second operand (mutable, immutable, view, foreign), and walks that clear bits ahead of the
 * cursor.
 */
final class CpuMaskBitSetPropertyTest {

  @Provide
  Arbitrary<MaskSample> samples() {
    return MaskSample.samples();
  }

  private static int orNoCpu(int bit) {
    return bit < 0 ? CpuMask.NO_CPU : bit;
  }

  @Property
  void readOperations_randomMask_matchBitSet(@ForAll("samples") MaskSample s) {
    BitSet a = s.a();
    CpuMask mask = s.mutableA();
    assertThat(toBitSet(mask)).isEqualTo(a);
    assertThat(mask.weight()).isEqualTo(a.cardinality());
    assertThat(mask.isEmpty()).isEqualTo(a.isEmpty());
    assertThat(mask.isFull()).isEqualTo(a.cardinality() == s.nr());
    assertThat(mask.first()).isEqualTo(orNoCpu(a.nextSetBit(0)));
    assertThat(mask.last()).isEqualTo(orNoCpu(a.previousSetBit(s.nr() - 1)));
    assertThat(mask.next(s.cursor())).isEqualTo(orNoCpu(a.nextSetBit(s.cursor() + 1)));
    assertThat(mask.wordCount()).isEqualTo((s.nr() + 63) / 64);
    long[] words = MaskSample.words(a, s.nr());
    for (int i = 0; i < words.length; i++) {
      assertThat(mask.word(i)).isEqualTo(words[i]);
    }
  }

  @Property
  void iteration_randomMask_visitsSetBitsAscending(@ForAll("samples") MaskSample s) {
    CpuMask mask = s.mutableA();
    List<Integer> cursorWalk = new ArrayList<>();
    for (int cpu = mask.first(); cpu != CpuMask.NO_CPU; cpu = mask.next(cpu)) {
      cursorWalk.add(cpu);
    }
    assertThat(visited(mask)).isEqualTo(cursorWalk).isEqualTo(list(s.a()));
  }

  /**
   * A frozen mask searches only the words from its first to its last non-zero one; every search
   * from every cursor must still agree with {@link BitSet}, including cursors before the first and
   * after the last of those words.
   */
  @Property
  void searches_immutableReceiver_matchBitSet(@ForAll("samples") MaskSample s) {
    BitSet a = s.a();
    BitSet and = s.a();
    and.and(s.b());
    CpuMask mask = s.mutableA().toImmutable();
    CpuMask other = s.operandB();
    BitSet aNotB = s.a();
    aNotB.andNot(s.b());
    // A frozen mask reads only its words from the first to the last non-zero one.
    assertThat(mask.weight()).isEqualTo(a.cardinality());
    assertThat(mask.isEmpty()).isEqualTo(a.isEmpty());
    assertThat(mask.weightAnd(other)).isEqualTo(and.cardinality());
    assertThat(mask.intersects(other)).isEqualTo(a.intersects(s.b()));
    assertThat(mask.isSubsetOf(other)).isEqualTo(aNotB.isEmpty());
    assertThat(mask.first()).isEqualTo(orNoCpu(a.nextSetBit(0)));
    assertThat(mask.last()).isEqualTo(orNoCpu(a.previousSetBit(s.nr() - 1)));
    assertThat(mask.firstAnd(other)).isEqualTo(orNoCpu(and.nextSetBit(0)));
    int[] next = new int[s.nr() + 1];
    int[] expectedNext = new int[s.nr() + 1];
    int[] nextAnd = new int[s.nr() + 1];
    int[] expectedNextAnd = new int[s.nr() + 1];
    for (int cursor = -1; cursor < s.nr(); cursor++) {
      next[cursor + 1] = mask.next(cursor);
      expectedNext[cursor + 1] = orNoCpu(a.nextSetBit(cursor + 1));
      nextAnd[cursor + 1] = mask.nextAnd(cursor, other);
      expectedNextAnd[cursor + 1] = orNoCpu(and.nextSetBit(cursor + 1));
    }
    assertThat(next).isEqualTo(expectedNext);
    assertThat(nextAnd).isEqualTo(expectedNextAnd);
    List<Integer> cursorWalk = new ArrayList<>();
    for (int cpu = mask.first(); cpu != CpuMask.NO_CPU; cpu = mask.next(cpu)) {
      cursorWalk.add(cpu);
    }
    assertThat(cursorWalk).isEqualTo(list(a));
  }

  @Property
  void wrapOperations_randomCursor_matchReference(@ForAll("samples") MaskSample s) {
    BitSet a = s.a();
    CpuMask mask = s.mutableA();
    assertThat(mask.nextWrap(s.cursor())).isEqualTo(orNoCpu(MaskSample.nextWrap(a, s.cursor())));
    List<Integer> order = new ArrayList<>();
    mask.forEachCpuWrap(s.start(), order::add);
    assertThat(order).isEqualTo(MaskSample.wrapOrder(a, s.start()));
  }

  @Property
  void andSearches_twoMasks_matchBitSetIntersection(@ForAll("samples") MaskSample s) {
    CpuMask mask = s.mutableA();
    CpuMask other = s.operandB();
    BitSet and = s.a();
    and.and(s.b());
    BitSet andNot = s.a();
    andNot.andNot(s.b());
    assertThat(mask.firstAnd(other)).isEqualTo(orNoCpu(and.nextSetBit(0)));
    assertThat(mask.nextAnd(s.cursor(), other)).isEqualTo(orNoCpu(and.nextSetBit(s.cursor() + 1)));
    assertThat(mask.firstAndNot(other)).isEqualTo(orNoCpu(andNot.nextSetBit(0)));
    assertThat(mask.nextAndNot(s.cursor(), other))
        .isEqualTo(orNoCpu(andNot.nextSetBit(s.cursor() + 1)));
    List<Integer> both = new ArrayList<>();
    mask.forEachCpuAnd(other, both::add);
    assertThat(both).isEqualTo(list(and));
    assertThat(mask.weightAnd(other)).isEqualTo(and.cardinality());
  }

  @Property
  void predicates_twoMasks_matchBitSet(@ForAll("samples") MaskSample s) {
    BitSet a = s.a();
    BitSet b = s.b();
    CpuMask mask = s.mutableA();
    CpuMask other = s.operandB();
    BitSet aNotB = s.a();
    aNotB.andNot(b);
    assertThat(mask.intersects(other)).isEqualTo(a.intersects(b));
    assertThat(mask.isSubsetOf(other)).isEqualTo(aNotB.isEmpty());
    assertThat(mask.contentEquals(other)).isEqualTo(a.equals(b));
    assertThat(mask.equals(other)).isEqualTo(a.equals(b));
    if (a.equals(b)) {
      assertThat(mask.hashCode()).isEqualTo(BitmapCpuMask.hashOf(other));
      assertThat(mask.toImmutable().hashCode()).isEqualTo(mask.hashCode());
    }
  }

  @Property
  void binaryOps_intoThirdMask_matchBitSet(@ForAll("samples") MaskSample s) {
    BitSet a = s.a();
    BitSet b = s.b();
    CpuMask left = s.mutableA().toImmutable();
    CpuMask right = s.operandB();
    MutableCpuMask result = CpuMasks.mutable(s.nr());

    BitSet expected = s.a();
    expected.and(b);
    assertThat(result.and(left, right)).isEqualTo(!expected.isEmpty());
    assertThat(toBitSet(result)).isEqualTo(expected);

    expected = s.a();
    expected.or(b);
    result.or(left, right);
    assertThat(toBitSet(result)).isEqualTo(expected);

    expected = s.a();
    expected.xor(b);
    result.xor(left, right);
    assertThat(toBitSet(result)).isEqualTo(expected);

    expected = s.a();
    expected.andNot(b);
    assertThat(result.andNot(left, right)).isEqualTo(!expected.isEmpty());
    assertThat(toBitSet(result)).isEqualTo(expected);
    assertThat(toBitSet(left)).as("operands untouched").isEqualTo(a);
  }

  @Property
  void inPlaceOps_randomMasks_matchBitSet(@ForAll("samples") MaskSample s) {
    CpuMask other = s.operandB();
    BitSet b = s.b();

    MutableCpuMask mask = s.mutableA();
    BitSet expected = s.a();
    expected.and(b);
    assertThat(mask.andWith(other)).isEqualTo(!expected.isEmpty());
    assertThat(toBitSet(mask)).isEqualTo(expected);

    mask = s.mutableA();
    expected = s.a();
    expected.or(b);
    mask.orWith(other);
    assertThat(toBitSet(mask)).isEqualTo(expected);

    mask = s.mutableA();
    expected = s.a();
    expected.andNot(b);
    assertThat(mask.andNotWith(other)).isEqualTo(!expected.isEmpty());
    assertThat(toBitSet(mask)).isEqualTo(expected);

    mask = s.mutableA();
    mask.copyFrom(other);
    assertThat(toBitSet(mask)).isEqualTo(b);
    assertThat(mask).isEqualTo(other);
  }

  @Property
  void removeAll_randomMasks_matchBitSetAndNot(@ForAll("samples") MaskSample s) {
    MutableCpuMask mask = s.mutableA();
    BitSet expected = s.a();
    expected.andNot(s.b());
    mask.removeAll(s.operandB());
    assertThat(toBitSet(mask)).isEqualTo(expected);
  }

  @Property
  void removeAll_fewCpusImmutable_clearsExactlyThoseCpus(@ForAll("samples") MaskSample s) {
    SplittableRandom random = s.random();
    // Like cpu_smt_mask() with SMT1-8: sparse on wide masks, so the indexed path runs.
    int[] cpus = random.ints(1 + random.nextInt(8), 0, s.nr()).toArray();
    MutableCpuMask mask = s.mutableA();
    BitSet expected = s.a();
    for (int cpu : cpus) {
      expected.clear(cpu);
    }
    mask.removeAll(CpuMasks.of(s.nr(), cpus));
    assertThat(toBitSet(mask)).isEqualTo(expected);
  }

  @Property(tries = 200)
  void scratchLease_asOperandOrTarget_matchesBitSet(@ForAll("samples") MaskSample s) {
    ScratchMaskPool pool = new ScratchMaskPool(s.nr(), 1, ScratchMaskPool.MisusePolicy.THROW);
    try (ScratchMask lease = pool.acquire(s.nr() - 1, 0)) {
      lease.copyFrom(s.operandB());
      assertThat(toBitSet(lease)).isEqualTo(s.b());
      BitSet and = s.a();
      and.and(s.b());
      BitSet andNot = s.a();
      andNot.andNot(s.b());
      BitSet or = s.a();
      or.or(s.b());
      BitSet xor = s.a();
      xor.xor(s.b());
      CpuMask a = s.mutableA();
      MutableCpuMask result = CpuMasks.mutable(s.nr());
      assertThat(result.and(a, lease)).isEqualTo(!and.isEmpty());
      assertThat(toBitSet(result)).isEqualTo(and);
      assertThat(result.andNot(a, lease)).isEqualTo(!andNot.isEmpty());
      assertThat(toBitSet(result)).isEqualTo(andNot);
      result.or(lease, a);
      assertThat(toBitSet(result)).isEqualTo(or);
      result.xor(lease, a);
      assertThat(toBitSet(result)).isEqualTo(xor);
      result.copyFrom(lease);
      assertThat(toBitSet(result)).isEqualTo(s.b());
      assertThat(a.firstAnd(lease)).isEqualTo(orNoCpu(and.nextSetBit(0)));
      List<Integer> both = new ArrayList<>();
      a.forEachCpuAnd(lease, both::add);
      assertThat(both).isEqualTo(list(and));
      MutableCpuMask pruned = s.mutableA();
      pruned.removeAll(lease);
      assertThat(toBitSet(pruned)).isEqualTo(andNot);
      lease.removeAll(s.mutableA());
      BitSet bNotA = s.b();
      bNotA.andNot(s.a());
      assertThat(toBitSet(lease)).isEqualTo(bNotA);
    }
  }

  @Property
  void singleBitWrites_randomSequence_matchBitSet(@ForAll("samples") MaskSample s) {
    SplittableRandom random = s.random();
    BitSet expected = s.a();
    MutableCpuMask mask = s.mutableA();
    for (int step = 0; step < 64; step++) {
      int cpu = random.nextInt(s.nr());
      switch (random.nextInt(4)) {
        case 0 -> {
          mask.set(cpu);
          expected.set(cpu);
        }
        case 1 -> {
          mask.clear(cpu);
          expected.clear(cpu);
        }
        case 2 -> {
          assertThat(mask.testAndSet(cpu)).isEqualTo(expected.get(cpu));
          expected.set(cpu);
        }
        default -> {
          assertThat(mask.testAndClear(cpu)).isEqualTo(expected.get(cpu));
          expected.clear(cpu);
        }
      }
      assertThat(mask.test(cpu)).isEqualTo(expected.get(cpu));
    }
    assertThat(toBitSet(mask)).isEqualTo(expected);
    assertThat(mask.weight()).isEqualTo(expected.cardinality());
  }

  @Property
  void setRange_randomBounds_matchesBitSetSet(@ForAll("samples") MaskSample s) {
    SplittableRandom random = s.random();
    int from = random.nextInt(s.nr());
    int to = from + random.nextInt(s.nr() - from);
    MutableCpuMask mask = s.mutableA();
    BitSet expected = s.a();
    mask.setRange(from, to);
    expected.set(from, to + 1);
    assertThat(toBitSet(mask)).isEqualTo(expected);
    assertThat(CpuMasks.range(s.nr(), from, to).weight()).isEqualTo(to - from + 1);
  }

  @Property
  void fillAndClearAll_anyMask_giveFullAndEmpty(@ForAll("samples") MaskSample s) {
    MutableCpuMask mask = s.mutableA();
    mask.fill();
    assertThat(mask.isFull()).isTrue();
    assertThat(mask).isEqualTo(CpuMasks.full(s.nr()));
    assertThat(mask.weight()).isEqualTo(s.nr());
    mask.clearAll();
    assertThat(mask.isEmpty()).isTrue();
    assertThat(mask.first()).isEqualTo(CpuMask.NO_CPU);
  }

  @Property
  void copies_randomMask_equalAndIndependent(@ForAll("samples") MaskSample s) {
    MutableCpuMask mask = s.mutableA();
    ImmutableCpuMask snapshot = mask.toImmutable();
    MutableCpuMask copy = mask.mutableCopy();
    CpuMask view = mask.asUnmodifiable();
    assertThat(snapshot).isEqualTo(mask).isEqualTo(copy).isEqualTo(view);
    assertThat(CpuMasks.copyOf(view)).isEqualTo(mask);
    mask.xor(mask, CpuMasks.full(s.nr()));
    BitSet complement = s.a();
    complement.flip(0, s.nr());
    assertThat(toBitSet(view)).isEqualTo(complement);
    assertThat(toBitSet(snapshot)).isEqualTo(s.a());
    assertThat(toBitSet(copy)).isEqualTo(s.a());
  }

  @Property
  void walkThatPrunesAhead_randomMask_matchesLiveBitSetWalk(@ForAll("samples") MaskSample s) {
    int nr = s.nr();
    int stride = 1 + s.random().nextInt(8);
    // Like find_new_ilb(): each visited CPU removes a "sibling" further on and a nearby CPU.
    MutableCpuMask mask = s.mutableA();
    List<Integer> visited = new ArrayList<>();
    mask.forEachCpu(
        cpu -> {
          visited.add(cpu);
          prune(mask::clear, cpu, nr, stride);
        });
    BitSet live = s.a();
    List<Integer> expected = new ArrayList<>();
    for (int cpu = live.nextSetBit(0); cpu >= 0; cpu = live.nextSetBit(cpu + 1)) {
      expected.add(cpu);
      prune(live::clear, cpu, nr, stride);
    }
    assertThat(visited).isEqualTo(expected);
    assertThat(toBitSet(mask)).isEqualTo(live);

    MutableCpuMask andWalked = s.mutableA();
    CpuMask other = s.operandB();
    List<Integer> andVisited = new ArrayList<>();
    andWalked.forEachCpuAnd(
        other,
        cpu -> {
          andVisited.add(cpu);
          prune(andWalked::clear, cpu, nr, stride);
        });
    BitSet liveAnd = s.a();
    BitSet b = s.b();
    List<Integer> expectedAnd = new ArrayList<>();
    for (int cpu = nextAnd(liveAnd, b, 0); cpu >= 0; cpu = nextAnd(liveAnd, b, cpu + 1)) {
      expectedAnd.add(cpu);
      prune(liveAnd::clear, cpu, nr, stride);
    }
    assertThat(andVisited).isEqualTo(expectedAnd);
  }

  @Property
  void wrapWalkThatPrunes_randomStart_neverVisitsClearedCpus(@ForAll("samples") MaskSample s) {
    int nr = s.nr();
    int stride = 1 + s.random().nextInt(8);
    MutableCpuMask mask = s.mutableA();
    List<Integer> visited = new ArrayList<>();
    mask.forEachCpuWrap(
        s.start(),
        cpu -> {
          visited.add(cpu);
          prune(mask::clear, cpu, nr, stride);
        });
    BitSet live = s.a();
    List<Integer> expected = new ArrayList<>();
    for (int cpu = live.nextSetBit(s.start()); cpu >= 0; cpu = live.nextSetBit(cpu + 1)) {
      expected.add(cpu);
      prune(live::clear, cpu, nr, stride);
    }
    for (int cpu = live.nextSetBit(0);
        cpu >= 0 && cpu < s.start();
        cpu = live.nextSetBit(cpu + 1)) {
      expected.add(cpu);
      prune(live::clear, cpu, nr, stride);
    }
    assertThat(visited).isEqualTo(expected).doesNotHaveDuplicates();
  }

  private static int nextAnd(BitSet a, BitSet b, int from) {
    for (int cpu = a.nextSetBit(from); cpu >= 0; cpu = a.nextSetBit(cpu + 1)) {
      if (b.get(cpu)) {
        return cpu;
      }
    }
    return -1;
  }

  private static void prune(java.util.function.IntConsumer clear, int cpu, int nr, int stride) {
    clear.accept((cpu + nr / 2) % nr);
    if (cpu + stride < nr) {
      clear.accept(cpu + stride);
    }
  }

  @Property
  void distribute_repeatedCalls_matchRotatingReference(@ForAll("samples") MaskSample s) {
    CpuMask a = s.mutableA();
    CpuMask b = s.operandB();
    BitSet and = s.a();
    and.and(s.b());
    DistributeCursor one = new DistributeCursor();
    DistributeCursor both = new DistributeCursor();
    int previousOne = 0;
    int previousBoth = 0;
    for (int call = 0; call < 10; call++) {
      int expectedOne = orNoCpu(MaskSample.nextWrap(s.a(), previousOne));
      assertThat(one.anyDistribute(a)).isEqualTo(expectedOne);
      previousOne = expectedOne == CpuMask.NO_CPU ? previousOne : expectedOne;
      int expectedBoth = orNoCpu(MaskSample.nextWrap(and, previousBoth));
      assertThat(both.anyAndDistribute(a, b)).isEqualTo(expectedBoth);
      previousBoth = expectedBoth == CpuMask.NO_CPU ? previousBoth : expectedBoth;
    }
  }
}
