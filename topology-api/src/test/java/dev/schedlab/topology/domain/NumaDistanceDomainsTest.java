package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.GroupSpans.balanceMasks;
import static dev.schedlab.topology.domain.GroupSpans.names;
import static dev.schedlab.topology.domain.GroupSpans.spans;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_EXEC;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_FORK;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_NEWIDLE;
import static dev.schedlab.topology.domain.SdFlags.SD_NUMA;
import static dev.schedlab.topology.domain.SdFlags.SD_SERIALIZE;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_LLC;
import static dev.schedlab.topology.domain.SdFlags.SD_WAKE_AFFINE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * NUMA levels follow {@code sched_init_numa()}: one level per distinct distance, the first (NODE)
 * removed when it equals the node, each NUMA level spanning the nodes within its distance, with
 * overlapping groups built from the CPUs' child domains and balance masks of the CPUs whose child
 * is the group; levels beyond {@code node_reclaim_distance} lose EXEC/FORK/WAKE_AFFINE.
 */
final class NumaDistanceDomainsTest {

  static final int NUMA_NEAR =
      SD_BALANCE_NEWIDLE
          | SD_BALANCE_EXEC
          | SD_BALANCE_FORK
          | SD_WAKE_AFFINE
          | SD_SERIALIZE
          | SD_NUMA;
  static final int NUMA_FAR = SD_BALANCE_NEWIDLE | SD_SERIALIZE | SD_NUMA;

  /** Four nodes of {@code cpusPerNode} CPUs (node n = CPUs n*k..), one package/LLC per node. */
  private static Topology fourNodes(int cpusPerNode, int[][] distances) {
    TopologyBuilder b = Topology.builder(4 * cpusPerNode).name("four-nodes");
    for (int node = 0; node < 4; node++) {
      for (int i = 0; i < cpusPerNode; i++) {
        b.addCpu(node * cpusPerNode + i, node, 0, 0, -1, i, node);
      }
    }
    return b.distances(distances).build();
  }

  /** The ring 0-1-2-3-0 of the kernel's topology.c comment: neighbours 20, opposite 30. */
  private static final int[][] RING = {
    {10, 20, 30, 20},
    {20, 10, 20, 30},
    {30, 20, 10, 20},
    {20, 30, 20, 10},
  };

  @Test
  void ring_threeDistances_giveMcAndTwoNumaLevels() {
    SchedDomains domains = SchedDomains.build(fourNodes(2, RING));

    assertThat(domains.numaDistances()).containsExactly(10, 20, 30);
    assertThat(names(domains.domains(0))).containsExactly("MC", "NUMA", "NUMA");
    SchedDomain near = domains.domains(0).get(1);
    SchedDomain far = domains.domains(0).get(2);
    assertThat(near.span().toCpuList()).isEqualTo("0-3,6-7");
    assertThat(near.distance()).isEqualTo(20);
    assertThat(near.numaLevel()).isEqualTo(1);
    assertThat(near.flags()).isEqualTo(NUMA_NEAR);
    assertThat(far.span().toCpuList()).isEqualTo("0-7");
    assertThat(far.distance()).isEqualTo(30);
    assertThat(far.numaLevel()).isEqualTo(2);
    assertThat(far.flags()).isEqualTo(NUMA_NEAR);
    assertThat(far.cacheNiceTries()).isEqualTo(2);
    assertThat(domains.sdNuma(0)).isSameAs(near);
  }

  @Test
  void ring_nearLevelGroups_areNeighbourNodesFromTheCpu() {
    SchedDomains domains = SchedDomains.build(fourNodes(2, RING));

    assertThat(spans(domains.domains(0).get(1))).containsExactly("0-1", "2-3", "6-7");
    assertThat(spans(domains.domains(5).get(1))).containsExactly("4-5", "6-7", "2-3");
    assertThat(domains.domains(0).get(1).groups())
        .allSatisfy(g -> assertThat(g.flags() & SD_SHARE_LLC).isNotZero());
  }

  @Test
  void ring_farLevelGroups_overlapWithBalanceMasks() {
    SchedDomains domains = SchedDomains.build(fourNodes(2, RING));
    SchedDomain far = domains.domains(0).get(2);

    assertThat(spans(far)).containsExactly("0-3,6-7", "2-7");
    assertThat(balanceMasks(far)).containsExactly("0-1", "4-5");
    assertThat(far.groups().get(1).groupBalanceCpu()).isEqualTo(4);
    assertThat(far.localGroup().flags()).isEqualTo(NUMA_NEAR);
    assertThat(far.hasOverlappingGroups()).isTrue();
  }

  @Test
  void farDistance_beyondReclaimDistance_losesExecForkWakeAffine() {
    int[][] far = {
      {10, 20, 40, 20},
      {20, 10, 20, 40},
      {40, 20, 10, 20},
      {20, 40, 20, 10},
    };
    Topology topology = fourNodes(2, far);

    SchedDomain mainline = SchedDomains.build(topology).domains(0).get(2);
    assertThat(mainline.distance()).isEqualTo(40);
    assertThat(mainline.flags()).isEqualTo(NUMA_FAR);

    SchedDomain raised =
        SchedDomains.build(topology, SchedDomainOptions.MAINLINE.withNodeReclaimDistance(40))
            .domains(0)
            .get(2);
    assertThat(raised.flags()).isEqualTo(NUMA_NEAR);
  }

  @Test
  void line_diameterThree_groupsStayInsideTheSpan() {
    int[][] line = {
      {10, 20, 30, 40},
      {20, 10, 20, 30},
      {30, 20, 10, 20},
      {40, 30, 20, 10},
    };
    SchedDomains domains = SchedDomains.build(fourNodes(1, line));

    assertThat(names(domains.domains(0))).containsExactly("NUMA", "NUMA", "NUMA");
    assertThat(names(domains.domains(1))).containsExactly("NUMA", "NUMA");
    assertThat(domains.maxLevels()).isEqualTo(3);

    SchedDomain second = domains.domains(0).get(1);
    assertThat(second.span().toCpuList()).isEqualTo("0-2");
    assertThat(spans(second)).containsExactly("0-1", "2");

    SchedDomain top = domains.domains(0).get(2);
    assertThat(spans(top)).containsExactly("0-2", "1-3");
    assertThat(balanceMasks(top)).containsExactly("0", "3");

    SchedDomain topOfOne = domains.domains(1).get(1);
    assertThat(spans(topOfOne)).containsExactly("0-2", "2-3");
    assertThat(balanceMasks(topOfOne)).containsExactly("1", "3");
    assertThat(domains.domains(0).get(0).groups()).allSatisfy(g -> assertThat(g.flags()).isZero());
  }

  @Test
  void llcSpanningTwoNodes_mcIsCutAtTheNode() {
    TopologyBuilder b = Topology.builder(8).name("snc");
    for (int cpu = 0; cpu < 8; cpu++) {
      b.addCpu(cpu, 0, 0, 0, -1, cpu, cpu / 4);
    }
    SchedDomains domains = SchedDomains.build(b.build());

    assertThat(names(domains.domains(5))).containsExactly("MC", "NUMA");
    assertThat(domains.domains(5).get(0).span().toCpuList()).isEqualTo("4-7");
    assertThat(domains.llcSize(5)).isEqualTo(4);
  }

  @Test
  void nodesAtLocalDistance_partialOverlap_refusedLikeTopologySpanSane() {
    int[][] chain = {
      {10, 10, 20},
      {10, 10, 10},
      {20, 10, 10},
    };
    TopologyBuilder b = Topology.builder(3);
    for (int cpu = 0; cpu < 3; cpu++) {
      b.addCpu(cpu, cpu, 0, 0, -1, 0, cpu);
    }
    Topology topology = b.distances(chain).build();

    assertThatThrownBy(() -> SchedDomains.build(topology))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NODE masks")
        .hasMessageContaining("topology_span_sane");
  }
}
