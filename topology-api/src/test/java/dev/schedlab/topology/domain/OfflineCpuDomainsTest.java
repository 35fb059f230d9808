package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.GroupSpans.names;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * Offline CPUs are in no online CPU's masks (the kernel links a CPU into its siblings' masks only
 * when it comes online), even when the topology places them in package and LLC 0 as the importers
 * do: on a POWER9-like machine with SMT off (every 4th CPU online, two online cores per L2 and L3)
 * every online CPU gets the same chain, MC and PKG, and no CPU keeps a CLS level.
 */
final class OfflineCpuDomainsTest {

  private static Topology smtOff() {
    TopologyBuilder b = Topology.builder(16).name("power9-smt-off");
    for (int cpu = 0; cpu < 16; cpu++) {
      if (cpu % 4 == 0) {
        int pair = cpu / 8;
        b.cpu(cpu).packageId(0).llcId(pair).clusterId(pair).coreId(cpu).node(0);
      } else {
        // As TopologyMapping places an offline CPU: package, die and LLC of the first online CPU.
        b.cpu(cpu).packageId(0).llcId(0).node(0).offline();
      }
    }
    return b.build();
  }

  @Test
  void smtOff_everyOnlineCpu_hasMcAndPkgOnly() {
    SchedDomains domains = SchedDomains.build(smtOff());
    for (int cpu : new int[] {0, 4, 8, 12}) {
      assertThat(names(domains.domains(cpu))).as("CPU %d", cpu).containsExactly("MC", "PKG");
      assertThat(domains.lowestFlagDomain(cpu, SdFlags.SD_CLUSTER)).as("CPU %d", cpu).isNull();
    }
    assertThat(domains.baseDomain(0).span().toCpuList()).isEqualTo("0,4");
    assertThat(domains.baseDomain(8).span().toCpuList()).isEqualTo("8,12");
  }
}
