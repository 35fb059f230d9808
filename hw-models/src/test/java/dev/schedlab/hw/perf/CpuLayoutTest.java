package dev.schedlab.hw.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * A layout flattens a topology without losing anything the model reads: each CPU's siblings are
 * exactly its SMT mask without itself, its node and capacity are the topology's; hand-made layouts
 * must list siblings symmetrically.
 */
final class CpuLayoutTest {

  @Test
  void of_splitNumberedShape_siblingsAreTheOtherThreadsOfTheCore() {
    Topology t = Shape.parse("2n1l4c2t").toTopology(SiblingNumbering.SPLIT);
    CpuLayout layout = CpuLayout.of(t);
    assertThat(layout.size()).isEqualTo(16);
    assertThat(layout.siblingCount(3)).isEqualTo(1);
    assertThat(layout.sibling(3, 0)).isEqualTo(11);
    assertThat(layout.node(11)).isEqualTo(t.nodeOf(11));
    assertThat(layout.capacity(5)).isEqualTo(1024);
    assertThat(layout.maxThreadsPerCore()).isEqualTo(2);
  }

  @Test
  void of_smt4Shape_listsThreeSiblings() {
    CpuLayout layout = CpuLayout.of(Shape.parse("4c4t").toTopology(SiblingNumbering.ADJACENT));
    assertThat(layout.siblingCount(5)).isEqualTo(3);
    assertThat(new int[] {layout.sibling(5, 0), layout.sibling(5, 1), layout.sibling(5, 2)})
        .containsExactly(4, 6, 7);
  }

  @Test
  void of_asymmetricSiblingLists_isRejected() {
    assertThatThrownBy(
            () -> CpuLayout.of(new int[] {1024, 1024}, new int[][] {{1}, {}}, new int[] {0, 0}))
        .hasMessageContaining("not the other way round");
  }

  @Test
  void of_mixedCoreWidths_eachCpuKeepsItsOwnSiblingsAndNoOther() {
    // CPU 0 alone, CPUs 1-2 a pair, CPUs 3-5 a triple: siblings share one flat array.
    CpuLayout layout =
        CpuLayout.of(
            new int[] {1024, 1024, 1024, 1024, 1024, 1024},
            new int[][] {{}, {2}, {1}, {4, 5}, {3, 5}, {3, 4}},
            new int[] {0, 0, 0, 0, 0, 0});
    assertThat(layout.siblingCount(0)).isZero();
    assertThat(layout.siblingCount(2)).isEqualTo(1);
    assertThat(layout.sibling(2, 0)).isEqualTo(1);
    assertThat(new int[] {layout.sibling(4, 0), layout.sibling(4, 1)}).containsExactly(3, 5);
    assertThat(layout.maxThreadsPerCore()).isEqualTo(3);
    assertThatThrownBy(() -> layout.sibling(1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> layout.sibling(0, 0)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
