package dev.schedlab.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Shape strings parse into the counts they spell (components optional except cores, in the order s
 * n l k c t), print back canonically, are rejected with the input, position and grammar when
 * malformed, and turn into machines numbered as the sibling numbering says.
 */
final class ShapeTest {

  @Test
  void parse_fullShape_readsEveryCount() {
    Shape shape = Shape.parse("2n4l8c2t");

    assertThat(shape).isEqualTo(new Shape(2, 2, 4, 1, 8, 2));
    assertThat(shape.cpuCount()).isEqualTo(128);
    assertThat(shape.coreCount()).isEqualTo(64);
    assertThat(shape).hasToString("2n4l8c2t");
  }

  @Test
  void parse_coresOnly_defaultsTheRestToOne() {
    Shape shape = Shape.parse(" 80c\n");

    assertThat(shape).isEqualTo(new Shape(1, 1, 1, 1, 80, 1));
    assertThat(shape).hasToString("1n1l80c1t");
  }

  @Test
  void parse_packagesAndClusters_keptAndPrinted() {
    Shape shape = Shape.parse("2s4n2l2k8c2t");

    assertThat(shape).isEqualTo(new Shape(2, 4, 2, 2, 8, 2));
    assertThat(shape).hasToString("2s4n2l2k8c2t");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''            | 0 | empty shape",
        "2n4x          | 3 | unknown unit",
        "n4c           | 0 | expected a count",
        "4c2n          | 3 | out of order",
        "2n2n4c        | 3 | repeated",
        "0c            | 0 | at least 1",
        "4n            | 2 | core count",
        "8c2           | 3 | has no unit letter",
        "99999999999c  | 0 | too large",
      })
  void parse_malformed_namesInputPositionAndGrammar(String text, int position, String problem) {
    assertThatThrownBy(() -> Shape.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"" + text + "\"")
        .hasMessageContaining("at position " + position + ":")
        .hasMessageContaining(problem)
        .hasMessageContaining(Shape.GRAMMAR);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "2s3n4c        | do not split evenly into 2 packages",
        "4s2n1l4c      | divisible by 2",
        "1n1l3k8c      | do not split evenly into 3 clusters",
        "1n1l8192c2t   | 16384 CPUs",
      })
  void parse_countsThatDoNotNest_rejectedWithGrammar(String text, String problem) {
    assertThatThrownBy(() -> Shape.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"" + text + "\"")
        .hasMessageContaining(problem)
        .hasMessageContaining(Shape.GRAMMAR);
  }

  @Test
  void toTopology_splitNumbering_siblingsAreCoreCountApart() {
    Topology vera = Shape.parse("2n1l88c2t").toTopology(SiblingNumbering.SPLIT);

    assertThat(vera.nrCpuIds()).isEqualTo(352);
    assertThat(vera.smtSiblings(5).toCpuList()).isEqualTo("5,181");
    assertThat(vera.smtSiblings(181).toCpuList()).isEqualTo("5,181");
    assertThat(vera.nodeMask(0).toCpuList()).isEqualTo("0-87,176-263");
    assertThat(vera.nodeMask(1).toCpuList()).isEqualTo("88-175,264-351");
    assertThat(vera.packageCount()).isEqualTo(2);
    assertThat(vera.llcMask(200).toCpuList()).isEqualTo("0-87,176-263");
    assertThat(vera.coreCount()).isEqualTo(176);
    assertThat(vera.smtWidth()).isEqualTo(2);
    assertThat(vera.name()).isEqualTo("2n1l88c2t/split");
  }

  @Test
  void toTopology_adjacentNumbering_siblingsAreNeighbours() {
    Topology t = Shape.parse("1n2l2c2t").toTopology(SiblingNumbering.ADJACENT);

    assertThat(t.smtSiblings(3).toCpuList()).isEqualTo("2-3");
    assertThat(t.llcMask(3).toCpuList()).isEqualTo("0-3");
    assertThat(t.llcMask(4).toCpuList()).isEqualTo("4-7");
    assertThat(t.coreId(5)).isEqualTo(2);
  }

  @Test
  void toTopology_clusters_splitEachLlc() {
    Topology t = Shape.parse("1n2l2k8c1t").toTopology(SiblingNumbering.ADJACENT);

    assertThat(t.clusterCount()).isEqualTo(4);
    assertThat(t.clusterMask(5).toCpuList()).isEqualTo("4-7");
    assertThat(t.clusterMask(8).toCpuList()).isEqualTo("8-11");
  }

  @Test
  void toTopology_noClusterCount_eachCoreIsItsOwnCluster() {
    Topology t = Shape.parse("1n1l4c2t").toTopology(SiblingNumbering.ADJACENT);

    assertThat(t.clusterCount()).isEqualTo(4);
    assertThat(t.clusterMask(3).toCpuList()).isEqualTo("2-3");
  }

  @Test
  void toTopology_nodesWithinPackages_packagesHoldSeveralNodes() {
    Topology t = Shape.parse("2s4n1l2c").toTopology(SiblingNumbering.ADJACENT);

    assertThat(t.packageCount()).isEqualTo(2);
    assertThat(t.nodeCount()).isEqualTo(4);
    assertThat(t.packageMask(0).toCpuList()).isEqualTo("0-3");
    assertThat(t.nodeMask(1).toCpuList()).isEqualTo("2-3");
  }

  @Test
  void toTopology_packagesWithinNodes_nodesHoldSeveralPackages() {
    Topology t = Shape.parse("4s2n2l2c").toTopology(SiblingNumbering.ADJACENT);

    assertThat(t.packageCount()).isEqualTo(4);
    assertThat(t.packageMask(2).toCpuList()).isEqualTo("2-3");
    assertThat(t.packageMask(5).toCpuList()).isEqualTo("4-5");
    assertThat(t.packageId(5)).isEqualTo(2);
    assertThat(t.nodeMask(0).toCpuList()).isEqualTo("0-3");
    assertThat(t.distance(0, 1)).isEqualTo(Topology.REMOTE_DISTANCE);
  }
}
