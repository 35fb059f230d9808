package dev.schedlab.topology.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.SchedNodeDistance;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * On a 2-socket Granite Rapids in SNC-3 mode (three nodes per package, uneven cross-package SLIT
 * entries) x86's {@code arch_sched_node_distance()} makes every remote node equally far, the mean
 * of the package pair: the NUMA levels then end with one level spanning both packages, whose remote
 * group is the whole other package, instead of one level per distinct remote distance with partial
 * remote packages.
 */
final class SncSlitDomainsTest {

  private static final int[][] SLIT = {
    {10, 15, 17, 21, 28, 26},
    {15, 10, 15, 23, 26, 23},
    {17, 15, 10, 26, 23, 21},
    {21, 23, 26, 10, 15, 17},
    {28, 26, 23, 15, 10, 15},
    {26, 23, 21, 17, 15, 10},
  };

  private static Topology gnrSnc3() {
    TopologyBuilder b = Topology.builder(12).name("gnr-snc3");
    for (int cpu = 0; cpu < 12; cpu++) {
      int node = cpu / 2;
      b.cpu(cpu).packageId(node / 3).llcId(node).coreId(cpu).node(node);
    }
    return b.distances(new int[] {0, 1, 2, 3, 4, 5}, SLIT).build();
  }

  @Test
  void slit_asGiven_buildsALevelPerRemoteDistance() {
    SchedDomains domains = SchedDomains.build(gnrSnc3());
    assertThat(domains.numaDistances()).containsExactly(10, 15, 17, 21, 23, 26, 28);
  }

  @Test
  void sncPackageMean_remoteNodesEquallyFar_lastLevelGroupsAreThePackages() {
    Topology topology = gnrSnc3().withSchedNodeDistance(SchedNodeDistance.INTEL_SNC_PACKAGE_MEAN);
    // (21 + 28 + 26 + 23 + 26 + 23 + 26 + 23 + 21) / 9 = 24, rounded down
    assertThat(topology.schedDistance(0, 4)).isEqualTo(24);
    assertThat(topology.schedDistance(5, 2)).isEqualTo(24);
    assertThat(topology.schedDistance(0, 2)).isEqualTo(17);
    SchedDomains domains = SchedDomains.build(topology);
    assertThat(domains.numaDistances()).containsExactly(10, 15, 17, 24);
    SchedDomain top = domains.domains(0).get(domains.domains(0).size() - 1);
    assertThat(top.span().toCpuList()).isEqualTo("0-11");
    assertThat(top.groups()).extracting(g -> g.span().toCpuList()).containsExactly("0-5", "6-11");
  }

  @Test
  void sncPackageMean_onePackageOrFewNodes_keepsTheSlit() {
    TopologyBuilder b = Topology.builder(4).name("two-nodes");
    for (int cpu = 0; cpu < 4; cpu++) {
      b.cpu(cpu).packageId(cpu / 2).coreId(cpu).node(cpu / 2);
    }
    Topology two =
        b.distances(new int[] {0, 1}, new int[][] {{10, 21}, {21, 10}})
            .build()
            .withSchedNodeDistance(SchedNodeDistance.INTEL_SNC_PACKAGE_MEAN);
    assertThat(two.schedDistance(0, 1)).isEqualTo(21);
  }
}
