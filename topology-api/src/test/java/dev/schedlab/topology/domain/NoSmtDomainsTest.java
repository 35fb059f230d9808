package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.GroupSpans.names;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_EXEC;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_FORK;
import static dev.schedlab.topology.domain.SdFlags.SD_BALANCE_NEWIDLE;
import static dev.schedlab.topology.domain.SdFlags.SD_PREFER_SIBLING;
import static dev.schedlab.topology.domain.SdFlags.SD_SHARE_LLC;
import static dev.schedlab.topology.domain.SdFlags.SD_WAKE_AFFINE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import org.junit.jupiter.api.Test;

/**
 * On an 80-core machine without SMT and one LLC (Altra-like) only MC survives: there is no SMT
 * level, CLS spans one CPU and is removed, and MC spans the whole machine so the build stops there;
 * MC's groups are the 80 single CPUs, with flags 0 because their child was removed.
 */
final class NoSmtDomainsTest {

  private final SchedDomains domains =
      SchedDomains.build(Shape.parse("80c").toTopology(SiblingNumbering.ADJACENT));

  @Test
  void everyCpu_hasOnlyMc() {
    for (int cpu = 0; cpu < 80; cpu++) {
      assertThat(names(domains.domains(cpu))).as("CPU %d", cpu).containsExactly("MC");
    }
    assertThat(domains.levelNames()).doesNotContain("SMT");
  }

  @Test
  void mc_wholeMachineWithSingleCpuGroups() {
    SchedDomain mc = domains.baseDomain(41);

    assertThat(mc.span().toCpuList()).isEqualTo("0-79");
    assertThat(mc.flags())
        .isEqualTo(
            SD_BALANCE_NEWIDLE
                | SD_BALANCE_EXEC
                | SD_BALANCE_FORK
                | SD_WAKE_AFFINE
                | SD_SHARE_LLC
                | SD_PREFER_SIBLING);
    assertThat(mc.imbalancePct()).isEqualTo(117);
    assertThat(mc.cacheNiceTries()).isEqualTo(1);
    assertThat(mc.minIntervalMs()).isEqualTo(80);
    assertThat(mc.maxIntervalMs()).isEqualTo(160);
    assertThat(mc.nrGroups()).isEqualTo(80);
    assertThat(mc.groups().get(0).span().toCpuList()).isEqualTo("41");
    assertThat(mc.groups().get(39).span().toCpuList()).isEqualTo("0");
    assertThat(mc.groups()).allSatisfy(g -> assertThat(g.flags()).isZero());
    assertThat(mc.groups()).allSatisfy(g -> assertThat(g.weight()).isEqualTo(1));
    assertThat(mc.parent()).isNull();
    assertThat(mc.child()).isNull();
    assertThat(mc.buildLevel()).isEqualTo(1);
    assertThat(mc.imbNumaNr()).isZero();
  }

  @Test
  void shortcuts_oneLlcNoNuma() {
    assertThat(domains.llcSize(7)).isEqualTo(80);
    assertThat(domains.llcCount()).isEqualTo(1);
    assertThat(domains.sdNuma(7)).isNull();
    assertThat(domains.numaDistances()).containsExactly(10);
  }
}
