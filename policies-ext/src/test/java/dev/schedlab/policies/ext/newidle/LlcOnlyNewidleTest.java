package dev.schedlab.policies.ext.newidle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.policies.ext.fakes.Machines;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.testkit.fakes.FakePassState;
import dev.schedlab.testkit.fakes.FakePolicyContext;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Newidle inside the LLC: in a newidle pass exactly the domains up to {@code sd_llc} (SMT, MC) are
 * balanced and everything above (PKG, NUMA) skipped, so every domain newidle balances lies inside
 * the CPU's last-level cache; periodic and NOHZ passes balance every domain.
 */
final class LlcOnlyNewidleTest {

  private static final Topology TWO_LLCS = Machines.adjacent("1n2l2c2t"); // SMT, MC, PKG
  private static final SchedDomains DOMAINS = SchedDomains.build(TWO_LLCS);

  private final LlcOnlyNewidleProvider provider = new LlcOnlyNewidleProvider();

  private BalancePass plugin(Topology machine) {
    return provider.create(FakePolicyContext.of(provider, machine, new ArrayCpuState(machine)));
  }

  private boolean balances(String level, IdleType idleType) {
    return plugin(TWO_LLCS)
        .balanceDomain(Machines.domain(DOMAINS, 0, level), new FakePassState(0, idleType, 8));
  }

  @Test
  void balanceDomain_newidle_stopsAboveTheLlcDomain() {
    assertThat(balances("SMT", IdleType.NEWLY_IDLE)).isTrue();
    assertThat(balances("MC", IdleType.NEWLY_IDLE)).isTrue();
    assertThat(balances("PKG", IdleType.NEWLY_IDLE)).isFalse();
  }

  @ParameterizedTest
  @EnumSource(
      value = IdleType.class,
      names = {"NOT_IDLE", "IDLE"})
  void balanceDomain_periodicOrNohz_balancesAboveTheLlc(IdleType idleType) {
    assertThat(balances("PKG", idleType)).isTrue();
  }

  @Test
  void balanceDomain_newidleNumaDomain_isSkippedToo() {
    Topology machine = Machines.adjacent("2n2l2c2t");
    SchedDomain numa = Machines.domain(SchedDomains.build(machine), 0, "NUMA");

    assertThat(plugin(machine).balanceDomain(numa, new FakePassState(0, IdleType.NEWLY_IDLE, 16)))
        .isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1n2l2c2t", "2n2l2c2t", "1n4l2k2c2t", "2n1l4c"})
  void balanceDomain_newidle_balancesExactlyTheDomainsInsideTheLlc(String shape) {
    Topology machine = Machines.adjacent(shape);
    SchedDomains domains = SchedDomains.build(machine);
    BalancePass plugin = plugin(machine);
    for (int cpu = 0; cpu < machine.nrCpuIds(); cpu++) {
      FakePassState pass = new FakePassState(cpu, IdleType.NEWLY_IDLE, machine.nrCpuIds());
      for (SchedDomain sd : domains.domains(cpu)) {
        boolean withinLlc = sd.span().isSubsetOf(machine.llcMask(cpu));
        assertThat(plugin.balanceDomain(sd, pass))
            .as("CPU %d %s span %s", cpu, sd.name(), sd.span().toCpuList())
            .isEqualTo(withinLlc);
      }
    }
  }
}
