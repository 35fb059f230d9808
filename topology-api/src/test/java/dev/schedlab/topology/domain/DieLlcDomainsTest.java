package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.GroupSpans.names;
import static dev.schedlab.topology.domain.GroupSpans.spans;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_EXEC;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_FORK;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_NEWIDLE;
import static dev.schedlab.topology.domain.SdFlags.SD_PREFER_SIBLING;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_LLC;
import static dev.schedlab.topology.domain.SdFlags.SD_WAKE_AFFINE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * On a Hygon-like machine (2 sockets x 4 dies x 4 cores x SMT2, a private L3 per die, one node per
 * socket, split numbering n / n+32) MC is the die, PKG is the node with the four dies as groups and
 * survives because it has several groups, and imb_numa_nr is the number of LLCs per node (4), from
 * PKG up.
 */
final class DieLlcDomainsTest {

  private static Topology hygonLike() {
    TopologyBuilder b = Topology.builder(64).name("hygon-like");
    for (int pkg = 0; pkg < 2; pkg++) {
      for (int die = 0; die < 4; die++) {
        for (int core = 0; core < 4; core++) {
          int globalCore = (pkg * 4 + die) * 4 + core;
          for (int thread = 0; thread < 2; thread++) {
            b.addCpu(globalCore + thread * 32, pkg, die, die, TopologyBuilder.UNKNOWN, core, pkg);
          }
        }
      }
    }
    return b.build();
  }

  private final Topology topology = hygonLike();
  private final SchedDomains domains = SchedDomains.build(topology);

  @Test
  void topology_countsDiesAsLlcs() {
    assertThat(topology.packageCount()).isEqualTo(2);
    assertThat(topology.dieCount()).isEqualTo(8);
    assertThat(topology.llcCount()).isEqualTo(8);
    assertThat(topology.coreCount()).isEqualTo(32);
    assertThat(topology.cpuCount()).isEqualTo(64);
    assertThat(topology.dieMask(37).toCpuList()).isEqualTo("4-7,36-39");
  }

  @Test
  void cpu0_hasSmtMcPkgNuma() {
    assertThat(names(domains.domains(0))).containsExactly("SMT", "MC", "PKG", "NUMA");
    assertThat(domains.domains(0).get(0).span().toCpuList()).isEqualTo("0,32");
    assertThat(domains.domains(0).get(1).span().toCpuList()).isEqualTo("0-3,32-35");
  }

  @Test
  void pkg_isTheNodeWithDieGroups() {
    SchedDomain pkg = domains.domains(0).get(2);

    assertThat(pkg.span().toCpuList()).isEqualTo("0-15,32-47");
    assertThat(pkg.flags())
        .isEqualTo(
            SD_BALANCE_NEWIDLE
                | SD_BALANCE_EXEC
                | SD_BALANCE_FORK
                | SD_WAKE_AFFINE
                | SD_PREFER_SIBLING);
    assertThat(pkg.imbalancePct()).isEqualTo(117);
    assertThat(pkg.cacheNiceTries()).isEqualTo(1);
    assertThat(pkg.minIntervalMs()).isEqualTo(32);
    assertThat(pkg.maxIntervalMs()).isEqualTo(64);
    assertThat(spans(pkg)).containsExactly("0-3,32-35", "4-7,36-39", "8-11,40-43", "12-15,44-47");
    assertThat(pkg.groups())
        .allSatisfy(
            g ->
                assertThat(g.flags())
                    .isEqualTo(
                        SD_BALANCE_NEWIDLE
                            | SD_BALANCE_EXEC
                            | SD_BALANCE_FORK
                            | SD_WAKE_AFFINE
                            | SD_SHARE_LLC
                            | SD_PREFER_SIBLING));
    assertThat(pkg.localGroup().cores()).isEqualTo(4);
    assertThat(pkg.imbNumaNr()).isEqualTo(4);
    assertThat(pkg.numaLevel()).isEqualTo(-1);
  }

  @Test
  void numa_imbalanceScalesFromPkg() {
    SchedDomain numa = domains.domains(0).get(3);

    assertThat(numa.span().toCpuList()).isEqualTo("0-63");
    assertThat(spans(numa)).containsExactly("0-15,32-47", "16-31,48-63");
    assertThat(numa.imbNumaNr()).isEqualTo(4);
    assertThat(domains.domains(0).get(1).imbNumaNr()).isZero();
  }

  @Test
  void shortcuts_llcIsTheDie() {
    assertThat(domains.sdLlc(0).name()).isEqualTo("MC");
    assertThat(domains.llcSize(40)).isEqualTo(8);
    assertThat(domains.llcCount()).isEqualTo(8);
    assertThat(domains.llcId(36)).isEqualTo(domains.llcId(4));
    assertThat(domains.llcId(8)).isEqualTo(2);
    assertThat(domains.cpusShareCache(3, 4)).isFalse();
  }
}
