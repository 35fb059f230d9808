package dev.schedlab.cpumask;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link CpuCursor} walks exactly the set bits of a mask, of {@code a & b} and of {@code a & ~b} in
 * ascending order, as {@link BitSet} computes them, on random masks of widths 1 to 8192 with every
 * kind of second operand (this package's masks, a view, a foreign implementation), and a reused
 * cursor gives the same walk after a restart.
 */
final class CpuCursorPropertyTest {

  @Provide
  Arbitrary<MaskSample> samples() {
    return MaskSample.samples();
  }

  @Property
  void walks_randomMasks_matchBitSet(@ForAll("samples") MaskSample s) {
    CpuMask a = s.mutableA();
    CpuMask b = s.operandB();
    BitSet and = s.a();
    and.and(s.b());
    BitSet andNot = s.a();
    andNot.andNot(s.b());
    CpuCursor cursor = new CpuCursor();

    assertThat(walk(cursor.over(a))).isEqualTo(list(s.a()));
    assertThat(walk(cursor.overAnd(a, b))).isEqualTo(list(and));
    assertThat(walk(cursor.overAndNot(a, b))).isEqualTo(list(andNot));
    assertThat(walk(cursor.over(b))).isEqualTo(list(s.b()));
    assertThat(walk(cursor.over(a))).isEqualTo(list(s.a()));
    assertThat(cursor.next()).isEqualTo(CpuMask.NO_CPU);
  }

  @Example
  void foreignMaskWithBitsAboveItsWidth_areNotWalked() {
    CpuMask foreign = ForeignMask.withBits(66, 0b101L, -1L); // bits 64, 65 valid; 66-127 junk

    assertThat(walk(new CpuCursor().over(foreign))).containsExactly(0, 2, 64, 65);
    assertThat(walk(new CpuCursor().overAndNot(foreign, CpuMasks.of(66, 2))))
        .containsExactly(0, 64, 65);
  }

  @Example
  void newCursor_walksNothing_andWidthsMustAgree() {
    assertThat(new CpuCursor().next()).isEqualTo(CpuMask.NO_CPU);
    assertThatThrownBy(() -> new CpuCursor().overAnd(CpuMasks.full(8), CpuMasks.full(9)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("widths differ");
  }

  private static List<Integer> walk(CpuCursor cursor) {
    List<Integer> cpus = new ArrayList<>();
    for (int cpu = cursor.next(); cpu != CpuMask.NO_CPU; cpu = cursor.next()) {
      cpus.add(cpu);
    }
    return cpus;
  }

  private static List<Integer> list(BitSet bits) {
    List<Integer> cpus = new ArrayList<>();
    bits.stream().forEach(cpus::add);
    return cpus;
  }
}
