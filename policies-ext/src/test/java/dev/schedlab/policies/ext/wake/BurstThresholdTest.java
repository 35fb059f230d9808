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
 * The burst rule of the SMT_BUDDY_ASSIST RFC on an 8-CPU machine: the choice stands while the
 * chosen CPU has fewer than {@code threshold} tasks; from the threshold on, the wakee goes to the
 * first CPU of the NOHZ idle mask after the chosen one, wrapping, that is really idle and allowed
 * by its affinity; with no such CPU the choice stands.
 */
final class BurstThresholdTest {

  private static final int CPUS = 8;
  private static final Topology MACHINE = Shape.parse("8c").toTopology(SiblingNumbering.ADJACENT);
  private static final CpuMask ALL = CpuMasks.full(CPUS);

  private final BurstThresholdProvider provider = new BurstThresholdProvider();
  private ArrayCpuState state;
  private FakeWakeupContext wakeup;

  @BeforeEach
  void setUp() {
    state = new ArrayCpuState(MACHINE);
    wakeup = new FakeWakeupContext(state, new FakeBalanceActions(state));
  }

  private WakeupPolicy policy(FakePolicyContext context) {
    return provider.create(context);
  }

  private FakePolicyContext defaults() {
    return FakePolicyContext.of(provider, MACHINE, state);
  }

  private int place(WakeupPolicy policy, CpuMask allowed, int chosen) {
    return policy.selectFinal(FakeTask.normal(1, chosen, allowed), chosen, chosen, wakeup);
  }

  @Test
  void selectFinal_chosenBelowThreshold_keepsChosen() {
    state.nrRunning(2, 3).nohzIdle(5);

    assertThat(place(policy(defaults()), ALL, 2)).isEqualTo(2);
  }

  @Test
  void selectFinal_chosenAtThreshold_takesFirstNohzIdleCpuAfterIt() {
    state.nrRunning(2, 4).nohzIdle(1, 5, 6);

    assertThat(place(policy(defaults()), ALL, 2)).isEqualTo(5);
  }

  @Test
  void selectFinal_noNohzIdleCpuAfterChosen_wrapsToTheStart() {
    state.nrRunning(6, 4).nohzIdle(1, 3);

    assertThat(place(policy(defaults()), ALL, 6)).isEqualTo(1);
  }

  @Test
  void selectFinal_nohzIdleCpuThatIsBusy_isPassedOver() {
    // CPU 5 is still in the lazily updated NOHZ mask but has a task again.
    state.nrRunning(2, 4).nrRunning(5, 1).nohzIdle(5, 6);

    assertThat(place(policy(defaults()), ALL, 2)).isEqualTo(6);
  }

  @Test
  void selectFinal_idleCpusOutsideAffinity_areNeverChosen() {
    state.nrRunning(2, 4).nohzIdle(1, 5, 6);
    CpuMask firstFour = CpuMasks.range(CPUS, 0, 3);

    assertThat(place(policy(defaults()), firstFour, 2)).isEqualTo(1);
  }

  @Test
  void selectFinal_idleCpuOutsideNohzMask_isNotConsidered() {
    // CPU 7 is idle but its tick still runs, so the NOHZ mask does not list it.
    state.nrRunning(2, 4);

    assertThat(place(policy(defaults()), ALL, 2)).isEqualTo(2);
  }

  @Test
  void selectFinal_noAllowedIdleCpu_keepsChosenAndCountsNothing() {
    state.nrRunning(2, 4).nohzIdle(5);
    FakePolicyContext context = defaults();
    CpuMask onlyTwoAndThree = CpuMasks.of(CPUS, 2, 3);

    assertThat(place(policy(context), onlyTwoAndThree, 2)).isEqualTo(2);
    assertThat(context.counterValue("redirects")).isZero();
  }

  @Test
  void selectFinal_redirect_isCounted() {
    state.nrRunning(2, 4).nohzIdle(5);
    FakePolicyContext context = defaults();
    WakeupPolicy policy = policy(context);

    place(policy, ALL, 2);
    place(policy, ALL, 2);

    assertThat(context.counterValue("redirects")).isEqualTo(2);
  }

  @Test
  void selectFinal_thresholdTwo_redirectsFromTwoTasks() {
    state.nrRunning(2, 2).nohzIdle(5);
    WakeupPolicy policy =
        policy(FakePolicyContext.of(provider, MACHINE, state, Map.of("threshold", "2")));

    assertThat(place(policy, ALL, 2)).isEqualTo(5);
  }

  @Test
  void descriptor_thresholdOne_isRejectedNamingTheRange() {
    assertThatThrownBy(() -> provider.descriptor().resolve(Map.of("threshold", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("threshold=1 is out of range: allowed 2..");
  }

  @Test
  void descriptor_unknownParameter_isRejectedListingTheKnownOnes() {
    assertThatThrownBy(() -> provider.descriptor().resolve(Map.of("smt_buddy_balance_task", "4")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown parameter 'smt_buddy_balance_task'")
        .hasMessageContaining("known: threshold");
  }
}
