package dev.schedlab.cpumask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * A random property-test case: a width in {@code [1, 8192]}, two bit sets of that width with
 * independently chosen densities and shapes (or {@code b} derived from {@code a}, so that subset
 * and equality cases occur), a cursor in {@code [-1, nr)}, and the seed that drew them. The
 * reference model is {@link BitSet}; accessors return copies, so a property may mutate them.
 */
record MaskSample(int nr, BitSet a, BitSet b, int cursor, long seed, OperandKind kind) {

  /** How a bit set is filled. */
  enum Shape {
    EMPTY,
    FULL,
    SPARSE,
    QUARTER,
    HALF,
    DENSE,
    RUNS
  }

  /** How {@code b} relates to {@code a}. */
  enum Relation {
    INDEPENDENT,
    SUPERSET,
    EQUAL,
    FEW_FLIPS
  }

  /** Which implementation plays the second operand. */
  enum OperandKind {
    MUTABLE,
    IMMUTABLE,
    VIEW,
    FOREIGN
  }

  private static final int[] INTERESTING_WIDTHS = {
    1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 352, 384, 4095, 4096, 8191, 8192
  };

  static Arbitrary<Integer> widths() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.integers().between(1, CpuMask.MAX_CPUS)),
        Tuple.of(1, Arbitraries.integers().between(1, 200)),
        Tuple.of(1, Arbitraries.of(Arrays.stream(INTERESTING_WIDTHS).boxed().toList())));
  }

  static Arbitrary<MaskSample> samples() {
    return Combinators.combine(
            widths(),
            Arbitraries.of(Shape.class),
            Arbitraries.of(Shape.class),
            Arbitraries.of(Relation.class).withoutEdgeCases(),
            Arbitraries.of(OperandKind.class).withoutEdgeCases(),
            // The seed only drives the bit patterns; its edge cases (0, -1, ...) add nothing.
            Arbitraries.longs().withoutEdgeCases())
        .as(MaskSample::create);
  }

  static MaskSample create(
      int nr, Shape shapeA, Shape shapeB, Relation relation, OperandKind kind, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    BitSet a = fill(nr, shapeA, random);
    BitSet b =
        switch (relation) {
          case INDEPENDENT -> fill(nr, shapeB, random);
          case EQUAL -> (BitSet) a.clone();
          case SUPERSET -> {
            BitSet superset = fill(nr, shapeB, random);
            superset.or(a);
            yield superset;
          }
          case FEW_FLIPS -> {
            BitSet flipped = (BitSet) a.clone();
            for (int i = 0; i < 3; i++) {
              flipped.flip(random.nextInt(nr));
            }
            yield flipped;
          }
        };
    return new MaskSample(nr, a, b, random.nextInt(-1, nr), seed, kind);
  }

  static BitSet fill(int nr, Shape shape, SplittableRandom random) {
    BitSet bits = new BitSet(nr);
    switch (shape) {
      case EMPTY -> {}
      case FULL -> bits.set(0, nr);
      case SPARSE -> fillRandom(bits, nr, 0.01, random);
      case QUARTER -> fillRandom(bits, nr, 0.25, random);
      case HALF -> fillRandom(bits, nr, 0.5, random);
      case DENSE -> fillRandom(bits, nr, 0.95, random);
      case RUNS -> {
        boolean on = random.nextBoolean();
        for (int cpu = 0; cpu < nr; ) {
          int run = 1 + random.nextInt(130);
          if (on) {
            bits.set(cpu, Math.min(nr, cpu + run));
          }
          cpu += run;
          on = !on;
        }
      }
    }
    return bits;
  }

  private static void fillRandom(BitSet bits, int nr, double density, SplittableRandom random) {
    for (int cpu = 0; cpu < nr; cpu++) {
      if (random.nextDouble() < density) {
        bits.set(cpu);
      }
    }
  }

  @Override
  public BitSet a() {
    return (BitSet) a.clone();
  }

  @Override
  public BitSet b() {
    return (BitSet) b.clone();
  }

  /** A fresh random source for choices a property makes beyond the sample. */
  SplittableRandom random() {
    return new SplittableRandom(seed ^ 0x9e3779b97f4a7c15L);
  }

  /** A cursor start in {@code [0, nr)}. */
  int start() {
    return Math.max(cursor, 0);
  }

  MutableCpuMask mutableA() {
    return toMask(nr, a);
  }

  MutableCpuMask mutableB() {
    return toMask(nr, b);
  }

  /** {@code b} as the sampled kind of mask: mutable, immutable, unmodifiable view, or foreign. */
  CpuMask operandB() {
    MutableCpuMask mask = toMask(nr, b);
    return switch (kind) {
      case MUTABLE -> mask;
      case IMMUTABLE -> mask.toImmutable();
      case VIEW -> mask.asUnmodifiable();
      case FOREIGN -> ForeignMask.withBits(nr, words(b, nr));
    };
  }

  static MutableCpuMask toMask(int nr, BitSet bits) {
    MutableCpuMask mask = CpuMasks.mutable(nr);
    bits.stream().forEach(mask::set);
    return mask;
  }

  /** The bits of a mask read one CPU at a time, independent of its word layout. */
  static BitSet toBitSet(CpuMask mask) {
    BitSet bits = new BitSet(mask.nrCpuIds());
    for (int cpu = 0; cpu < mask.nrCpuIds(); cpu++) {
      if (mask.test(cpu)) {
        bits.set(cpu);
      }
    }
    return bits;
  }

  static long[] words(BitSet bits, int nr) {
    return Arrays.copyOf(bits.toLongArray(), (nr + 63) / 64);
  }

  static List<Integer> list(BitSet bits) {
    return bits.stream().boxed().toList();
  }

  static List<Integer> visited(CpuMask mask) {
    List<Integer> cpus = new ArrayList<>();
    mask.forEachCpu(cpus::add);
    return cpus;
  }

  /** Expected {@code for_each_cpu_wrap} order: from {@code start} upward, then below it. */
  static List<Integer> wrapOrder(BitSet bits, int start) {
    List<Integer> order = new ArrayList<>();
    bits.stream().filter(cpu -> cpu >= start).forEach(order::add);
    bits.stream().filter(cpu -> cpu < start).forEach(order::add);
    return order;
  }

  /** Expected {@code cpumask_next_wrap}: next set bit after {@code cpu}, else the first. */
  static int nextWrap(BitSet bits, int cpu) {
    int next = bits.nextSetBit(cpu + 1);
    return next >= 0 ? next : bits.nextSetBit(0);
  }

  /** Expected {@code %*pbl} text. */
  static String cpuList(BitSet bits) {
    StringBuilder text = new StringBuilder();
    for (int lo = bits.nextSetBit(0); lo >= 0; lo = bits.nextSetBit(bits.nextClearBit(lo))) {
      int hi = bits.nextClearBit(lo) - 1;
      text.append(text.length() == 0 ? "" : ",").append(lo).append(hi > lo ? "-" + hi : "");
    }
    return text.toString();
  }

  /** Expected {@code %*pb} text. */
  static String hex(BitSet bits, int nr) {
    int chunks = (nr + 31) / 32;
    long[] words = words(bits, nr);
    List<String> parts = new ArrayList<>();
    for (int chunk = chunks - 1; chunk >= 0; chunk--) {
      long value = chunk % 2 == 0 ? words[chunk / 2] & 0xffffffffL : words[chunk / 2] >>> 32;
      int digits = chunk == chunks - 1 ? (nr - 32 * (chunks - 1) + 3) / 4 : 8;
      parts.add(String.format("%0" + digits + "x", value));
    }
    return String.join(",", parts);
  }
}
