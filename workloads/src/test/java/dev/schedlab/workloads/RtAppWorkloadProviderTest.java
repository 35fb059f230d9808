package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code wl.rtapp} execution: loops of run and sleep, timers that sleep to the period's end or,
 * when late, restart from now (relative) or keep their schedule (absolute), barriers that release
 * when the last user arrives, runtime busy until wall time passes, global duration, and task specs
 * from policy, nice and cpus; loops/s is passes over the event list per simulated second.
 */
final class RtAppWorkloadProviderTest {

  private static final long US = 1_000;

  @TempDir Path directory;

  private final IdealMachine machine = IdealMachine.shape("1n1l4c2t");

  private WorkloadResult run(String json, long endNs) {
    Workload workload = RtAppWorkloadProvider.create(json, "test.json", machine.topology());
    machine.start(workload);
    machine.runUntil(endNs);
    return workload.result(endNs);
  }

  @Test
  void run_runAndSleep_loopsPerSecondIsPassesOverTime() {
    WorkloadResult result = run("{\"tasks\": {\"t\": {\"run\": 1, \"sleep\": 9}}}", 1_000 * US);

    assertThat(result.metric()).isEqualTo("throughput");
    assertThat(result.unit()).isEqualTo("loops/s");
    assertThat(result.extra().get("loops")).isEqualTo(100.0);
    assertThat(result.value()).isCloseTo(100 / 0.001, within(1e-6));
  }

  @Test
  void run_timerWithSlack_sleepsToTheEndOfEachPeriod() {
    WorkloadResult result =
        run(
            "{\"tasks\": {\"t\": {\"run\": 3, \"timer\": {\"ref\": \"unique\", \"period\": 10}}}}",
            95 * US);

    assertThat(machine.steps(0, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(
            0L, 10 * US, 20 * US, 30 * US, 40 * US, 50 * US, 60 * US, 70 * US, 80 * US, 90 * US);
    assertThat(result.extra().get("timer_slack_mean_us")).isEqualTo(7.0);
    assertThat(result.extra().get("timer_late_fraction")).isZero();
  }

  @Test
  void run_lateRelativeTimer_restartsFromNow() {
    WorkloadResult result =
        run(
            "{\"tasks\": {\"t\": {\"run\": 15, \"timer\": {\"ref\": \"unique\", \"period\": 10}}}}",
            45 * US);

    // Reached at 15, 30, 45 µs with period ends 10, 25, 40: always 5 µs late.
    assertThat(result.extra().get("timer_late_fraction")).isEqualTo(1.0);
    assertThat(result.extra().get("timer_slack_mean_us")).isEqualTo(-5.0);
  }

  @Test
  void run_lateAbsoluteTimer_keepsItsSchedule() {
    WorkloadResult result =
        run(
            "{\"tasks\": {\"t\": {\"run\": 15, \"timer\": {\"ref\": \"unique\", \"period\": 10,"
                + " \"mode\": \"absolute\"}}}}",
            45 * US);

    // Reached at 15, 30, 45 µs with period ends 10, 20, 30: 5, 10, 15 µs late.
    assertThat(result.extra().get("timer_slack_mean_us")).isEqualTo(-10.0);
  }

  @Test
  void run_barrier_fastTaskWaitsForTheSlowOneEveryLoop() {
    WorkloadResult result =
        run(
            "{\"tasks\": {\"fast\": {\"run\": 1, \"barrier\": \"b\"},"
                + " \"slow\": {\"run\": 3, \"barrier\": \"b\"}}}",
            30 * US);

    assertThat(machine.steps(0, "block"))
        .extracting(IdealMachine.Step::timeNs)
        .startsWith(1 * US, 4 * US, 7 * US);
    assertThat(machine.steps(0, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .startsWith(0L, 3 * US, 6 * US, 9 * US);
    assertThat(result.extra().get("loops")).isEqualTo(20.0);
  }

  @Test
  void run_runtime_staysBusyInSlicesUntilWallTimeHasPassed() {
    run("{\"tasks\": {\"t\": {\"runtime\": 120, \"sleep\": 10}}}", 125 * US);

    assertThat(machine.steps(0, "run"))
        .extracting(IdealMachine.Step::amount)
        .containsExactly(50_000.0, 50_000.0, 20_000.0);
    assertThat(machine.steps(0, "sleep"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(120 * US);
  }

  @Test
  void run_globalDuration_tasksExitAfterIt() {
    run(
        "{\"tasks\": {\"t\": {\"run\": 100000, \"sleep\": 100000}},"
            + " \"global\": {\"duration\": 1}}",
        2_000_000 * US);

    assertThat(machine.task(0).state()).isEqualTo(IdealMachine.State.EXITED);
    assertThat(machine.task(0).exitNs()).isEqualTo(1_000_000 * US);
  }

  @Test
  void run_finiteLoops_taskExitsAfterItsPasses() {
    WorkloadResult result =
        run(
            "{\"tasks\": {\"t\": {\"loop\": 2, \"phases\": {\"a\": {\"loop\": 3, \"run\": 1},"
                + " \"b\": {\"sleep\": 5}}}}}",
            1_000 * US);

    assertThat(result.extra().get("loops")).isEqualTo(8.0);
    assertThat(machine.task(0).exitNs()).isEqualTo(16 * US);
  }

  @Test
  void start_instancesPolicyNiceCpusAndDelay_shapeTheTasks() {
    run(
        "{\"tasks\": {\"w\": {\"instance\": 2, \"policy\": \"SCHED_IDLE\", \"priority\": 10,"
            + " \"cpus\": [2, 3], \"delay\": 50, \"run\": 10}}}",
        55 * US);

    assertThat(machine.tasks()).extracting(t -> t.spec().name()).containsExactly("w-0", "w-1");
    assertThat(machine.tasks())
        .allSatisfy(
            t -> {
              assertThat(t.spec().policy()).isEqualTo(SchedPolicy.IDLE);
              assertThat(t.spec().nice()).isEqualTo(10);
              assertThat(t.spec().allowedCpus().toCpuList()).isEqualTo("2-3");
              assertThat(t.parentCpu()).isEqualTo(2);
            });
    assertThat(machine.steps(0, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(50 * US);
  }

  @Test
  void create_fileParameter_readsTheFile() throws IOException {
    Path file = directory.resolve("a.json");
    Files.writeString(file, "{\"tasks\": {\"t\": {\"run\": 1, \"sleep\": 9}}}");
    WorkloadResult result =
        machine.run(new RtAppWorkloadProvider(), Map.of("file", file.toString()), 1_000 * US);

    assertThat(result.extra().get("loops")).isEqualTo(100.0);
  }

  @Test
  void create_missingFile_isRejectedNamingIt() {
    assertThatThrownBy(
            () ->
                machine.start(
                    new RtAppWorkloadProvider(),
                    Map.of("file", directory.resolve("no.json").toString())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wl.rtapp: cannot read file=")
        .hasMessageContaining("no.json: no such file or directory")
        .hasMessageNotContaining("Exception");
  }

  @Test
  void create_directoryOrBinaryFile_plainWords() throws Exception {
    assertThatThrownBy(
            () -> machine.start(new RtAppWorkloadProvider(), Map.of("file", directory.toString())))
        .hasMessageEndingWith(": is a directory");
    Path binary = Files.write(directory.resolve("bin.json"), new byte[] {'{', (byte) 0xff, '}'});
    assertThatThrownBy(
            () -> machine.start(new RtAppWorkloadProvider(), Map.of("file", binary.toString())))
        .hasMessageEndingWith("bin.json: not UTF-8 text");
  }

  @Test
  void create_endlessDevice_isRefusedBySize() {
    assertThatThrownBy(
            () -> machine.start(new RtAppWorkloadProvider(), Map.of("file", "/dev/zero")))
        .hasMessage(
            "wl.rtapp: file=/dev/zero is larger than 16 MiB; rt-app descriptions are a"
                + " few KiB");
  }

  @Test
  void create_noFile_isRejectedAsRequired() {
    assertThatThrownBy(() -> machine.start(new RtAppWorkloadProvider(), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("parameter file is required");
  }

  @Test
  void create_unsupportedEvent_messageNamesWorkloadAndFile() {
    assertThatThrownBy(
            () ->
                RtAppWorkloadProvider.create(
                    "{\"tasks\": {\"t\": {\"mem\": 10}}}", "x.json", machine.topology()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("wl.rtapp: x.json: task \"t\": unsupported key \"mem\"");
  }
}
