package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.SchedNodeDistance;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * An import whose info attributes name an Intel Granite Rapids X (family 6, model 173) or
 * Clearwater Forest X (model 221) sees node distances through x86's SNC rewrite; other CPUs keep
 * the SLIT.
 */
final class SncSlitMappingTest {

  private static ImportedTopology machine(String model) {
    TopologyAssembler out = new TopologyAssembler("gnr.xml", "hwloc", 12);
    for (int cpu = 0; cpu < 12; cpu++) {
      int node = cpu / 2;
      out.online(cpu, "p" + node / 3, null, "l" + node, null, "c" + cpu, node, 1024, true);
    }
    int[][] slit = new int[6][6];
    for (int a = 0; a < 6; a++) {
      for (int b = 0; b < 6; b++) {
        slit[a][b] = a == b ? 10 : a / 3 == b / 3 ? 15 : 21 + (a + b) % 3;
      }
    }
    out.nodes(new int[] {0, 1, 2, 3, 4, 5}, slit);
    out.info("CPUVendor", "GenuineIntel");
    out.info("CPUFamilyNumber", "6");
    out.info("CPUModelNumber", model);
    return out.build();
  }

  @Test
  void toTopology_graniteRapidsAndClearwaterForest_useTheSncRewrite() {
    for (String model : new String[] {"173", "221"}) {
      Topology t = machine(model).toTopology();
      assertThat(t.schedNodeDistance()).isEqualTo(SchedNodeDistance.INTEL_SNC_PACKAGE_MEAN);
      assertThat(t.schedDistance(0, 3)).isEqualTo(t.schedDistance(0, 5));
    }
  }

  @Test
  void toTopology_otherIntelModel_keepsTheSlit() {
    Topology t = machine("143").toTopology();
    assertThat(t.schedNodeDistance()).isEqualTo(SchedNodeDistance.SLIT);
    assertThat(t.schedDistance(0, 3)).isEqualTo(t.distance(0, 3));
  }
}
