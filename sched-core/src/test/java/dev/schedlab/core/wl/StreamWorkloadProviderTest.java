package dev.schedlab.core.wl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.WorkClass;
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
}
