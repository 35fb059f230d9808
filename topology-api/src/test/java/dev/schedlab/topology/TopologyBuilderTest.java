package dev.schedlab.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The builder turns importer ids (arbitrary, scoped per package/die) into dense machine-wide ids in
 * lowest-CPU order, applies the documented defaults, and refuses inconsistent machines with a
 * one-line message naming the CPU or node.
 */
final class TopologyBuilderTest {

  /** Two packages with firmware-style ids: package ids 7 and 3, core ids restarting per package. */
  private static Topology twoPackagesWithFirmwareIds() {
    TopologyBuilder b = Topology.builder(8).name("firmware-ids");
    for (int cpu = 0; cpu < 8; cpu++) {
      int pkg = cpu < 4 ? 7 : 3;
      int coreInPackage = (cpu % 4) / 2 * 10;
      b.addCpu(
          cpu,
          pkg,
          0,
          pkg == 7 ? 40 : 41,
          TopologyBuilder.UNKNOWN,
          coreInPackage,
          pkg == 7 ? 0 : 8);
    }
    return b.distances(new int[] {8, 0}, new int[][] {{10, 21}, {21, 10}}).build();
  }

  @Test
  void build_firmwareIds_remappedDenseInLowestCpuOrder() {
    Topology t = twoPackagesWithFirmwareIds();

    assertThat(t.packageId(0)).isZero();
    assertThat(t.packageId(5)).isEqualTo(1);
    assertThat(t.coreId(1)).isZero();
    assertThat(t.coreId(2)).isEqualTo(1);
    assertThat(t.coreId(4)).isEqualTo(2);
    assertThat(t.llcId(6)).isEqualTo(1);
    assertThat(t.smtSiblings(4).toCpuList()).isEqualTo("4-5");
    assertThat(t.coreCount()).isEqualTo(4);
    assertThat(t.packageCount()).isEqualTo(2);
    assertThat(t.dieCount()).isEqualTo(2);
    assertThat(t.clusterCount()).isEqualTo(4);
    assertThat(t.clusterMask(4).toCpuList()).isEqualTo("4-5");
  }

  @Test
  void build_sparseNodes_keptAsGivenWithTheirDistances() {
    Topology t = twoPackagesWithFirmwareIds();

    assertThat(t.nodes()).containsExactly(0, 8);
    assertThat(t.nodeCount()).isEqualTo(2);
    assertThat(t.nodeOf(6)).isEqualTo(8);
    assertThat(t.nodeMask(8).toCpuList()).isEqualTo("4-7");
    assertThat(t.distance(0, 8)).isEqualTo(21);
    assertThat(t.distance(8, 8)).isEqualTo(10);
    assertThatThrownBy(() -> t.nodeMask(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no node 1");
  }

  @Test
  void build_noIds_defaultsToOneLlcNoSmtNodeZero() {
    TopologyBuilder b = Topology.builder(4);
    for (int cpu = 0; cpu < 4; cpu++) {
      b.cpu(cpu);
    }
    Topology t = b.build();

    assertThat(t.isSmt()).isFalse();
    assertThat(t.smtWidth()).isEqualTo(1);
    assertThat(t.llcMask(2).toCpuList()).isEqualTo("0-3");
    assertThat(t.clusterMask(2).toCpuList()).isEqualTo("2");
    assertThat(t.nodes()).containsExactly(0);
    assertThat(t.distance(0, 0)).isEqualTo(Topology.LOCAL_DISTANCE);
    assertThat(t.capacity(3)).isEqualTo(Topology.SCHED_CAPACITY_SCALE);
    assertThat(t.isAsymmetricCapacity()).isFalse();
  }

  @Test
  void build_capacitiesAndOfflineCpus_reported() {
    Topology t =
        Topology.builder(4)
            .cpu(0)
            .capacity(512)
            .done()
            .cpu(1)
            .capacity(512)
            .cpu(2)
            .cpu(3)
            .offline()
            .done()
            .capacity(2, 1024)
            .build();

    assertThat(t.capacity(0)).isEqualTo(512);
    assertThat(t.maxCapacity()).isEqualTo(1024);
    assertThat(t.isAsymmetricCapacity()).isTrue();
    assertThat(t.possibleMask().toCpuList()).isEqualTo("0-3");
    assertThat(t.onlineMask().toCpuList()).isEqualTo("0-2");
    assertThat(t.cpuCount()).isEqualTo(3);
    assertThat(t.isOnline(3)).isFalse();
  }

  @Test
  void build_holesInCpuNumbers_onlyAddedCpusArePossible() {
    Topology t = Topology.builder(8).cpu(0).done().cpu(6).done().build();

    assertThat(t.possibleMask().toCpuList()).isEqualTo("0,6");
    assertThat(t.isPossible(3)).isFalse();
    assertThatThrownBy(() -> t.capacity(3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 3 is not a possible CPU");
  }

  @Test
  void withHousekeeping_returnsCopyAndLeavesOriginal() {
    Topology t = Shape.parse("4c").toTopology(SiblingNumbering.ADJACENT);
    Topology isolated = t.withHousekeeping(Housekeeping.parse("isolcpus=1", 4));

    assertThat(isolated.housekeeping().mask(HousekeepingType.DOMAIN).toCpuList())
        .isEqualTo("0,2-3");
    assertThat(t.housekeeping()).isEqualTo(Housekeeping.none(4));
    assertThatThrownBy(() -> t.withHousekeeping(Housekeeping.none(8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("8 CPUs wide");
  }

  @Test
  void addCpu_outOfRange_rejected() {
    assertThatThrownBy(() -> Topology.builder(4).addCpu(4, 0, 0, 0, 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 4 outside [0, 4)");
  }

  @Test
  void addCpu_twice_rejected() {
    TopologyBuilder b = Topology.builder(4).addCpu(1, 0, 0, 0, 0, 0, 0);

    assertThatThrownBy(() -> b.addCpu(1, 0, 0, 0, 0, 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 1 added twice");
  }

  @Test
  void cpu_idBelowMinusOne_rejected() {
    assertThatThrownBy(() -> Topology.builder(4).cpu(2).coreId(-2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 2: core id -2");
  }

  @Test
  void build_siblingsInDifferentLlcs_rejectedNamingBothCpus() {
    TopologyBuilder b =
        Topology.builder(4).addCpu(0, 0, 0, 0, -1, 0, 0).addCpu(1, 0, 0, 1, -1, 0, 0);

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 1 and CPU 0 are SMT siblings")
        .hasMessageContaining("different LLCs");
  }

  @Test
  void build_siblingsInDifferentNodes_rejected() {
    TopologyBuilder b =
        Topology.builder(4).addCpu(0, 0, 0, 0, -1, 0, 0).addCpu(1, 0, 0, 0, -1, 0, 1);

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 1 and CPU 0 are SMT siblings")
        .hasMessageContaining("different NUMA nodes (1 and 0)");
  }

  @Test
  void build_clusterAcrossLlcs_rejected() {
    TopologyBuilder b = Topology.builder(4).addCpu(0, 0, 0, 0, 5, 0, 0).addCpu(1, 0, 0, 1, 5, 1, 0);

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 1 and CPU 0 are CPUs of a cluster")
        .hasMessageContaining("different LLCs");
  }

  @Test
  void build_capacityOutOfRange_rejected() {
    TopologyBuilder b = Topology.builder(2).addCpu(0, 0, 0, 0, 0, 0, 0).capacity(0, 2048);

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 0 has capacity 2048; allowed [1, 1024]");
  }

  @Test
  void build_capacityOrOfflineForMissingCpu_rejected() {
    assertThatThrownBy(() -> Topology.builder(4).cpu(0).done().capacity(3, 512).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity given for CPU 3, which was never added");
    assertThatThrownBy(() -> Topology.builder(4).cpu(0).done().offline(2).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 2 marked offline but never added");
  }

  @Test
  void build_noCpusOrNoneOnline_rejected() {
    assertThatThrownBy(() -> Topology.builder(4).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no CPUs");
    assertThatThrownBy(() -> Topology.builder(4).cpu(0).offline().done().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no online CPU");
  }

  @Test
  void build_distanceTableNotSquare_rejected() {
    TopologyBuilder b = twoNodeBuilder().distances(new int[][] {{10, 20}, {20}});

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row of node 1 has 1 entries for 2 nodes");
  }

  @Test
  void build_distanceDiagonalNotLocal_rejectedNamingTheNode() {
    TopologyBuilder b = twoNodeBuilder().distances(new int[][] {{10, 20}, {20, 11}});

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("distance from node 1 to node 1 is 11")
        .hasMessageContaining("must be 10");
  }

  @Test
  void build_distanceOutOfRange_rejected() {
    assertThatThrownBy(() -> twoNodeBuilder().distances(new int[][] {{10, 256}, {20, 10}}).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("distance from node 0 to node 1 is 256; allowed [10, 256)");
    assertThatThrownBy(() -> twoNodeBuilder().distances(new int[][] {{10, 9}, {9, 10}}).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is 9; allowed [10, 256)");
  }

  @Test
  void build_distanceTableMissingACpuNode_rejected() {
    TopologyBuilder b =
        twoNodeBuilder().distances(new int[] {0, 2}, new int[][] {{10, 20}, {20, 10}});

    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node 1 has CPUs but is missing from the distance table");
  }

  @Test
  void build_distanceTableWithMemoryOnlyNode_nodeHasEmptyMask() {
    Topology t =
        twoNodeBuilder().distances(new int[][] {{10, 20, 30}, {20, 10, 30}, {30, 30, 10}}).build();

    assertThat(t.nodes()).containsExactly(0, 1);
    assertThat(t.distanceNodes()).containsExactly(0, 1, 2);
    assertThat(t.nodeMask(2).isEmpty()).isTrue();
    assertThat(t.distance(1, 2)).isEqualTo(30);
  }

  @Test
  void build_housekeepingOfOtherWidth_rejected() {
    assertThatThrownBy(() -> twoNodeBuilder().housekeeping(Housekeeping.none(2)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("housekeeping is 2 CPUs wide but topology 'custom' has nrCpuIds 4");
  }

  @Test
  void build_housekeepingFromBootArgs_applied() {
    Topology t = twoNodeBuilder().housekeeping("nohz_full=1-3").build();

    assertThat(t.housekeeping().isNohzFull(2)).isTrue();
  }

  private static TopologyBuilder twoNodeBuilder() {
    return Topology.builder(4)
        .addCpu(0, 0, 0, 0, -1, 0, 0)
        .addCpu(1, 0, 0, 0, -1, 1, 0)
        .addCpu(2, 1, 0, 0, -1, 0, 1)
        .addCpu(3, 1, 0, 0, -1, 1, 1);
  }
}
