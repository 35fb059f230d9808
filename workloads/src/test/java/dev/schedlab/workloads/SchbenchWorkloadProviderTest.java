package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code wl.schbench}: the wakeup latency a worker records is the time from its message thread's
 * wake to its running again, the request latency spans the pre-request sleep and the work, and
 * requests/s follows the post → wake → sleep → work cycle.
 */
final class SchbenchWorkloadProviderTest {

  private final SchbenchWorkloadProvider provider = new SchbenchWorkloadProvider();

  @Test
  void start_twoMessageThreads_eachWithItsWorkers() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(provider, Map.of("message_threads", "2", "workers", "3"));

    assertThat(machine.tasks())
        .extracting(t -> t.spec().name())
        .containsExactly(
            "schbench/msg/0",
            "schbench/worker/0",
            "schbench/worker/1",
            "schbench/worker/2",
            "schbench/msg/1",
            "schbench/worker/3",
            "schbench/worker/4",
            "schbench/worker/5");
  }

  @Test
  void start_defaultPolicy_isNormal_idlePolicy_appliesToMessageThreadsAndWorkers() {
    IdealMachine normal = IdealMachine.shape("1n1l4c1t");
    normal.start(provider, Map.of("message_threads", "1", "workers", "2"));
    IdealMachine idle = IdealMachine.shape("1n1l4c1t");
    idle.start(provider, Map.of("message_threads", "2", "workers", "2", "policy", "idle"));

    assertThat(normal.tasks())
        .allSatisfy(t -> assertThat(t.spec().policy()).isEqualTo(SchedPolicy.NORMAL));
    assertThat(idle.tasks())
        .hasSize(6)
        .allSatisfy(t -> assertThat(t.spec().policy()).isEqualTo(SchedPolicy.IDLE));
  }

  @Test
  void result_fixedWakeDelay_isTheWakeupLatencyAtEveryPercentile() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t").wakeLatencyNs(5_000);
    WorkloadResult result =
        machine.run(
            provider,
            Map.of(
                "message_threads", "1", "workers", "2", "sleep", "100us", "request_work", "100us"),
            21_000_000);

    assertThat(result.metric()).isEqualTo("p99_wakeup_latency");
    assertThat(result.unit()).isEqualTo("us");
    assertThat(result.higherIsBetter()).isFalse();
    assertThat(result.value()).isCloseTo(5.0, within(0.01));
    assertThat(result.extra().get("wakeup_p50_us")).isCloseTo(5.0, within(0.01));
    assertThat(result.extra().get("wakeup_p999_us")).isCloseTo(5.0, within(0.01));
    assertThat(result.extra().get("request_p99_us")).isCloseTo(200.0, within(0.2));
  }

  @Test
  void result_cycleOf210us_requestsPerSecondFollowsTheCycle() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t").wakeLatencyNs(5_000);
    WorkloadResult result =
        machine.run(provider, Map.of("message_threads", "1", "workers", "2"), 21_000_000);

    // Post, 5 µs to the message thread, 5 µs to the worker, 100 µs sleep, 100 µs work.
    assertThat(result.extra().get("requests_per_s")).isCloseTo(200 / 0.021, within(1e-6));
  }

  @Test
  void result_warmup_dropsEarlierSamples() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t").wakeLatencyNs(5_000);
    WorkloadResult result =
        machine.run(
            provider,
            Map.of("message_threads", "1", "workers", "2", "warmup", "10.5ms"),
            21_000_000);

    // Requests end every 210 µs per worker; 51 per worker end at or after 10.5 ms.
    assertThat(result.extra().get("requests_per_s")).isCloseTo(102 / 0.0105, within(1e-6));
  }
}
