package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.GroupSpans.names;
import static dev.schedlab.topology.domain.GroupSpans.spans;
import static dev.schedlab.topology.domain.SdFlags.SD_ASYM_CPUCAPACITY;
import static dev.schedlab.topology.domain.SdFlags.SD_ASYM_CPUCAPACITY_FULL;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_EXEC;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_FORK;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_NEWIDLE;
import static dev.schedlab.topology.domain.SdFlags.SD_CLUSTER;
import static dev.schedlab.topology.domain.SdFlags.SD_PREFER_SIBLING;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_LLC;
import static dev.schedlab.topology.domain.SdFlags.SD_WAKE_AFFINE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * Asymmetric capacities are flagged as {@code asym_cpu_capacity_classify()} says: a domain seeing
 * at least two capacities gets SD_ASYM_CPUCAPACITY, and _FULL only when it sees every capacity of
 * the cpu map; the capacity list counts only housekeeping-domain CPUs; the 7.1.5 option clears the
 * child's SD_PREFER_SIBLING under an asymmetric parent, mainline does not.
 */
final class AsymCapacityDomainsTest {

  static final int BASE = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE;
  static final int CLS_FLAGS = BASE | SD_CLUSTER | SD_SHARE_LLC | SD_PREFER_SIBLING;
  static final int MC_FLAGS = BASE | SD_SHARE_LLC | SD_PREFER_SIBLING;

  /** DynamIQ-like: one shared LLC, LITTLE cluster 0-3 (capacity 446), big cluster 4-7 (1024). */
  private static Topology bigLittle() {
    TopologyBuilder b = Topology.builder(8).name("big.LITTLE");
    for (int cpu = 0; cpu < 8; cpu++) {
      b.cpu(cpu)
          .packageId(0)
          .llcId(0)
          .clusterId(cpu / 4)
          .coreId(cpu)
          .node(0)
          .capacity(cpu < 4 ? 446 : 1024);
    }
    return b.build();
  }

  /** Three capacities; LLC 0-5 holds 400 and 800, LLC 6-7 holds the 1024 CPUs. */
  private static Topology threeCapacities() {
    TopologyBuilder b = Topology.builder(8).name("tri-gear");
    for (int cpu = 0; cpu < 8; cpu++) {
      b.cpu(cpu).llcId(cpu < 6 ? 0 : 1).coreId(cpu).capacity(cpu < 4 ? 400 : cpu < 6 ? 800 : 1024);
    }
    return b.build();
  }

  @Test
  void bigLittle_mcSeesEveryCapacityAndIsFull() {
    SchedDomains domains = SchedDomains.build(bigLittle());

    assertThat(names(domains.domains(5))).containsExactly("CLS", "MC");
    SchedDomain cls = domains.domains(5).get(0);
    SchedDomain mc = domains.domains(5).get(1);
    assertThat(cls.span().toCpuList()).isEqualTo("4-7");
    assertThat(cls.flags()).isEqualTo(CLS_FLAGS);
    assertThat(mc.flags()).isEqualTo(MC_FLAGS | SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL);
    assertThat(spans(mc)).containsExactly("4-7", "0-3");
    assertThat(mc.groups()).allSatisfy(g -> assertThat(g.flags()).isEqualTo(CLS_FLAGS));
    assertThat(domains.sdAsymCpuCapacity(5)).isSameAs(mc);
    assertThat(domains.hasAsymCpuCapacity()).isTrue();
    assertThat(domains.hasClusterDomains()).isTrue();
    assertThat(domains.shareId(6)).isEqualTo(4);
    assertThat(domains.cpusShareResources(4, 7)).isTrue();
    assertThat(domains.cpusShareResources(3, 4)).isFalse();
    assertThat(domains.cpusShareCache(3, 4)).isTrue();
  }

  @Test
  void bigLittle_linux715Option_clearsPreferSiblingInTheChild() {
    SchedDomains domains = SchedDomains.build(bigLittle(), SchedDomainOptions.LINUX_7_1_5);

    SchedDomain cls = domains.domains(0).get(0);
    SchedDomain mc = domains.domains(0).get(1);
    assertThat(cls.flags()).isEqualTo(CLS_FLAGS & ~SD_PREFER_SIBLING);
    assertThat(mc.hasFlag(SD_PREFER_SIBLING)).isTrue();
    assertThat(mc.localGroup().flags()).isEqualTo(CLS_FLAGS & ~SD_PREFER_SIBLING);
  }

  @Test
  void threeCapacities_llcWithTwoOfThreeIsAsymButNotFull() {
    SchedDomains domains = SchedDomains.build(threeCapacities());

    assertThat(names(domains.domains(0))).containsExactly("MC", "PKG");
    SchedDomain mc = domains.domains(0).get(0);
    SchedDomain pkg = domains.domains(0).get(1);
    assertThat(mc.span().toCpuList()).isEqualTo("0-5");
    assertThat(mc.flags()).isEqualTo(MC_FLAGS | SD_ASYM_CPUCAPACITY);
    assertThat(pkg.hasFlag(SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL)).isTrue();
    assertThat(domains.sdAsymCpuCapacity(0)).isSameAs(pkg);
    assertThat(domains.domains(6).get(0).flags()).isEqualTo(MC_FLAGS);
    assertThat(domains.sdAsymCpuCapacity(6)).isSameAs(domains.domains(6).get(1));
    assertThat(mc.hasFlag(SD_PREFER_SIBLING)).isTrue();
  }

  @Test
  void threeCapacities_linux715Option_llcLosesPreferSibling() {
    SchedDomains domains = SchedDomains.build(threeCapacities(), SchedDomainOptions.LINUX_7_1_5);

    assertThat(domains.domains(0).get(0).hasFlag(SD_PREFER_SIBLING)).isFalse();
    assertThat(domains.domains(6).get(0).hasFlag(SD_PREFER_SIBLING)).isFalse();
  }

  @Test
  void isolatedBigCpus_leaveTheRestFullyAsymmetric() {
    Topology isolated =
        threeCapacities()
            .withHousekeeping(dev.schedlab.topology.Housekeeping.parse("isolcpus=domain,6-7", 8));
    SchedDomains domains = SchedDomains.build(isolated);

    assertThat(names(domains.domains(0))).containsExactly("MC");
    assertThat(domains.domains(0).get(0).flags())
        .isEqualTo(MC_FLAGS | SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL);
    assertThat(domains.domains(6)).isEmpty();
  }

  @Test
  void symmetricMachine_noAsymFlags() {
    TopologyBuilder b = Topology.builder(4);
    for (int cpu = 0; cpu < 4; cpu++) {
      b.cpu(cpu).capacity(700);
    }
    SchedDomains domains = SchedDomains.build(b.build());

    assertThat(domains.baseDomain(0).flags()).isEqualTo(MC_FLAGS);
    assertThat(domains.sdAsymCpuCapacity(0)).isNull();
    assertThat(domains.hasAsymCpuCapacity()).isFalse();
  }
}
