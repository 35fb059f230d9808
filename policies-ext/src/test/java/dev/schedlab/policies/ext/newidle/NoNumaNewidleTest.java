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
 * Newidle without NUMA: in a newidle pass every {@code SD_NUMA} domain is skipped and every other
 * one (SMT, MC, PKG) balanced, so no domain that newidle balances spans more than the CPU's node;
 * periodic and NOHZ passes balance every domain.
 */
final class NoNumaNewidleTest {

  private static final Topology TWO_NODES = Machines.adjacent("2n2l2c2t"); // SMT, MC, PKG, NUMA
  private static final SchedDomains DOMAINS = SchedDomains.build(TWO_NODES);

  private final NoNumaNewidleProvider provider = new NoNumaNewidleProvider();

  private BalancePass plugin(Topology machine) {
    return provider.create(FakePolicyContext.of(provider, machine, new ArrayCpuState(machine)));
  }

  private boolean balances(String level, IdleType idleType) {
    return plugin(TWO_NODES)
        .balanceDomain(Machines.domain(DOMAINS, 0, level), new FakePassState(0, idleType, 16));
  }

  @Test
  void balanceDomain_newidle_skipsOnlyNuma() {
    assertThat(balances("SMT", IdleType.NEWLY_IDLE)).isTrue();
    assertThat(balances("MC", IdleType.NEWLY_IDLE)).isTrue();
    assertThat(balances("PKG", IdleType.NEWLY_IDLE)).isTrue();
    assertThat(balances("NUMA", IdleType.NEWLY_IDLE)).isFalse();
  }

  @ParameterizedTest
  @EnumSource(
      value = IdleType.class,
      names = {"NOT_IDLE", "IDLE"})
  void balanceDomain_periodicOrNohz_balancesNuma(IdleType idleType) {
    assertThat(balances("NUMA", idleType)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2n2l2c2t", "4n1l4c", "2s4n1l2c2t"})
  void balanceDomain_newidle_neverBalancesADomainSpanningAnotherNode(String shape) {
    Topology machine = Machines.adjacent(shape);
    SchedDomains domains = SchedDomains.build(machine);
    BalancePass plugin = plugin(machine);
    for (int cpu = 0; cpu < machine.nrCpuIds(); cpu++) {
      FakePassState pass = new FakePassState(cpu, IdleType.NEWLY_IDLE, machine.nrCpuIds());
      for (SchedDomain sd : domains.domains(cpu)) {
        boolean withinNode = sd.span().isSubsetOf(machine.nodeMask(machine.nodeOf(cpu)));
        assertThat(plugin.balanceDomain(sd, pass))
            .as("CPU %d %s span %s", cpu, sd.name(), sd.span().toCpuList())
            .isEqualTo(withinNode);
      }
    }
  }
}
