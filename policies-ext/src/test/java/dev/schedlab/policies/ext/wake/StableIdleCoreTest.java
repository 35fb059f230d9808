package dev.schedlab.policies.ext.wake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.testkit.fakes.FakeBalanceActions;
import dev.schedlab.testkit.fakes.FakePolicyContext;
import dev.schedlab.testkit.fakes.FakeTask;
import dev.schedlab.testkit.fakes.FakeWakeupContext;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The stabilize rule on 4 cores × SMT2 numbered n / n + 4: a wakeup that picked a CPU of a fully
 * idle core takes the core's first allowed sibling; a busy sibling, a fork or a machine without
 * asymmetric capacities (unless {@code asym_only=false}) leaves the choice alone.
 */
final class StableIdleCoreTest {

  private static final Topology EQUAL = Shape.parse("4c2t").toTopology(SiblingNumbering.SPLIT);
  private static final CpuMask ALL = CpuMasks.full(8);

  private final StableIdleCoreProvider provider = new StableIdleCoreProvider();
  private final ArrayCpuState state = new ArrayCpuState(EQUAL);
  private final FakeWakeupContext wakeup =
      new FakeWakeupContext(state, new FakeBalanceActions(state)).on(0);

  private WakeupPolicy policy(boolean asymOnly) {
    return provider.create(
        FakePolicyContext.of(
            provider,
            EQUAL,
            state,
            Map.of(StableIdleCoreProvider.ASYM_ONLY, Boolean.toString(asymOnly))));
  }

  @Test
  void idleCore_secondSiblingChosen_becomesTheFirstSibling() {
    assertThat(policy(false).selectFinal(FakeTask.normal(1, 6, ALL), 6, 6, wakeup)).isEqualTo(2);
  }

  @Test
  void firstSiblingNotAllowed_theChoiceStands() {
    FakeTask task = FakeTask.normal(1, 6, CpuMasks.parseCpuList("4-7", 8));
    assertThat(policy(false).selectFinal(task, 6, 6, wakeup)).isEqualTo(6);
  }

  @Test
  void busySibling_theChoiceStands() {
    state.nrRunning(2, 1);
    assertThat(policy(false).selectFinal(FakeTask.normal(1, 6, ALL), 6, 6, wakeup)).isEqualTo(6);
  }

  @Test
  void fork_theChoiceStands() {
    wakeup.fork(true);
    assertThat(policy(false).selectFinal(FakeTask.normal(1, 6, ALL), 6, 6, wakeup)).isEqualTo(6);
  }

  @Test
  void equalCapacities_asymOnlyByDefault_theChoiceStands() {
    assertThat(policy(true).selectFinal(FakeTask.normal(1, 6, ALL), 6, 6, wakeup)).isEqualTo(6);
  }
}
