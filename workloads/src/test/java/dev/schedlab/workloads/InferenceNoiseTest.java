package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code wl.inference}'s housekeeping noise ({@link Disturbance}): none by default; with {@code
 * noise_tasks} set, that many SCHED_NORMAL tasks on {@code noise_affinity} start asleep and then
 * alternate an exponential sleep of mean {@code noise_period} with a burst of {@code noise_work}.
 */
final class InferenceNoiseTest {

  private final InferenceWorkloadProvider provider = new InferenceWorkloadProvider();

  @Test
  void run_defaults_noNoiseTasks() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result = machine.run(provider, Map.of("threads", "2"), 10_000_000);

    assertThat(machine.tasks()).hasSize(2);
    assertThat(result.extra()).containsEntry("noise_tasks", 0.0).containsEntry("noise_bursts", 0.0);
  }

  @Test
  void run_noise_burstsAtTheStatedRateOnTheStatedCpus() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    // 4 noise tasks, mean period 1 ms, 10 µs bursts, for 1 s: about 4 × 1 s / 1.01 ms ≈ 3960.
    WorkloadResult result =
        machine.run(
            provider,
            Map.of(
                "threads",
                "2",
                "noise_tasks",
                "4",
                "noise_period",
                "1ms",
                "noise_work",
                "10us",
                "noise_affinity",
                "2-3"),
            1_000_000_000);

    assertThat(machine.tasks()).hasSize(6);
    assertThat(machine.tasks().subList(2, 6))
        .allSatisfy(
            t -> {
              assertThat(t.spec().name()).startsWith("noise/");
              assertThat(t.spec().allowedCpus().toCpuList()).isEqualTo("2-3");
            });
    assertThat(result.extra().get("noise_tasks")).isEqualTo(4.0);
    // Poisson count over ~3960 expected: 5 % is more than 3 standard deviations (sqrt ≈ 63).
    assertThat(result.extra().get("noise_bursts")).isCloseTo(3960, within(200.0));
  }
}
