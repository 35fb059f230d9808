package dev.schedlab.topology.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * Every NUMA level above NODE builds overlapping groups, whether or not they overlap, on 2-node and
 * 4-node machines alike: Linux 6.1 shows this as the flag {@code SD_OVERLAP} on each such level
 * (from {@code SDTL_OVERLAP} of the topology level); the 7.1.5 sources this simulator models have
 * no such flag (sd_flags.h lists none), so here it is the level property {@link
 * SchedDomain#hasOverlappingGroups()} and no flag bit, and the kernel oracle maps the one to the
 * other.
 */
final class NumaOverlapLevelsTest {

  private static Topology nodes(int count, int[][] distances) {
    TopologyBuilder b = Topology.builder(count * 2).name(count + "-nodes");
    for (int cpu = 0; cpu < count * 2; cpu++) {
      b.cpu(cpu).packageId(cpu / 2).coreId(cpu).node(cpu / 2);
    }
    int[] ids = new int[count];
    for (int i = 0; i < count; i++) {
      ids[i] = i;
    }
    return b.distances(ids, distances).build();
  }

  @Test
  void twoNodes_theNumaLevelHasOverlappingGroupsAndNoExtraFlag() {
    SchedDomains d = SchedDomains.build(nodes(2, new int[][] {{10, 20}, {20, 10}}));
    SchedDomain numa = d.lowestFlagDomain(0, SdFlags.SD_NUMA);
    assertThat(numa.name()).isEqualTo("NUMA");
    assertThat(numa.hasOverlappingGroups()).isTrue();
    assertThat(numa.flags() & ~((1 << SdFlags.FLAG_COUNT) - 1)).isZero();
  }

  @Test
  void fourNodesInARing_everyNumaLevelOverlapsAndNoOtherDoes() {
    int[][] ring = {
      {10, 20, 30, 20}, {20, 10, 20, 30}, {30, 20, 10, 20}, {20, 30, 20, 10},
    };
    SchedDomains d = SchedDomains.build(nodes(4, ring));
    for (int cpu = 0; cpu < 8; cpu++) {
      for (SchedDomain sd : d.domains(cpu)) {
        assertThat(sd.hasOverlappingGroups())
            .as("CPU %d %s", cpu, sd.name())
            .isEqualTo(sd.name().equals("NUMA"));
      }
      assertThat(d.domains(cpu).stream().filter(SchedDomain::hasOverlappingGroups).count())
          .isEqualTo(2);
    }
  }
}
