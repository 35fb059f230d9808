package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code wl.tbench}: each client and its server take turns, a round trip is the client's work plus
 * the server's, each turn ends with one synchronous wakeup of the peer, and round trips sent before
 * the warm-up are not counted.
 */
final class TbenchWorkloadProviderTest {

  private final TbenchWorkloadProvider provider = new TbenchWorkloadProvider();

  @Test
  void run_onePair_aRoundTripIsClientWorkPlusServerWork() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(provider, Map.of("client_work", "10us", "server_work", "5us"), 997_000);

    // Requests leave at 10, 25, 40, ... µs (every 15 µs); replies come 5 µs later, at 15 + 15k
    // µs: 66 of them by 997 µs (the last at 990 µs).
    assertThat(machine.tasks()).hasSize(2);
    assertThat(result.metric()).isEqualTo("throughput");
    assertThat(result.higherIsBetter()).isTrue();
    assertThat(result.extra()).containsEntry("round_trips", 66.0);
    assertThat(result.extra().get("round_trip_mean_us")).isCloseTo(5.0, within(1e-9));
    assertThat(result.value()).isCloseTo(66 / 997e-6, within(1e-6));
  }

  @Test
  void run_everyTurnEndsWithOneSyncWakeOfThePeer() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result = machine.run(provider, Map.of("clients", "3"), 1_000_000);

    // Three pairs, each with a round trip of 20 µs (replies at 20, 40, ..., 1000 µs): a wake per
    // request and one per reply.
    assertThat(machine.tasks()).hasSize(6);
    double roundTrips = result.extra().get("round_trips");
    assertThat(roundTrips).isEqualTo(3 * 50.0);
    long wakes = machine.trace().stream().filter(s -> s.kind().equals("wake")).count();
    assertThat(wakes).isEqualTo((long) (2 * roundTrips));
    assertThat(machine.syncWakes()).isEqualTo(wakes);
  }

  @Test
  void run_warmup_countsOnlyRoundTripsSentAfterIt() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result = machine.run(provider, Map.of("warmup", "500us"), 1_000_000);

    // Requests at 10 + 20k µs; those sent at 510..990 µs are answered by 1000 µs: 25 of them,
    // over the 500 µs after the warm-up.
    assertThat(result.extra()).containsEntry("round_trips", 25.0);
    assertThat(result.value()).isCloseTo(25 / 500e-6, within(1e-6));
  }
}
