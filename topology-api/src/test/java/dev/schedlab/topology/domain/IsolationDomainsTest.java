package dev.schedlab.topology.domain;

import static dev.schedlab.topology.domain.GroupSpans.names;
import static dev.schedlab.topology.domain.GroupSpans.spans;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.topology.Housekeeping;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * Only online CPUs in the HK_TYPE_DOMAIN mask get domains: CPUs of {@code isolcpus=domain} and
 * offline CPUs have none and appear in no span or group, intervals follow the reduced span weight,
 * and {@code nohz_full=} alone removes nothing.
 */
final class IsolationDomainsTest {

  private final Topology machine = Shape.parse("1n1l8c2t").toTopology(SiblingNumbering.ADJACENT);

  @Test
  void isolcpusDomain_isolatedCpusHaveNoDomains() {
    SchedDomains domains =
        SchedDomains.build(machine.withHousekeeping(Housekeeping.parse("isolcpus=domain,2-5", 16)));

    assertThat(domains.cpuMap().toCpuList()).isEqualTo("0-1,6-15");
    for (int cpu = 2; cpu <= 5; cpu++) {
      assertThat(domains.domains(cpu)).as("CPU %d", cpu).isEmpty();
      assertThat(domains.sdLlc(cpu)).isNull();
      assertThat(domains.llcId(cpu)).isEqualTo(SchedDomains.NO_LLC);
      assertThat(domains.llcSize(cpu)).isEqualTo(1);
      assertThat(domains.baseDomain(cpu)).isNull();
    }
    assertThat(domains.cpusShareCache(2, 0)).isFalse();
  }

  @Test
  void isolcpusDomain_remainingSpansAndIntervalsExcludeIsolatedCpus() {
    SchedDomains domains =
        SchedDomains.build(machine.withHousekeeping(Housekeeping.parse("isolcpus=2-5", 16)));

    assertThat(names(domains.domains(0))).containsExactly("SMT", "MC");
    SchedDomain mc = domains.domains(0).get(1);
    assertThat(mc.span().toCpuList()).isEqualTo("0-1,6-15");
    assertThat(mc.spanWeight()).isEqualTo(12);
    assertThat(mc.minIntervalMs()).isEqualTo(12);
    assertThat(mc.maxIntervalMs()).isEqualTo(24);
    assertThat(spans(mc)).containsExactly("0-1", "6-7", "8-9", "10-11", "12-13", "14-15");
    assertThat(domains.llcSize(0)).isEqualTo(12);
  }

  @Test
  void isolatingOneSibling_leavesTheOtherWithoutSmtDomain() {
    SchedDomains domains =
        SchedDomains.build(machine.withHousekeeping(Housekeeping.parse("isolcpus=3", 16)));

    assertThat(names(domains.domains(2))).containsExactly("MC");
    assertThat(names(domains.domains(0))).containsExactly("SMT", "MC");
    assertThat(domains.domains(0).get(1).groups().get(1).span().toCpuList()).isEqualTo("2");
  }

  @Test
  void offlineCpu_hasNoDomainsAndIsInNoSpan() {
    Topology t = Shape.parse("1n1l4c2t").toTopology(SiblingNumbering.ADJACENT);
    var builder = Topology.builder(8);
    for (int cpu = 0; cpu < 8; cpu++) {
      builder.addCpu(cpu, 0, 0, 0, -1, t.coreId(cpu), 0);
    }
    SchedDomains domains = SchedDomains.build(builder.offline(7).build());

    assertThat(domains.domains(7)).isEmpty();
    assertThat(domains.domains(6).get(0).name()).isEqualTo("MC");
    assertThat(domains.domains(0).get(1).span().toCpuList()).isEqualTo("0-6");
  }

  @Test
  void nohzFullOnly_keepsEveryCpuInDomains() {
    SchedDomains domains =
        SchedDomains.build(machine.withHousekeeping(Housekeeping.parse("nohz_full=1-15", 16)));

    assertThat(domains.cpuMap().toCpuList()).isEqualTo("0-15");
    assertThat(names(domains.domains(5))).containsExactly("SMT", "MC");
  }

  @Test
  void domains_cpuOutsideWidth_rejected() {
    SchedDomains domains = SchedDomains.build(machine);

    assertThatThrownBy(() -> domains.domains(16))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 16 outside [0, 16)");
  }
}
