package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.WorkClass;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code wl.stream}: memory-bound threads run Copy, Scale, Add, Triad in turn, each thread's slice
 * taking elements × bytes per element / bytes_per_ns work units; GB/s is bytes of completed slices
 * over simulated ns, and the per-kernel rates divide a kernel's bytes by its phase time.
 */
final class StreamWorkloadProviderTest {

  /** Four threads of 1000 elements at 16 bytes/ns, sleeping at once at the barrier. */
  private static final Map<String, String> SMALL =
      Map.of("threads", "4", "array_elements", "4000", "bytes_per_ns", "16", "spin", "0");

  private final StreamWorkloadProvider provider = new StreamWorkloadProvider();

  @Test
  void start_defaults_oneMemoryBoundThreadPerCore() {
    IdealMachine machine = IdealMachine.shape("2n1l4c2t");
    machine.start(provider, Map.of());

    assertThat(machine.tasks()).hasSize(8);
    assertThat(machine.tasks())
        .allSatisfy(t -> assertThat(t.spec().workClass()).isEqualTo(WorkClass.MEMORY));
  }

  @Test
  void run_fourEqualThreads_slicesFollowTheKernelSizes() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(provider, SMALL);
    machine.runUntil(10_000);

    // 1000 elements per thread: Copy and Scale 1000 ns, Add and Triad 1500 ns.
    assertThat(machine.steps(0, "run"))
        .extracting(IdealMachine.Step::amount)
        .startsWith(1000.0, 1000.0, 1500.0, 1500.0, 1000.0);
  }

  @Test
  void result_twoIterations_gbsIsBytesOverSimulatedNs() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result = machine.run(provider, SMALL, 10_000);

    // Two iterations of 5000 ns move 2 × 4000 × (16 + 16 + 24 + 24) bytes.
    assertThat(result.metric()).isEqualTo("throughput");
    assertThat(result.unit()).isEqualTo("GB/s");
    assertThat(result.value()).isCloseTo(640_000 / 10_000.0, within(1e-9));
    assertThat(result.extra().get("iterations")).isEqualTo(2.0);
    assertThat(result.extra().get("copy_gbs")).isCloseTo(64.0, within(1e-9));
    assertThat(result.extra().get("triad_gbs")).isCloseTo(64.0, within(1e-9));
    assertThat(result.extra().get("peak_gbs")).isEqualTo(100.0);
  }

  @Test
  void start_noise_forksUnboundComputeTasksBesideTheTeam() {
    IdealMachine machine = IdealMachine.shape("2n1l4c2t");
    machine.start(provider, Map.of("threads", "4", "noise_tasks", "3"));

    assertThat(machine.tasks()).hasSize(7);
    assertThat(machine.tasks())
        .filteredOn(t -> t.spec().name().startsWith("noise/"))
        .hasSize(3)
        .allSatisfy(t -> assertThat(t.spec().workClass()).isEqualTo(WorkClass.COMPUTE));
  }

  /** {@link #SMALL} as STREAM's program: three iterations, 1 µs per pthread_create. */
  private static Map<String, String> program(int ntimes) {
    Map<String, String> p = new HashMap<>(SMALL);
    p.put("ntimes", Integer.toString(ntimes));
    p.put("create_cost", "1us");
    return p;
  }

  @Test
  void ntimes_theMasterCreatesTheTeamOneThreadAfterAnother() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(provider, program(3));
    machine.runUntil(2_500);

    // Thread 0 exists from the start; it spends create_cost before each pthread_create().
    assertThat(machine.tasks()).extracting(t -> t.spawnNs).containsExactly(0L, 1_000L, 2_000L);
    // The created threads wait at the team barrier: no chunk before the master arrives.
    assertThat(machine.steps(1, "run")).isEmpty();
    machine.runUntil(3_500);
    assertThat(machine.tasks())
        .extracting(t -> t.spawnNs)
        .containsExactly(0L, 1_000L, 2_000L, 3_000L);
    // The master arrives after its last pthread_create(): the init loop starts at 3 µs.
    assertThat(machine.steps(1, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(3_000L);
  }

  @Test
  void ntimes_runsStreamsProgramThenExits_reportingBestRates() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result = machine.run(provider, program(3), 100_000);

    // Team ready at 3 µs, init (24 B/element) 1.5 µs, timing pass 1 µs, then 3 iterations of
    // 1 + 1 + 1.5 + 1.5 µs: done at 20.5 µs. Every kernel moves 4000 elements at 64 GB/s.
    assertThat(result.metric()).isEqualTo("best rate");
    assertThat(result.unit()).isEqualTo("GB/s");
    assertThat(result.value()).isCloseTo(64.0, within(1e-9));
    assertThat(result.extra().get("best_copy_gbs")).isCloseTo(64.0, within(1e-9));
    assertThat(result.extra().get("avg_triad_gbs")).isCloseTo(64.0, within(1e-9));
    assertThat(result.extra().get("completed_iterations")).isEqualTo(3.0);
    assertThat(result.extra().get("stream_done_ms")).isCloseTo(0.0205, within(1e-12));
    assertThat(machine.tasks())
        .allSatisfy(t -> assertThat(t.state()).isEqualTo(IdealMachine.State.EXITED));
  }

  @Test
  void ntimes_bestRateIgnoresTheFirstIteration_asStreamDoes() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult unfinished = machine.run(provider, program(3), 9_500);

    // Only iteration 0 (5.5..10.5 µs) has started: no timed iteration yet.
    assertThat(unfinished.value()).isZero();
    assertThat(unfinished.extra().get("completed_iterations")).isEqualTo(0.0);
    assertThat(unfinished.extra().get("stream_done_ms")).isCloseTo(0.0095, within(1e-12));
  }

  @Test
  void ntimesOne_isRejectedWithTheAllowedValues() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    assertThatThrownBy(() -> machine.start(provider, Map.of("ntimes", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ntimes=1")
        .hasMessageContaining("0 (steady state) or 2..");
  }
}
