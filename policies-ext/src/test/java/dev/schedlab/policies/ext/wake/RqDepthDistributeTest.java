package dev.schedlab.policies.ext.wake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reviewer's rq-depth rule on an 8-CPU machine whose periodic balance sampled 8 tasks over 8
 * active CPUs (average depth 1): a chosen CPU deeper than {@code multiple} (3) times that average
 * sends the task round-robin over its allowed, active CPUs using the waking CPU's distribute
 * cursor, and resets the deep CPU's balance interval; otherwise, and before any sample, the choice
 * stands.
 */
final class RqDepthDistributeTest {

  private static final int CPUS = 8;
  private static final Topology MACHINE = Shape.parse("8c").toTopology(SiblingNumbering.ADJACENT);
  private static final CpuMask ALL = CpuMasks.full(CPUS);

  private final RqDepthDistributeProvider provider = new RqDepthDistributeProvider();
  private ArrayCpuState state;
  private FakeBalanceActions actions;
  private FakeWakeupContext wakeup;

  @BeforeEach
  void setUp() {
    state = new ArrayCpuState(MACHINE);
    actions = new FakeBalanceActions(state);
    wakeup = new FakeWakeupContext(state, actions);
    // 3 + 5 × 1 = 8 tasks on 8 active CPUs: average depth 1.
    state.nrRunning(0, 3);
    for (int cpu = 1; cpu <= 5; cpu++) {
      state.nrRunning(cpu, 1);
    }
  }

  private WakeupPolicy sampled(WakeupPolicy policy) {
    policy.onPeriodicBalance(1, state);
    return policy;
  }

  private WakeupPolicy policy() {
    return provider.create(FakePolicyContext.of(provider, MACHINE, state));
  }

  private int place(WakeupPolicy policy, CpuMask allowed, int chosen) {
    return policy.selectFinal(FakeTask.normal(1, chosen, allowed), chosen, chosen, wakeup);
  }

  @Test
  void selectFinal_depthEqualToMultipleOfAverage_keepsChosen() {
    // 3 × 8 = 24 is not > 3 × 8 = 24.
    WakeupPolicy policy = sampled(policy());

    assertThat(place(policy, ALL, 0)).isZero();
    assertThat(actions.intervalResets()).isEmpty();
  }

  @Test
  void selectFinal_depthAboveMultipleOfAverage_distributesAndResetsChosenInterval() {
    WakeupPolicy policy = sampled(policy());
    state.nrRunning(0, 4); // 4 × 8 = 32 > 24; the average stays the sampled one

    assertThat(place(policy, ALL, 0)).isEqualTo(1);
    assertThat(actions.intervalResets()).containsExactly(0);
  }

  @Test
  void selectFinal_beforeAnyPeriodicBalance_keepsChosen() {
    WakeupPolicy policy = policy();
    state.nrRunning(0, 100);

    assertThat(place(policy, ALL, 0)).isZero();
  }

  @Test
  void selectFinal_successiveDeepPlacements_rotateOverAllowedCpus() {
    WakeupPolicy policy = sampled(policy());
    state.nrRunning(0, 4);

    // The cursor starts at CPU 0, so the first pick is the CPU after it.
    assertThat(place(policy, ALL, 0)).isEqualTo(1);
    assertThat(place(policy, ALL, 0)).isEqualTo(2);
    assertThat(place(policy, ALL, 0)).isEqualTo(3);
  }

  @Test
  void selectFinal_rotation_staysInsideAffinityAndWraps() {
    WakeupPolicy policy = sampled(policy());
    state.nrRunning(0, 4);
    CpuMask fourAndSix = CpuMasks.of(CPUS, 4, 6);

    assertThat(place(policy, fourAndSix, 0)).isEqualTo(4);
    assertThat(place(policy, fourAndSix, 0)).isEqualTo(6);
    assertThat(place(policy, fourAndSix, 0)).isEqualTo(4);
  }

  @Test
  void selectFinal_eachWakingCpu_hasItsOwnCursor() {
    WakeupPolicy policy = sampled(policy());
    state.nrRunning(0, 4);

    wakeup.on(3);
    assertThat(place(policy, ALL, 0)).isEqualTo(1);
    assertThat(place(policy, ALL, 0)).isEqualTo(2);
    wakeup.on(5);
    assertThat(place(policy, ALL, 0)).isEqualTo(1);
  }

  @Test
  void selectFinal_inactiveAllowedCpu_isSkipped() {
    WakeupPolicy policy = sampled(policy());
    state.nrRunning(0, 4).active(1, false);

    assertThat(place(policy, ALL, 0)).isEqualTo(2);
  }

  @Test
  void selectFinal_multipleTwo_distributesFromTwiceTheAverage() {
    WakeupPolicy policy =
        sampled(
            provider.create(
                FakePolicyContext.of(provider, MACHINE, state, Map.of("multiple", "2"))));

    // 3 × 8 = 24 > 2 × 8 = 16.
    assertThat(place(policy, ALL, 0)).isEqualTo(1);
  }

  @Test
  void selectFinal_distribution_isCounted() {
    FakePolicyContext context = FakePolicyContext.of(provider, MACHINE, state);
    WakeupPolicy policy = sampled(provider.create(context));
    state.nrRunning(0, 4);

    place(policy, ALL, 0);
    place(policy, ALL, 2);

    assertThat(context.counterValue("distributions")).isEqualTo(1);
  }

  @Test
  void descriptor_multipleOne_isRejectedNamingTheRange() {
    assertThatThrownBy(() -> provider.descriptor().resolve(Map.of("multiple", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiple=1 is out of range: allowed 2..16");
  }
}
