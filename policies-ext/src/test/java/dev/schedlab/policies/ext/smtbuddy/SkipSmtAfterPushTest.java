package dev.schedlab.policies.ext.smtbuddy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.policies.ext.fakes.Machines;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.testkit.fakes.FakeBalanceActions;
import dev.schedlab.testkit.fakes.FakePassState;
import dev.schedlab.testkit.fakes.FakePolicyContext;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Skipping the SMT domain on a 2-node SMT2 machine (CPU 0: SMT, MC, PKG, NUMA): only the SMT
 * domain, only in a pass where a push actually happened; a pass whose push failed balances every
 * domain.
 */
final class SkipSmtAfterPushTest {

  private static final Topology MACHINE = Machines.adjacent("2n2l2c2t");
  private static final SchedDomains DOMAINS = SchedDomains.build(MACHINE);

  private ArrayCpuState state;
  private FakePolicyContext context;
  private BalancePass skip;
  private FakePassState pass;

  @BeforeEach
  void setUp() {
    state = new ArrayCpuState(MACHINE);
    SkipSmtAfterPushProvider provider = new SkipSmtAfterPushProvider();
    context = FakePolicyContext.of(provider, MACHINE, state);
    skip = provider.create(context);
    pass = new FakePassState(0, IdleType.NOT_IDLE, MACHINE.nrCpuIds());
  }

  private boolean balances(String level) {
    return skip.balanceDomain(Machines.domain(DOMAINS, 0, level), pass);
  }

  @Test
  void balanceDomain_noPushInPass_balancesEveryLevel() {
    assertThat(balances("SMT")).isTrue();
    assertThat(balances("MC")).isTrue();
    assertThat(balances("PKG")).isTrue();
    assertThat(balances("NUMA")).isTrue();
  }

  @Test
  void balanceDomain_afterPush_skipsOnlyTheSmtDomain() {
    pass.recordPush(1);

    assertThat(balances("SMT")).isFalse();
    assertThat(balances("MC")).isTrue();
    assertThat(balances("PKG")).isTrue();
    assertThat(balances("NUMA")).isTrue();
    assertThat(context.counterValue("skipped_domains")).isEqualTo(1);
  }

  @Test
  void balanceDomain_pushBlockedByAffinity_stillBalancesSmt() {
    FakeBalanceActions actions = new FakeBalanceActions(state);
    actions.addTask(0, CpuMasks.of(MACHINE.nrCpuIds(), 0), 512);
    actions.addTask(0, CpuMasks.of(MACHINE.nrCpuIds(), 0), 512);
    BalancePass push = pushFor(state);

    push.beforeDomainWalk(pass, actions);

    assertThat(balances("SMT")).isTrue();
  }

  @Test
  void balanceDomain_afterRealPush_skipsSmt() {
    FakeBalanceActions actions = new FakeBalanceActions(state);
    actions.addTask(0, CpuMasks.full(MACHINE.nrCpuIds()), 512);
    actions.addTask(0, CpuMasks.full(MACHINE.nrCpuIds()), 512);
    BalancePass push = pushFor(state);

    push.beforeDomainWalk(pass, actions);

    assertThat(actions.moves()).hasSize(1);
    assertThat(balances("SMT")).isFalse();
  }

  private static BalancePass pushFor(ArrayCpuState state) {
    SmtBuddyPushProvider provider = new SmtBuddyPushProvider();
    return provider.create(FakePolicyContext.of(provider, MACHINE, state));
  }
}
