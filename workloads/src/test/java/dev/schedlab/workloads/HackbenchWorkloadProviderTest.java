package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code wl.hackbench}: every receiver reads fds × loops messages and every sender writes as many;
 * a full buffer puts the writer to sleep until the reader makes room; completion time is the last
 * receiver's last read; a run that ends first reports messages/s instead.
 */
final class HackbenchWorkloadProviderTest {

  private final HackbenchWorkloadProvider provider = new HackbenchWorkloadProvider();

  @Test
  void run_twoGroups_everyMessageIsReadAndEveryTaskExits() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(provider, Map.of("groups", "2", "fds", "3", "loops", "5"), 1_000_000_000);

    // 2 groups × (3 senders + 3 receivers), and the parent of the start protocol.
    assertThat(machine.tasks()).hasSize(13);
    assertThat(machine.tasks())
        .allSatisfy(t -> assertThat(t.state()).isEqualTo(IdealMachine.State.EXITED));
    assertThat(result.metric()).isEqualTo("time");
    assertThat(result.higherIsBetter()).isFalse();
    assertThat(result.extra())
        .containsEntry("completed", 1.0)
        .containsEntry("messages", 90.0)
        .containsEntry("messages_total", 90.0);
  }

  @Test
  void run_onePair_timeIsTheLastWritePlusItsRead() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of(
                "groups",
                "1",
                "fds",
                "1",
                "loops",
                "10",
                "send_work",
                "3us",
                "receive_work",
                "2us"),
            1_000_000_000);

    // Writes end at 3, 6, ..., 30 µs; the last read takes 2 µs more.
    assertThat(result.value()).isCloseTo(32e-6, within(1e-15));
  }

  @Test
  void run_smallBuffer_writerSleepsUntilTheReaderMakesRoom() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of(
                "groups",
                "1",
                "fds",
                "1",
                "loops",
                "20",
                "datasize",
                "65536",
                "send_work",
                "1us",
                "receive_work",
                "10us"),
            1_000_000_000);

    // Three messages fit; the reader paces the run: read k ends at 1 + 10k µs.
    assertThat(result.extra().get("buffer_messages")).isEqualTo(3.0);
    assertThat(result.extra().get("writer_sleeps")).isGreaterThan(0.0);
    assertThat(result.extra().get("messages")).isEqualTo(20.0);
    assertThat(result.value()).isCloseTo(201e-6, within(1e-15));
  }

  @Test
  void run_startPipe_parentForksEveryTaskAndTheyAllFinish() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of("groups", "2", "fds", "3", "loops", "5", "start_pipe", "true"),
            1_000_000_000);

    // 12 children and the parent, which leaves once it has written the start byte.
    assertThat(machine.tasks()).hasSize(13);
    assertThat(machine.tasks())
        .allSatisfy(t -> assertThat(t.state()).isEqualTo(IdealMachine.State.EXITED));
    assertThat(result.extra()).containsEntry("completed", 1.0).containsEntry("messages", 90.0);
  }

  @Test
  void run_startPipe_clockStartsWithTheStartByte() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of(
                "groups",
                "1",
                "fds",
                "1",
                "loops",
                "10",
                "send_work",
                "3us",
                "receive_work",
                "2us",
                "start_pipe",
                "true"),
            1_000_000_000);

    // Both children wait for the start byte; from it, as without the protocol: 10 × 3 + 2 µs.
    assertThat(result.value()).isCloseTo(32e-6, within(1e-15));
  }

  @Test
  void capacity_pipeAndSocket_followTheStatedFormulas() {
    assertThat(HackbenchWorkloadProvider.capacity(true, 100)).isEqualTo(16 * 40);
    assertThat(HackbenchWorkloadProvider.capacity(false, 100)).isEqualTo(212_992 / 740);
    assertThat(HackbenchWorkloadProvider.capacity(true, 65_536)).isEqualTo(16);
  }

  @Test
  void result_runEndsFirst_reportsMessagesPerSecondAndNotCompleted() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of(
                "groups",
                "1",
                "fds",
                "1",
                "loops",
                "10",
                "send_work",
                "3us",
                "receive_work",
                "2us"),
            20_000);

    // Reads of the messages written at 3, 6, ..., 18 µs have ended by 20 µs: 6 messages.
    assertThat(result.metric()).isEqualTo("throughput");
    assertThat(result.unit()).isEqualTo("messages/s");
    assertThat(result.extra()).containsEntry("completed", 0.0).containsEntry("messages", 6.0);
    assertThat(result.value()).isCloseTo(6 / 20e-6, within(1e-6));
  }
}
