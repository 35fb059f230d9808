package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.GroupSpans.names;
import static dev.schedlab.topology.domain.GroupSpans.spans;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_EXEC;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_FORK;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_NEWIDLE;
import static dev.schedlab.topology.domain.SdFlags.SD_NUMA;
import static dev.schedlab.topology.domain.SdFlags.SD_PREFER_SIBLING;
import static dev.schedlab.topology.domain.SdFlags.SD_SERIALIZE;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_CPUCAPACITY;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_LLC;
import static dev.schedlab.topology.domain.SdFlags.SD_WAKE_AFFINE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On a 2-socket SMT2 machine (2 packages x 4 cores x 2 threads, x86 split numbering: CPU n and n+8
 * are siblings, one node and one LLC per socket) the domains are SMT, MC and NUMA: CLS (no
 * clusters), PKG and NODE (equal to MC) are removed as degenerate; flags, imbalance_pct, intervals,
 * cache_nice_tries, groups in wrap order and imb_numa_nr follow {@code sd_init()} and {@code
 * build_sched_domains()}.
 */
final class TwoSocketSmtDomainsTest {

  static final int BASE = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE;
  static final int SMT_FLAGS = BASE | SD_SHARE_CPUCAPACITY | SD_SHARE_LLC | SD_PREFER_SIBLING;
  static final int MC_FLAGS = BASE | SD_SHARE_LLC | SD_PREFER_SIBLING;
  static final int NUMA_FLAGS = BASE | SD_SERIALIZE | SD_NUMA;

  private final Topology topology = Shape.parse("2n1l4c2t").toTopology(SiblingNumbering.SPLIT);
  private final SchedDomains domains = SchedDomains.build(topology);

  @Test
  void everyCpu_hasSmtMcNuma() {
    for (int cpu = 0; cpu < 16; cpu++) {
      assertThat(names(domains.domains(cpu)))
          .as("CPU %d", cpu)
          .containsExactly("SMT", "MC", "NUMA");
    }
    assertThat(domains.levelNames()).containsExactly("SMT", "MC", "NUMA");
    assertThat(domains.maxLevels()).isEqualTo(3);
    assertThat(domains.cpuMap().toCpuList()).isEqualTo("0-15");
  }

  @Test
  void smtDomain_siblingPairWithSmtDefaults() {
    SchedDomain smt = domains.domains(9).get(0);

    assertThat(smt.span().toCpuList()).isEqualTo("1,9");
    assertThat(smt.flags()).isEqualTo(SMT_FLAGS);
    assertThat(smt.imbalancePct()).isEqualTo(110);
    assertThat(smt.cacheNiceTries()).isZero();
    assertThat(smt.busyFactor()).isEqualTo(16);
    assertThat(smt.minIntervalMs()).isEqualTo(2);
    assertThat(smt.maxIntervalMs()).isEqualTo(4);
    assertThat(smt.initialBalanceIntervalMs()).isEqualTo(2);
    assertThat(spans(smt)).containsExactly("9", "1");
    assertThat(smt.localGroup().flags()).isZero();
    assertThat(smt.child()).isNull();
    assertThat(smt.level()).isZero();
    assertThat(smt.buildLevel()).isZero();
    assertThat(smt.numaLevel()).isEqualTo(-1);
    assertThat(smt.imbNumaNr()).isZero();
  }

  @Test
  void mcDomain_socketWithLlcDefaultsAndSiblingPairGroupsFromTheCpu() {
    SchedDomain mc = domains.domains(9).get(1);

    assertThat(mc.span().toCpuList()).isEqualTo("0-3,8-11");
    assertThat(mc.flags()).isEqualTo(MC_FLAGS);
    assertThat(mc.imbalancePct()).isEqualTo(117);
    assertThat(mc.cacheNiceTries()).isEqualTo(1);
    assertThat(mc.minIntervalMs()).isEqualTo(8);
    assertThat(mc.maxIntervalMs()).isEqualTo(16);
    assertThat(spans(mc)).containsExactly("1,9", "2,10", "3,11", "0,8");
    assertThat(mc.groups()).allSatisfy(g -> assertThat(g.flags()).isEqualTo(SMT_FLAGS));
    assertThat(mc.groups()).allSatisfy(g -> assertThat(g.cores()).isEqualTo(1));
    assertThat(mc.localGroup().weight()).isEqualTo(2);
    assertThat(mc.buildLevel()).isEqualTo(2);
    assertThat(mc.child()).isSameAs(domains.domains(9).get(0));
    assertThat(spans(domains.domains(0).get(1))).containsExactly("0,8", "1,9", "2,10", "3,11");
  }

  @Test
  void numaDomain_wholeMachineWithNumaDefaultsAndNodeGroups() {
    SchedDomain numa = domains.domains(12).get(2);

    assertThat(numa.span().toCpuList()).isEqualTo("0-15");
    assertThat(numa.flags()).isEqualTo(NUMA_FLAGS);
    assertThat(numa.hasFlag(SD_PREFER_SIBLING)).isFalse();
    assertThat(numa.imbalancePct()).isEqualTo(117);
    assertThat(numa.cacheNiceTries()).isEqualTo(2);
    assertThat(numa.minIntervalMs()).isEqualTo(16);
    assertThat(numa.maxIntervalMs()).isEqualTo(32);
    assertThat(numa.distance()).isEqualTo(20);
    assertThat(numa.numaLevel()).isEqualTo(1);
    assertThat(numa.buildLevel()).isEqualTo(5);
    assertThat(numa.hasOverlappingGroups()).isTrue();
    assertThat(spans(numa)).containsExactly("4-7,12-15", "0-3,8-11");
    assertThat(GroupSpans.balanceMasks(numa)).containsExactly("4-7,12-15", "0-3,8-11");
    assertThat(numa.groups()).allSatisfy(g -> assertThat(g.flags()).isEqualTo(MC_FLAGS));
    assertThat(numa.groups()).allSatisfy(g -> assertThat(g.cores()).isEqualTo(4));
    assertThat(numa.groups().get(1).groupBalanceCpu()).isZero();
    assertThat(numa.imbNumaNr()).isEqualTo(1);
    assertThat(numa.parent()).isNull();
  }

  @Test
  void shortcuts_llcIsTheSocket() {
    assertThat(domains.sdLlc(9)).isSameAs(domains.domains(9).get(1));
    assertThat(domains.llcSize(9)).isEqualTo(8);
    assertThat(domains.llcId(9)).isZero();
    assertThat(domains.llcId(12)).isEqualTo(1);
    assertThat(domains.llcCount()).isEqualTo(2);
    assertThat(domains.cpusShareCache(1, 9)).isTrue();
    assertThat(domains.cpusShareCache(0, 4)).isFalse();
    assertThat(domains.shareId(10)).isZero();
    assertThat(domains.sdNuma(3)).isSameAs(domains.domains(3).get(2));
    assertThat(domains.sdAsymCpuCapacity(3)).isNull();
    assertThat(domains.hasAsymCpuCapacity()).isFalse();
    assertThat(domains.hasClusterDomains()).isFalse();
    assertThat(domains.numaDistances()).containsExactly(10, 20);
    assertThat(domains.highestFlagDomain(3, SD_SHARE_CPUCAPACITY).name()).isEqualTo("SMT");
  }

  @Test
  void groups_sameGroupOnDifferentCpus_shareCapacitySlot() {
    List<SchedGroup> groupsOf0 = domains.domains(0).get(1).groups();
    List<SchedGroup> groupsOf3 = domains.domains(3).get(1).groups();

    SchedGroup pairOf0 = groupsOf0.get(0);
    SchedGroup samePairSeenFrom3 =
        groupsOf3.stream().filter(g -> g.span().test(0)).findFirst().orElseThrow();
    assertThat(samePairSeenFrom3.capacitySlot()).isEqualTo(pairOf0.capacitySlot());
    assertThat(groupsOf0.get(1).capacitySlot()).isNotEqualTo(pairOf0.capacitySlot());
    assertThat(domains.capacitySlotCount()).isGreaterThan(pairOf0.capacitySlot());
  }

  @Test
  void relaxDomainLevel_clearsNewidleFromThatBuildLevelUp() {
    SchedDomains relaxed =
        SchedDomains.build(topology, SchedDomainOptions.MAINLINE.withRelaxDomainLevel(2));

    List<SchedDomain> chain = relaxed.domains(0);
    assertThat(chain.get(0).flags()).isEqualTo(SMT_FLAGS);
    assertThat(chain.get(1).flags()).isEqualTo(MC_FLAGS & ~SD_BALANCE_NEWIDLE);
    assertThat(chain.get(2).flags()).isEqualTo(NUMA_FLAGS & ~SD_BALANCE_NEWIDLE);
  }

  @Test
  void describe_listsLevelsSpansAndFlags() {
    String text = domains.describe();

    assertThat(text).contains("levels SMT MC NUMA");
    assertThat(text).contains("domain1 MC flags=" + SdFlags.describe(MC_FLAGS));
    assertThat(text).contains("span 0-3,8-11: 4 groups");
    assertThat(domains.describe(9)).contains("groups: {1,9} {2,10} {3,11} {0,8}");
  }
}
