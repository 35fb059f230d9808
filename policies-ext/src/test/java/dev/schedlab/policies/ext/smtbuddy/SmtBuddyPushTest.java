package dev.schedlab.policies.ext.smtbuddy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.policies.ext.fakes.Machines;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.testkit.fakes.FakeBalanceActions;
import dev.schedlab.testkit.fakes.FakeBalanceActions.Move;
import dev.schedlab.testkit.fakes.FakePassState;
import dev.schedlab.testkit.fakes.FakePolicyContext;
import dev.schedlab.topology.Housekeeping;
import dev.schedlab.topology.Topology;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SMT buddy push on small machines, balancing CPU 0 whose sibling is CPU 1 (SMT2) or CPUs 1-3
 * (SMT4): it fires exactly when {@code src_runnable × 100 > sibling_runnable × pct}, moves only
 * tasks whose affinity allows the sibling, repeats until the source has fewer than two runnable
 * tasks or the condition fails (each move carries the task's runnable contribution), records every
 * push in the pass and counts it, and does nothing without an SMT domain.
 */
final class SmtBuddyPushTest {

  private static final Topology SMT2 = Machines.adjacent("1n1l2c2t"); // cores {0,1} {2,3}
  private static final Topology SMT4 = Machines.adjacent("1n1l2c4t"); // cores {0-3} {4-7}

  private final SmtBuddyPushProvider provider = new SmtBuddyPushProvider();

  /** One machine's state, runqueues, plugin and pass of CPU 0. */
  private final class Run {
    final ArrayCpuState state;
    final FakeBalanceActions actions;
    final FakePolicyContext context;
    final BalancePass push;
    final FakePassState pass;
    final CpuMask all;

    Run(Topology machine, Map<String, String> overrides) {
      state = new ArrayCpuState(machine);
      actions = new FakeBalanceActions(state);
      context = FakePolicyContext.of(provider, machine, state, overrides);
      push = provider.create(context);
      pass = new FakePassState(0, IdleType.NOT_IDLE, machine.nrCpuIds());
      all = CpuMasks.full(machine.nrCpuIds());
    }

    Run(Topology machine) {
      this(machine, Map.of());
    }

    int task(int cpu, long runnable) {
      return actions.addTask(cpu, all, runnable);
    }

    void balance() {
      push.beforeDomainWalk(pass, actions);
    }
  }

  @Test
  void beforeDomainWalk_justAbovePctBoundary_pushesOneTask() {
    Run run = new Run(SMT2);
    run.task(0, 512);
    int queued = run.task(0, 512); // src runnable 1024
    run.task(1, 819); // 1024 × 100 = 102400 > 819 × 125 = 102375

    run.balance();

    assertThat(run.actions.moves()).containsExactly(new Move(queued, 0, 1));
    assertThat(run.pass.pushDestinations().toCpuList()).isEqualTo("1");
    assertThat(run.context.counterValue("pushes")).isEqualTo(1);
  }

  @Test
  void beforeDomainWalk_atPctBoundary_doesNotPush() {
    Run run = new Run(SMT2);
    run.task(0, 512);
    run.task(0, 512);
    run.task(1, 820); // 102400 > 820 × 125 = 102500 is false

    run.balance();

    assertThat(run.actions.moves()).isEmpty();
    assertThat(run.pass.pushed()).isFalse();
    assertThat(run.context.counterValue("pushes")).isZero();
  }

  @Test
  void beforeDomainWalk_equalProducts_doesNotPush() {
    Run run = new Run(SMT2);
    run.task(0, 500);
    run.task(0, 500);
    run.task(1, 800); // 1000 × 100 = 100000 = 800 × 125: the test is strict

    run.balance();

    assertThat(run.actions.moves()).isEmpty();
  }

  @Test
  void beforeDomainWalk_imbalancePct150_movesTheBoundary() {
    Run pushes = new Run(SMT2, Map.of("imbalance_pct", "150"));
    pushes.task(0, 512);
    pushes.task(0, 512);
    pushes.task(1, 682); // 102400 > 682 × 150 = 102300
    Run holds = new Run(SMT2, Map.of("imbalance_pct", "150"));
    holds.task(0, 512);
    holds.task(0, 512);
    holds.task(1, 683); // 102400 > 683 × 150 = 102450 is false

    pushes.balance();
    holds.balance();

    assertThat(pushes.actions.moves()).hasSize(1);
    assertThat(holds.actions.moves()).isEmpty();
  }

  @Test
  void beforeDomainWalk_oneRunnableTask_doesNotEvenTry() {
    Run run = new Run(SMT2);
    run.task(0, 1024);

    run.balance();

    assertThat(run.actions.attempts()).isZero();
  }

  @Test
  void beforeDomainWalk_conditionStillTrueAfterMove_loopsUntilItFails() {
    Run run = new Run(SMT2);
    for (int i = 0; i < 4; i++) {
      run.task(0, 256); // src 1024, sibling idle
    }

    run.balance();

    // 1: 102400 > 0 → src 768, sib 256. 2: 76800 > 32000 → src 512, sib 512.
    // 3: 51200 > 64000 is false → stop with two tasks on each CPU.
    assertThat(run.actions.moves()).hasSize(2).allMatch(m -> m.srcCpu() == 0 && m.dstCpu() == 1);
    assertThat(run.state.runnableAvg(0)).isEqualTo(512);
    assertThat(run.state.runnableAvg(1)).isEqualTo(512);
    assertThat(run.context.counterValue("pushes")).isEqualTo(2);
  }

  @Test
  void beforeDomainWalk_sourceDownToOneTask_stopsEvenIfConditionHolds() {
    Run run = new Run(SMT2);
    for (int i = 0; i < 3; i++) {
      run.task(0, 100); // src 300, sibling idle
    }

    run.balance();

    // 1: 30000 > 0 → src 200. 2: 20000 > 12500 → src 100, one task left: stop.
    assertThat(run.actions.moves()).hasSize(2);
    assertThat(run.actions.attempts()).isEqualTo(2);
    assertThat(run.actions.tasksOn(0)).hasSize(1);
  }

  @Test
  void beforeDomainWalk_pinnedTask_isNeverMovedAndEndsTheLoop() {
    Run run = new Run(SMT2);
    run.task(0, 400);
    int movable = run.task(0, 300);
    int pinned = run.actions.addTask(0, CpuMasks.of(4, 0), 324); // tail, only CPU 0

    run.balance();

    // 1: the tail task is pinned, so the next one moves: src 724, sib 300.
    // 2: 72400 > 37500 holds, but the only queued task left is pinned: nothing moves.
    assertThat(run.actions.moves()).containsExactly(new Move(movable, 0, 1));
    assertThat(run.actions.tasksOn(0)).contains(pinned);
    assertThat(run.context.counterValue("pushes")).isEqualTo(1);
  }

  @Test
  void beforeDomainWalk_noTaskAllowedOnSibling_recordsNoPush() {
    Run run = new Run(SMT2);
    CpuMask onlyZero = CpuMasks.of(4, 0);
    run.actions.addTask(0, onlyZero, 512);
    run.actions.addTask(0, onlyZero, 512);

    run.balance();

    assertThat(run.actions.moves()).isEmpty();
    assertThat(run.pass.pushed()).isFalse();
  }

  @Test
  void beforeDomainWalk_inactiveSibling_isNotATarget() {
    Run run = new Run(SMT2);
    run.task(0, 512);
    run.task(0, 512);
    run.state.active(1, false);

    run.balance();

    assertThat(run.actions.moves()).isEmpty();
  }

  @Test
  void beforeDomainWalk_neverPushesOutsideTheCore() {
    Run run = new Run(SMT2);
    run.task(0, 512);
    run.task(0, 512);
    run.task(1, 1024); // sibling too busy; CPUs 2 and 3 idle but on the other core

    run.balance();

    assertThat(run.actions.moves()).isEmpty();
  }

  @Test
  void beforeDomainWalk_smt4_skipsBusySiblingForTheFirstQualifyingOne() {
    Run run = new Run(SMT4);
    run.task(0, 512);
    int queued = run.task(0, 512);
    run.task(1, 1000); // 102400 > 125000 is false
    // CPU 2 idle: first qualifying sibling in ascending order

    run.balance();

    assertThat(run.actions.moves()).containsExactly(new Move(queued, 0, 2));
    assertThat(run.pass.pushDestinations().toCpuList()).isEqualTo("2");
  }

  @Test
  void beforeDomainWalk_siblingOutsideSchedDomains_noSmtDomainSoNoPush() {
    // isolcpus=domain,1: CPU 1 is online and active but CPU 0's SMT domain degenerates.
    Topology isolated = SMT2.withHousekeeping(Housekeeping.parse("isolcpus=domain,1", 4));
    Run run = new Run(isolated);
    run.task(0, 512);
    run.task(0, 512);

    run.balance();

    assertThat(run.actions.moves()).isEmpty();
  }

  @Test
  void beforeDomainWalk_machineWithoutSmt_doesNothing() {
    Run run = new Run(Machines.adjacent("4c"));
    run.task(0, 512);
    run.task(0, 512);

    run.balance();

    assertThat(run.actions.moves()).isEmpty();
  }

  @Test
  void descriptor_imbalancePct300_isRejectedNamingTheRange() {
    assertThatThrownBy(() -> provider.descriptor().resolve(Map.of("imbalance_pct", "300")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ext.smt-buddy.push")
        .hasMessageContaining("imbalance_pct=300 is out of range: allowed 105..200");
  }

  @Test
  void descriptor_imbalancePct104_isRejected() {
    assertThatThrownBy(() -> provider.descriptor().resolve(Map.of("imbalance_pct", "104")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("allowed 105..200");
  }

  @Test
  void descriptor_rangeEnds_areAccepted() {
    for (int pct : new int[] {105, 200}) {
      Map<String, String> override = Map.of("imbalance_pct", Integer.toString(pct));
      assertThat(provider.descriptor().resolve(override).getInt("imbalance_pct")).isEqualTo(pct);
    }
  }

  @Test
  void descriptor_unknownParameter_isRejectedListingTheKnownOnes() {
    assertThatThrownBy(
            () -> provider.descriptor().resolve(Map.of("smt_buddy_imbalance_pct", "125")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown parameter 'smt_buddy_imbalance_pct'")
        .hasMessageContaining("known: imbalance_pct");
  }

  @Test
  void descriptor_default_is125() {
    assertThat(provider.descriptor().resolve(Map.of()).getInt("imbalance_pct")).isEqualTo(125);
  }
}
