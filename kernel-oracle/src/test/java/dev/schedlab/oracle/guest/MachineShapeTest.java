package dev.schedlab.oracle.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * A simulator machine becomes the guest shape with the same counts and SLIT when QEMU's x86 guest
 * can express it (L3 per die, one L2 per core, nodes as runs of whole cores), and is refused in one
 * line naming what QEMU lacks otherwise.
 */
final class MachineShapeTest {

  private static Topology shape(String text) {
    return Shape.parse(text).toTopology(SiblingNumbering.SPLIT);
  }

  @Test
  void twoSocketsSmt2_splitNumbering_becomesTheSameCounts() {
    GuestShape guest = MachineShape.of("m", shape("2n4c2t"));
    assertThat(guest.toString()).isEqualTo("2s1d4c2t");
    assertThat(guest.nodes()).isEqualTo(2);
    assertThat(guest.distances()[0][1]).isEqualTo(20);
  }

  @Test
  void severalLlcsPerDie_refused() {
    assertThatThrownBy(() -> MachineShape.of("m", shape("2n2l4c2t")))
        .hasMessage(
            "m cannot boot in QEMU: its last-level cache spans 8 CPUs, not its die's 16"
                + " (QEMU's x86 guest shares the L3 by die)");
  }

  @Test
  void clusters_refused() {
    assertThatThrownBy(() -> MachineShape.of("m", shape("1n1l2k4c")))
        .hasMessageContaining("cores share L2 clusters");
  }

  @Test
  void tooManyCpus_refused() {
    assertThatThrownBy(() -> MachineShape.of("m", shape("2n64c4t")))
        .hasMessageContaining("512 CPUs, QEMU's pc machine takes at most 255");
  }
}
