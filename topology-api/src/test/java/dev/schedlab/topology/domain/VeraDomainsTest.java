package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.GroupSpans.names;
import static dev.schedlab.topology.domain.GroupSpans.spans;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On the Vera shape (2 nodes x 88 cores x SMT2, siblings n and n+176, node 0 = 0-87,176-263, one
 * LLC per node) every CPU has SMT, MC and NUMA domains; MC spans the node in split numbering, its
 * groups are sibling pairs in wrap order from the CPU, and NUMA's imb_numa_nr is the node's CPUs /
 * 8 = 22 (single LLC per node rule of {@code build_sched_domains()}).
 */
final class VeraDomainsTest {

  private final Topology vera = Shape.parse("2n1l88c2t").toTopology(SiblingNumbering.SPLIT);
  private final SchedDomains domains = SchedDomains.build(vera);

  @Test
  void cpu200_domainsSpanSiblingsNodeAndMachine() {
    List<SchedDomain> chain = domains.domains(200);

    assertThat(names(chain)).containsExactly("SMT", "MC", "NUMA");
    assertThat(chain.get(0).span().toCpuList()).isEqualTo("24,200");
    assertThat(chain.get(1).span().toCpuList()).isEqualTo("0-87,176-263");
    assertThat(chain.get(2).span().toCpuList()).isEqualTo("0-351");
  }

  @Test
  void mcGroups_siblingPairsFromTheCpuAround() {
    SchedDomain mc = domains.domains(200).get(1);

    List<String> groups = spans(mc);
    assertThat(groups).hasSize(88);
    assertThat(groups.get(0)).isEqualTo("24,200");
    assertThat(groups.get(1)).isEqualTo("25,201");
    assertThat(groups.get(63)).isEqualTo("87,263");
    assertThat(groups.get(64)).isEqualTo("0,176");
    assertThat(groups.get(87)).isEqualTo("23,199");
    assertThat(mc.minIntervalMs()).isEqualTo(176);
    assertThat(mc.maxIntervalMs()).isEqualTo(352);
    assertThat(mc.localGroup().cores()).isEqualTo(1);
  }

  @Test
  void numa_twoNodeGroupsAndImbalanceOfTwentyTwo() {
    SchedDomain numa = domains.domains(300).get(2);

    assertThat(spans(numa)).containsExactly("88-175,264-351", "0-87,176-263");
    assertThat(numa.localGroup().cores()).isEqualTo(88);
    assertThat(numa.imbNumaNr()).isEqualTo(22);
    assertThat(numa.minIntervalMs()).isEqualTo(352);
    assertThat(numa.maxIntervalMs()).isEqualTo(704);
  }

  @Test
  void shortcuts_llcPerNode() {
    assertThat(domains.llcSize(5)).isEqualTo(176);
    assertThat(domains.llcId(181)).isEqualTo(domains.llcId(5));
    assertThat(domains.llcId(100)).isNotEqualTo(domains.llcId(5));
    assertThat(domains.llcCount()).isEqualTo(2);
    assertThat(domains.cpusShareCache(0, 263)).isTrue();
    assertThat(domains.cpusShareCache(0, 264)).isFalse();
  }
}
