package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.stats.PlacementPath;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.core.workload.BarrierWorkloadProvider;
import dev.schedlab.core.workload.CpuBoundWorkloadProvider;
import org.junit.jupiter.api.Test;

/**
 * Whole runs on a small 2-node SMT2 machine produce the statistics the kernel threads used, with
 * values the model implies: a CPU-bound task per CPU leaves nothing to balance or kick; a
 * thread-per-core barrier program makes wakeups cost exactly the IPI latency and makes busy CPUs
 * kick idle load balancers, which (first-idle rule, split numbering) are their SMT siblings.
 */
final class SimulationSmokeTest {

  private static final long DURATION = 200_000_000L;

  @Test
  void cpuBound_taskPerCpu_fullThroughputNoIlb() {
    var setup =
        TestMachines.setup(
            TestMachines.unit("2n1l4c2t"),
            PolicyBinding.withDefaults(new CpuBoundWorkloadProvider()),
            DURATION,
            1);
    SimulationResult result = new Simulation(setup).run();
    // 16 CPUs × 0.2 s, in 10 ms chunks of which the last is unfinished: 19 of 20 per task.
    assertThat(result.workload().extra().get("chunks")).isEqualTo(16 * 19.0);
    assertThat(result.ilb().ipis()).isZero();
    assertThat(result.wakeupLatency().count()).isZero();
    assertThat(result.smtContention()).isEqualTo(8);
    assertThat(result.smtNoContention()).isEqualTo(8);
    assertThat(result.wastedCoreNs()).isZero();
  }

  @Test
  void barrier_threadPerCore_wakeupsCostTheIpiAndSiblingsRunTheIlb() {
    var setup =
        TestMachines.setup(
            TestMachines.unit("2n1l4c2t"),
            PolicyBinding.withDefaults(new BarrierWorkloadProvider()),
            DURATION,
            1);
    SimulationResult result = new Simulation(setup).run();
    // 5 ms per iteration with 2 µs wakeups: ~39 iterations in 200 ms.
    assertThat(result.workload().extra().get("iterations")).isBetween(38.0, 40.0);
    assertThat(result.wakeupLatency().p50Ns()).isEqualTo(2_000);
    assertThat(result.wakeupLatency().maxNs()).isEqualTo(2_000);
    assertThat(result.ilb().runs()).isPositive();
    assertThat(result.ilb().choicesWithBusySibling()).isEqualTo(result.ilb().choices());
    // A kick's softirq runs only where a kick IPI arrived, at most once per IPI.
    assertThat(result.softirqsFromKick()).isPositive().isLessThanOrEqualTo(result.ilb().ipis());
    assertThat(result.schedstat().cpus()).hasSize(16);
    assertThat(result.schedstat().cpus().get(0).domains())
        .extracting("name")
        .containsExactly("SMT", "MC", "NUMA");
    // Every fork and wakeup is placed once, under one path: forks by the slow path, the
    // barrier's wakeups back onto their idle previous CPU (the target, since the waker's CPU is
    // busy and wake_affine_idle() keeps an idle prev).
    long wakeups =
        result.schedstat().cpus().stream().mapToLong(c -> c.counters().ttwuCount()).sum();
    assertThat(java.util.Arrays.stream(result.placementPaths()).sum())
        .isEqualTo(result.tasksCreated() + wakeups);
    assertThat(result.placements(PlacementPath.SLOW)).isEqualTo(result.tasksCreated());
    assertThat(result.placements(PlacementPath.TARGET_IDLE)).isEqualTo(wakeups);
  }
}
