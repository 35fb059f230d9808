package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.workloads.BuildWorkloadProvider;
import dev.schedlab.workloads.GemmWorkloadProvider;
import dev.schedlab.workloads.HackbenchWorkloadProvider;
import dev.schedlab.workloads.InferenceWorkloadProvider;
import dev.schedlab.workloads.RtAppWorkloadProvider;
import dev.schedlab.workloads.SchbenchWorkloadProvider;
import dev.schedlab.workloads.StreamWorkloadProvider;
import dev.schedlab.workloads.trace.TraceWorkloadProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every workload runs through the real engine (default policies, invariant checks on) on a small
 * SMT machine, 1 node × 2 LLCs × 4 cores × 2 threads at unit speed, and reports a plausible metric:
 * a completion workload completes, a throughput workload makes progress.
 */
final class WorkloadEngineSmokeTest {

  private static final long MS = 1_000_000;

  @TempDir Path directory;

  @Test
  void gemm_2048Cubed_reachesNearTheIdealFlops() {
    WorkloadResult result =
        run(new GemmWorkloadProvider(), Map.of("m", "2048", "n", "2048", "k", "2048"), 200 * MS);

    // 8 threads on 8 cores at 1 work unit/ns, 3 GHz × 16 FLOP/cycle: at most 384 GFLOP/s. A
    // 4 x 2 grid of 512 x 1024 blocks: k-steps of about 11 ms, calls of about 45 ms.
    assertThat(result.value()).isBetween(0.5 * 384e9, 384e9);
  }

  @Test
  void hackbench_twoGroups_completes() {
    WorkloadResult result =
        run(new HackbenchWorkloadProvider(), Map.of("groups", "2", "loops", "20"), 500 * MS);

    assertThat(result.metric()).isEqualTo("time");
    assertThat(result.extra()).containsEntry("completed", 1.0);
  }

  @Test
  void schbench_defaults_recordsWakeupsAndRequests() {
    WorkloadResult result = run(new SchbenchWorkloadProvider(), Map.of(), 200 * MS);

    assertThat(result.extra().get("wakeups")).isGreaterThan(100.0);
    assertThat(result.extra().get("request_p50_us")).isGreaterThanOrEqualTo(200.0);
    // The metric is the wakeup p99, so it lies between that histogram's p50 and p99.9.
    assertThat(result.value())
        .isEqualTo(result.extra().get("wakeup_p99_us"))
        .isBetween(result.extra().get("wakeup_p50_us"), result.extra().get("wakeup_p999_us"));
  }

  @Test
  void stream_defaults_movesBytes() {
    WorkloadResult result =
        run(new StreamWorkloadProvider(), Map.of("array_elements", "1000000"), 200 * MS);

    assertThat(result.value()).isGreaterThan(0.0);
    assertThat(result.extra().get("iterations")).isGreaterThan(1.0);
  }

  @Test
  void build_idleWithForegroundLoad_completes() {
    WorkloadResult result =
        run(
            new BuildWorkloadProvider(),
            Map.of("jobs", "64", "policy", "idle", "nice", "19", "background_load", "4"),
            2_000 * MS);

    assertThat(result.metric()).isEqualTo("time");
    assertThat(result.extra()).containsEntry("completed", 1.0);
  }

  @Test
  void inference_withIdleBackground_producesTokens() {
    WorkloadResult result =
        run(new InferenceWorkloadProvider(), Map.of("background", "4"), 200 * MS);

    assertThat(result.value()).isGreaterThan(0.0);
    assertThat(result.extra().get("background_cpu_s")).isGreaterThan(0.0);
  }

  @Test
  void rtapp_periodicTasks_runTheirLoops() throws IOException {
    Path file = directory.resolve("periodic.json");
    Files.writeString(
        file,
        """
        {
          "tasks": {
            "periodic": { "instance": 4, "run": 2000,
                          "timer": { "ref": "unique", "period": 10000 } },
            "batch": { "instance": 2, "policy": "SCHED_BATCH", "run": 5000, "sleep": 1000 }
          },
          "global": { "duration": -1, "calibration": "CPU0" }
        }
        """);
    WorkloadResult result =
        run(new RtAppWorkloadProvider(), Map.of("file", file.toString()), 200 * MS);

    assertThat(result.extra().get("timer_periods")).isGreaterThan(70.0);
    assertThat(result.value()).isGreaterThan(0.0);
  }

  @Test
  void trace_forkWakeAndTimerSleep_replaysToTheEnd() throws IOException {
    Path file = directory.resolve("trace.txt");
    Files.writeString(
        file,
        """
          sh-10 [000] d..2. 1.000000: sched_process_fork: comm=sh pid=10 child_comm=sh child_pid=11
          sh-10 [000] d..2. 1.000001: sched_wakeup_new: comm=sh pid=11 prio=120 target_cpu=001
          <idle>-0 [001] d..2. 1.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 \
        prev_prio=120 prev_state=R ==> next_comm=sh next_pid=11 next_prio=120
          sh-11 [001] d..2. 1.002000: sched_switch: prev_comm=sh prev_pid=11 prev_prio=120 \
        prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          sh-10 [000] d..3. 1.003000: sched_waking: comm=sh pid=11 prio=120 target_cpu=001
          sh-10 [000] d..2. 1.003100: sched_switch: prev_comm=sh prev_pid=10 prev_prio=120 \
        prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0 [001] d..2. 1.003200: sched_switch: prev_comm=swapper/1 prev_pid=0 \
        prev_prio=120 prev_state=R ==> next_comm=sh next_pid=11 next_prio=120
          sh-11 [001] ..... 1.004000: sched_process_exit: comm=sh pid=11 prio=120
          sh-11 [001] d..2. 1.004100: sched_switch: prev_comm=sh prev_pid=11 prev_prio=120 \
        prev_state=Z ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0 [000] d.h2. 1.006000: sched_waking: comm=sh pid=10 prio=120 target_cpu=000
          <idle>-0 [000] d..2. 1.006010: sched_switch: prev_comm=swapper/0 prev_pid=0 \
        prev_prio=120 prev_state=R ==> next_comm=sh next_pid=10 next_prio=120
          sh-10 [000] d..2. 1.007000: sched_switch: prev_comm=sh prev_pid=10 prev_prio=120 \
        prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=120
        """);
    WorkloadResult result =
        run(new TraceWorkloadProvider(), Map.of("file", file.toString()), 50 * MS);

    // sh-10: 3 ms of work, the wake, 0.1 ms, a 2.9 ms timer sleep, 0.99 ms; the child's last
    // 0.9 ms of work waits for the wake. 6.99 ms and a few µs of engine latencies.
    assertThat(result.metric()).isEqualTo("time");
    assertThat(result.extra())
        .containsEntry("completed", 1.0)
        .containsEntry("edges", 1.0)
        .containsEntry("edge_wakes", 1.0)
        .containsEntry("forks", 1.0);
    assertThat(result.value()).isBetween(6.99e-3, 7.1e-3);
  }

  private static WorkloadResult run(
      WorkloadProvider provider, Map<String, String> overrides, long durationNs) {
    Topology topology = Shape.parse("1n2l4c2t").toTopology(SiblingNumbering.SPLIT);
    SimulationConfig config =
        SimulationConfig.builder(
                unitSpeed(topology),
                new PolicyBinding<>(provider, provider.descriptor().resolve(overrides)))
            .durationNs(durationNs)
            .seed(7)
            .build();
    return Simulations.run(config).workload();
  }

  private static HardwareModel unitSpeed(Topology topology) {
    MachineFacts facts = new MachineFacts(3.0e9, 16, 1.0e11, "unit-speed test machine");
    PerformanceModel model =
        new PerformanceModel() {
          @Override
          public double speed(int cpu, int taskId, PerfStateView state) {
            return topology.capacity(cpu) / 1024.0;
          }

          @Override
          public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
            return Long.MAX_VALUE;
          }
        };
    return new HardwareModel() {
      @Override
      public Topology topology() {
        return topology;
      }

      @Override
      public PerformanceModel performanceModel() {
        return model;
      }

      @Override
      public MachineFacts facts() {
        return facts;
      }
    };
  }
}
