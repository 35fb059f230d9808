package dev.schedlab.policies.fair.wake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.policies.fair.testing.Machines;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicy.Vote;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.TaskView;
import dev.schedlab.testkit.fakes.FakeTask;
import dev.schedlab.topology.SiblingNumbering;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The SCHED_IDLE wakee rules of seeds-digest §5 and kernel-facts §5.5, applied as the engine
 * applies a vote inside {@code choose_idle_cpu()}: with one CPU running only SCHED_IDLE work and
 * one truly idle CPU, a SCHED_IDLE wakee lands on the truly idle CPU under the fixed rule and may
 * share the SCHED_IDLE CPU under the old one; a normal or batch wakee may take either under both.
 */
final class SchedIdleWakeupPolicyTest {

  private static final int SCHED_IDLE_CPU = 0;
  private static final int IDLE_CPU = 1;

  private final ArrayCpuState state =
      new ArrayCpuState(Machines.smt(2, 1, SiblingNumbering.ADJACENT))
          .allIdle(false)
          .schedIdleRq(SCHED_IDLE_CPU, true)
          .idle(IDLE_CPU, true);

  private static TaskView wakee(SchedPolicy policy) {
    return FakeTask.of(1, policy, CpuMasks.full(2));
  }

  @Test
  void awareRule_schedIdleWakee_landsOnTheTrulyIdleCpu() {
    assertThat(scanForIdleCpu(new SchedIdleAwareWakeupPolicy(), wakee(SchedPolicy.IDLE), state))
        .isEqualTo(IDLE_CPU);
  }

  @Test
  void anyRule_schedIdleWakee_mayShareTheSchedIdleCpu() {
    assertThat(scanForIdleCpu(new SchedIdleAnyWakeupPolicy(), wakee(SchedPolicy.IDLE), state))
        .isEqualTo(SCHED_IDLE_CPU);
  }

  @ParameterizedTest
  @EnumSource(
      value = SchedPolicy.class,
      names = {"NORMAL", "BATCH"})
  void bothRules_nonIdleWakee_takeTheFirstOfEitherCpu(SchedPolicy policy) {
    assertThat(scanForIdleCpu(new SchedIdleAwareWakeupPolicy(), wakee(policy), state))
        .isEqualTo(SCHED_IDLE_CPU);
    assertThat(scanForIdleCpu(new SchedIdleAnyWakeupPolicy(), wakee(policy), state))
        .isEqualTo(SCHED_IDLE_CPU);
  }

  @ParameterizedTest
  @EnumSource(SchedPolicy.class)
  void votes_everyPolicy_followTheRules(SchedPolicy policy) {
    assertThat(new SchedIdleAnyWakeupPolicy().schedIdleRqCountsAsIdle(wakee(policy)))
        .isEqualTo(Vote.YES);
    assertThat(new SchedIdleAwareWakeupPolicy().schedIdleRqCountsAsIdle(wakee(policy)))
        .isEqualTo(policy == SchedPolicy.IDLE ? Vote.NO : Vote.YES);
  }

  @Test
  void awareRule_schedIdleWakeeWithoutTrulyIdleCpu_findsNone() {
    state.idle(IDLE_CPU, false);

    assertThat(scanForIdleCpu(new SchedIdleAwareWakeupPolicy(), wakee(SchedPolicy.IDLE), state))
        .isEqualTo(-1);
  }

  /**
   * {@code select_idle_cpu()} reduced to its test: scan the wakee's CPUs in order and return the
   * first for which {@code choose_idle_cpu(cpu, p)} holds, with the policy's vote standing for
   * {@code choose_sched_idle_rq()}'s wakee test.
   */
  private static int scanForIdleCpu(WakeupPolicy policy, TaskView wakee, CpuStateView state) {
    boolean schedIdleRqCounts = policy.schedIdleRqCountsAsIdle(wakee) == Vote.YES;
    for (int cpu = wakee.allowedCpus().first(); cpu != -1; cpu = wakee.allowedCpus().next(cpu)) {
      if (state.isAvailableIdle(cpu) || (schedIdleRqCounts && state.isSchedIdleRq(cpu))) {
        return cpu;
      }
    }
    return -1;
  }
}
