package dev.schedlab.policies.ext.smtbuddy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.policies.ext.fakes.Machines;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.testkit.fakes.FakeBalanceActions;
import dev.schedlab.testkit.fakes.FakePassState;
import dev.schedlab.testkit.fakes.FakePolicyContext;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import org.junit.jupiter.api.Test;

/**
 * Excluding the push destinations' cores from the busiest-runqueue candidates: after a push, every
 * SMT sibling of every destination (the whole core, whatever the SMT width and the sibling
 * numbering) leaves the candidates of the domains above SMT; without a push, at the SMT level, or
 * when the push failed, the candidates are untouched.
 */
final class ExcludeSiblingsTest {

  private final ExcludeSiblingsProvider provider = new ExcludeSiblingsProvider();

  private BalancePass exclude(Topology machine) {
    return provider.create(FakePolicyContext.of(provider, machine, new ArrayCpuState(machine)));
  }

  /** The candidates left at {@code level} of CPU 0 when they start as the domain's span. */
  private static String narrowed(
      BalancePass plugin, SchedDomains domains, String level, FakePassState pass) {
    SchedDomain sd = Machines.domain(domains, 0, level);
    MutableCpuMask candidates = sd.span().mutableCopy();
    plugin.narrowSourceCandidates(sd, pass, candidates);
    return candidates.toCpuList();
  }

  @Test
  void narrowSourceCandidates_noPush_leavesCandidates() {
    Topology machine = Machines.adjacent("2n2l2c2t");
    SchedDomains domains = SchedDomains.build(machine);
    FakePassState pass = new FakePassState(0, IdleType.NOT_IDLE, 16);

    assertThat(narrowed(exclude(machine), domains, "MC", pass)).isEqualTo("0-3");
    assertThat(narrowed(exclude(machine), domains, "NUMA", pass)).isEqualTo("0-15");
  }

  @Test
  void narrowSourceCandidates_afterPushSmt2_removesTheDestinationCore() {
    Topology machine = Machines.adjacent("2n2l2c2t");
    SchedDomains domains = SchedDomains.build(machine);
    FakePassState pass = new FakePassState(0, IdleType.NOT_IDLE, 16);
    pass.recordPush(1);
    BalancePass plugin = exclude(machine);

    assertThat(narrowed(plugin, domains, "MC", pass)).isEqualTo("2-3");
    assertThat(narrowed(plugin, domains, "PKG", pass)).isEqualTo("2-7");
    assertThat(narrowed(plugin, domains, "NUMA", pass)).isEqualTo("2-15");
  }

  @Test
  void narrowSourceCandidates_smtDomain_isLeftToTheSkipPlugin() {
    Topology machine = Machines.adjacent("2n2l2c2t");
    SchedDomains domains = SchedDomains.build(machine);
    FakePassState pass = new FakePassState(0, IdleType.NOT_IDLE, 16);
    pass.recordPush(1);

    assertThat(narrowed(exclude(machine), domains, "SMT", pass)).isEqualTo("0-1");
  }

  @Test
  void narrowSourceCandidates_smt4Adjacent_removesAllFourThreads() {
    Topology machine = Machines.adjacent("1n1l2c4t"); // cores {0-3} {4-7}
    SchedDomains domains = SchedDomains.build(machine);
    FakePassState pass = new FakePassState(0, IdleType.NOT_IDLE, 8);
    pass.recordPush(3);

    assertThat(narrowed(exclude(machine), domains, "MC", pass)).isEqualTo("4-7");
  }

  @Test
  void narrowSourceCandidates_smt4Split_removesTheCoreNotNeighbourNumbers() {
    Topology machine = Machines.split("1n1l2c4t"); // cores {0,2,4,6} {1,3,5,7}
    SchedDomains domains = SchedDomains.build(machine);
    FakePassState pass = new FakePassState(0, IdleType.NOT_IDLE, 8);
    pass.recordPush(2);

    assertThat(narrowed(exclude(machine), domains, "MC", pass)).isEqualTo("1,3,5,7");
  }

  @Test
  void narrowSourceCandidates_twoDestinations_removesBothCores() {
    Topology machine = Machines.adjacent("2n2l2c2t");
    SchedDomains domains = SchedDomains.build(machine);
    FakePassState pass = new FakePassState(0, IdleType.NOT_IDLE, 16);
    pass.recordPush(1);
    pass.recordPush(5);

    assertThat(narrowed(exclude(machine), domains, "NUMA", pass)).isEqualTo("2-3,6-15");
  }

  @Test
  void narrowSourceCandidates_pushBlockedByAffinity_leavesCandidates() {
    Topology machine = Machines.adjacent("2n2l2c2t");
    SchedDomains domains = SchedDomains.build(machine);
    ArrayCpuState state = new ArrayCpuState(machine);
    FakeBalanceActions actions = new FakeBalanceActions(state);
    actions.addTask(0, CpuMasks.of(16, 0), 512);
    actions.addTask(0, CpuMasks.of(16, 0), 512);
    FakePassState pass = new FakePassState(0, IdleType.NOT_IDLE, 16);
    SmtBuddyPushProvider pushProvider = new SmtBuddyPushProvider();
    pushProvider
        .create(FakePolicyContext.of(pushProvider, machine, state))
        .beforeDomainWalk(pass, actions);

    assertThat(narrowed(exclude(machine), domains, "MC", pass)).isEqualTo("0-3");
  }
}
