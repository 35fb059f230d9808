package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code wl.inference}: threads split each step's work equally and meet at a barrier; tokens/s is
 * completed steps × sequences over simulated seconds; background threads are SCHED_IDLE and allowed
 * everywhere; the threads take the requested policy.
 */
final class InferenceWorkloadProviderTest {

  private final InferenceWorkloadProvider provider = new InferenceWorkloadProvider();

  @Test
  void run_fourThreads_eachRunsAQuarterOfTheStep() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(provider, Map.of("threads", "4", "step_work", "4ms"));
    machine.runUntil(0);

    assertThat(machine.tasks())
        .allSatisfy(t -> assertThat(machine.steps(t.id, "run").get(0).amount()).isEqualTo(1e6));
  }

  @Test
  void result_tenSteps_tokensPerSecondIsStepsTimesSequencesOverTime() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider, Map.of("threads", "4", "step_work", "4ms", "sequences", "8"), 10_500_000);

    assertThat(result.metric()).isEqualTo("throughput");
    assertThat(result.unit()).isEqualTo("tokens/s");
    assertThat(result.value()).isCloseTo(10 * 8 / 0.0105, within(1e-6));
    assertThat(result.extra().get("steps")).isEqualTo(10.0);
  }

  @Test
  void start_idlePolicyWithBackground_backgroundIsSchedIdleEverywhere() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(provider, Map.of("threads", "2", "policy", "idle", "background", "3"));

    assertThat(machine.tasks()).hasSize(5);
    assertThat(machine.tasks().subList(0, 3))
        .allSatisfy(
            t -> {
              assertThat(t.spec().policy()).isEqualTo(SchedPolicy.IDLE);
              assertThat(t.spec().allowedCpus()).isNull();
            });
    assertThat(machine.tasks().subList(3, 5))
        .allSatisfy(t -> assertThat(t.spec().policy()).isEqualTo(SchedPolicy.IDLE));
  }

  @Test
  void result_background_countsItsCompletedWork() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(provider, Map.of("threads", "1", "background", "2"), 10_000_000);

    // Two threads finishing 1 ms chunks at 1, 2, ..., 10 ms.
    assertThat(result.extra().get("background_cpu_s")).isCloseTo(0.020, within(1e-12));
  }

  @Test
  void createCost_poolStartsOneThreadAfterAnother_andTheStartIsNoStep() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of("threads", "4", "step_work", "4ms", "sequences", "8", "create_cost", "1ms"),
            13_500_000);

    // Thread 0 creates threads 1-3 at 1, 2 and 3 ms; the first step starts when all are there.
    assertThat(machine.tasks())
        .extracting(t -> t.spawnNs)
        .containsExactly(0L, 1_000_000L, 2_000_000L, 3_000_000L);
    assertThat(machine.steps(1, "run").get(0).timeNs()).isEqualTo(3_000_000L);
    // 10 steps of 1 ms from 3 ms to 13 ms; the pool start is not counted as a step.
    assertThat(result.extra().get("steps")).isEqualTo(10.0);
  }
}
