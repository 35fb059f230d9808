package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.SchedPolicy;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code wl.build}: make keeps exactly j jobs in flight until the last ones, forks them one
 * fork_work apart, draws job sizes from the seeded stream in fork order, applies policy and nice to
 * make and its jobs, and reports the wall time at which it reaped the last job. Pipelined jobs (the
 * default) run driver, then cc1 and as in parallel over a pipe that blocks a writer when full.
 */
final class BuildWorkloadProviderTest {

  private static final long MS = 1_000_000;
  private final BuildWorkloadProvider provider = new BuildWorkloadProvider();

  @Test
  void run_equalJobsFreeForks_keepsJInFlightAndFinishesInBatches() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of("j", "4", "jobs", "40", "job_sigma", "0", "fork_work", "0", "pipeline", "false"),
            1_000 * MS);

    assertThat(machine.maxAlive(spec -> spec.name().startsWith("cc/"))).isEqualTo(4);
    assertThat(result.metric()).isEqualTo("time");
    assertThat(result.value()).isCloseTo(0.200, within(1e-12));
    assertThat(result.extra().get("mean_jobs_in_flight")).isCloseTo(4.0, within(1e-12));
    assertThat(result.extra().get("jobs_done")).isEqualTo(40.0);
  }

  @Test
  void run_forkWork_forksOneJobPerForkWork() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(
        provider,
        Map.of("j", "3", "jobs", "9", "job_sigma", "0", "fork_work", "1ms", "pipeline", "false"));
    machine.runUntil(10 * MS);

    List<Long> forks =
        machine.tasks().stream()
            .filter(t -> t.spec().name().startsWith("cc/"))
            .map(t -> t.spawnNs)
            .toList();
    assertThat(forks).startsWith(0L, 1 * MS, 2 * MS);
    assertThat(machine.maxAlive(spec -> spec.name().startsWith("cc/"))).isEqualTo(3);
  }

  @Test
  void run_lognormalJobs_sameSeedSameJobsAndMedianNearTheParameter() {
    Map<String, String> overrides =
        Map.of("j", "8", "jobs", "2000", "fork_work", "0", "pipeline", "false");
    IdealMachine first = IdealMachine.shape("1n1l4c1t");
    first.run(provider, overrides, 100_000 * MS);
    IdealMachine second = IdealMachine.shape("1n1l4c1t");
    second.run(provider, overrides, 100_000 * MS);

    double[] works = jobWorks(first);
    assertThat(works).hasSize(2000).containsExactly(jobWorks(second));
    double[] sorted = works.clone();
    Arrays.sort(sorted);
    assertThat(sorted[1000]).isCloseTo(20e6, within(2e6));
  }

  @Test
  void start_idleNice19WithForegroundLoad_setsPoliciesAndDutyCycle() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(
        provider,
        Map.of(
            "policy",
            "idle",
            "nice",
            "19",
            "background_load",
            "2",
            "background_duty",
            "0.25",
            "background_period",
            "4ms",
            "pipeline",
            "false"));
    machine.runUntil(2 * MS);

    var make = machine.tasks().stream().filter(t -> t.spec().name().equals("make")).findFirst();
    assertThat(make)
        .hasValueSatisfying(
            t -> {
              assertThat(t.spec().policy()).isEqualTo(SchedPolicy.IDLE);
              assertThat(t.spec().nice()).isEqualTo(19);
            });
    assertThat(machine.tasks().stream().filter(t -> t.spec().name().startsWith("cc/")))
        .allSatisfy(t -> assertThat(t.spec().policy()).isEqualTo(SchedPolicy.IDLE));
    // Foreground: 1 ms busy, 3 ms asleep, SCHED_NORMAL.
    assertThat(machine.task(0).spec().policy()).isEqualTo(SchedPolicy.NORMAL);
    assertThat(machine.steps(0, "run")).extracting(IdealMachine.Step::amount).containsExactly(1e6);
    assertThat(machine.steps(0, "sleep"))
        .extracting(IdealMachine.Step::amount)
        .containsExactly(3e6);
  }

  @Test
  void result_runEndsFirst_reportsJobsPerSecondAndNotCompleted() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of("j", "4", "jobs", "40", "job_sigma", "0", "fork_work", "0", "pipeline", "false"),
            50 * MS);

    assertThat(result.metric()).isEqualTo("throughput");
    assertThat(result.extra()).containsEntry("completed", 0.0).containsEntry("jobs_done", 8.0);
    assertThat(result.value()).isCloseTo(8 / 0.050, within(1e-9));
  }

  @Test
  void run_pipelineAsKeepsUp_jobTakesDriverCc1AndLastPiece() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of("j", "1", "jobs", "1", "job_sigma", "0", "fork_work", "0"),
            1_000 * MS);

    // driver 100 us, cc1 20 ms (6 ms front end, then 64 pieces of 218.75 us, each one write),
    // as 31.25 us per write: as drains every write before the next, so each write wakes it.
    assertThat(result.metric()).isEqualTo("time");
    assertThat(result.value()).isCloseTo((0.1 + 20 + 2.0 / 64) / 1e3, within(1e-12));
    assertThat(result.extra())
        .containsEntry("as_sync_wakeups", 64.0)
        .containsEntry("cc1_full_pipe_blocks", 0.0);
    assertThat(machine.maxAlive(spec -> spec.name().startsWith("cc1/"))).isEqualTo(1);
    assertThat(machine.maxAlive(spec -> spec.name().startsWith("as/"))).isEqualTo(1);
  }

  @Test
  void run_pipelineSlowAssembler_fullPipeBlocksCompiler() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of("j", "1", "jobs", "1", "job_sigma", "0", "fork_work", "0", "as_share", "2"),
            1_000 * MS);

    // as needs 625 us per write against cc1's 218.75 us: once as has started (after the driver,
    // the front end and the first piece) it never waits, and the pipe of 16 writes fills.
    assertThat(result.value()).isCloseTo((0.1 + 6 + 14.0 / 64 + 40) / 1e3, within(1e-12));
    assertThat(result.extra().get("cc1_full_pipe_blocks")).isPositive();
    assertThat(result.extra()).containsEntry("as_sync_wakeups", 1.0);
  }

  private static double[] jobWorks(IdealMachine machine) {
    return machine.tasks().stream()
        .filter(t -> t.spec().name().startsWith("cc/"))
        .mapToDouble(t -> machine.steps(t.id, "run").get(0).amount())
        .toArray();
  }
}
