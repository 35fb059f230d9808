package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.WorkloadResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code wl.gemm}: one thread per SMT core of node 0 by default, pinned in spread order or confined
 * to the affinity list; the barrier releases exactly when the last thread arrives, threads spin
 * then sleep; the FLOP/s metric is completed chunks × chunk × clock × FLOP/cycle over simulated
 * time.
 */
final class GemmWorkloadProviderTest {

  private static final long MS = 1_000_000;
  private final GemmWorkloadProvider provider = new GemmWorkloadProvider();

  /** Parameters of the earlier barrier model, {@code wait=barrier}, plus {@code keyValues}. */
  private static Map<String, String> barrier(String... keyValues) {
    Map<String, String> p = new java.util.HashMap<>(Map.of("wait", "barrier"));
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  @Test
  void start_defaults_oneConfinedThreadPerCoreOfFirstNode() {
    IdealMachine machine = IdealMachine.shape("2n1l4c2t");
    machine.start(provider, Map.of());

    String node0 = machine.topology().nodeMask(0).toCpuList();
    assertThat(machine.tasks()).hasSize(4);
    assertThat(machine.tasks())
        .allSatisfy(t -> assertThat(t.spec().allowedCpus().toCpuList()).isEqualTo(node0));
  }

  @Test
  void start_pinned_bindsThreadsToCoresBeforeSiblings() {
    IdealMachine machine = IdealMachine.shape("1n1l4c2t");
    machine.start(provider, Map.of("threads", "6", "placement", "pinned", "affinity", "0-7"));

    assertThat(machine.tasks())
        .extracting(t -> t.spec().allowedCpus().toCpuList())
        .containsExactly("0", "1", "2", "3", "4", "5");
    assertThat(machine.tasks())
        .extracting(IdealMachine.Task::parentCpu)
        .containsExactly(0, 1, 2, 3, 4, 5);
  }

  @Test
  void create_affinityWithoutOnlineCpu_isRejectedNamingTheParameter() {
    IdealMachine machine = IdealMachine.shape("1n1l4c2t");

    assertThatThrownBy(() -> machine.start(provider, Map.of("affinity", "64")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wl.gemm: affinity=64");
  }

  @Test
  void barrier_slowThreadArrivesLast_releasesEveryoneAtItsArrival() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(provider, barrier("threads", "3", "chunk", "1ms", "spin", "0"));
    machine.setSpeed(2, 0.5);
    machine.runUntil(2 * MS);

    // Threads 0 and 1 sleep at 1 ms; thread 2 arrives at 2 ms and wakes them.
    assertThat(machine.steps(0, "block"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(1 * MS);
    assertThat(machine.steps(2, "wake"))
        .extracting(IdealMachine.Step::amount)
        .containsExactly(0.0, 1.0);
    assertThat(machine.steps(0, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(0L, 2 * MS);
    assertThat(machine.steps(1, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(0L, 2 * MS);
    assertThat(machine.steps(2, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(0L, 2 * MS);
  }

  @Test
  void barrier_wakeTree_releaserWakesTheFirstSleepersAndEachWokenOneItsChildren() {
    IdealMachine machine = IdealMachine.shape("1n1l8c1t");
    machine.start(
        provider, barrier("threads", "7", "chunk", "1ms", "spin", "0", "wake_fanout", "2"));
    machine.setSpeed(6, 0.5);
    machine.runUntil(2 * MS + 1);

    // Threads 0-5 sleep at 1 ms in that order; thread 6 arrives at 2 ms. A binary wake tree over
    // the sleepers in arrival order: 6 wakes 0 and 1, 0 wakes 2 and 3, 1 wakes 4 and 5.
    assertThat(wokenBy(machine, 6)).containsExactly(0.0, 1.0);
    assertThat(wokenBy(machine, 0)).containsExactly(2.0, 3.0);
    assertThat(wokenBy(machine, 1)).containsExactly(4.0, 5.0);
    for (int leaf = 2; leaf < 6; leaf++) {
      assertThat(wokenBy(machine, leaf)).isEmpty();
    }
  }

  @Test
  void barrier_noWakeTree_lastArriverWakesEverySleeper() {
    IdealMachine machine = IdealMachine.shape("1n1l8c1t");
    machine.start(provider, barrier("threads", "7", "chunk", "1ms", "spin", "0"));
    machine.setSpeed(6, 0.5);
    machine.runUntil(2 * MS + 1);

    assertThat(wokenBy(machine, 6)).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0);
    assertThat(wokenBy(machine, 0)).isEmpty();
  }

  /** The tasks {@code waker} woke up to now, in order (the thread indices are the task ids). */
  private static java.util.List<Double> wokenBy(IdealMachine machine, int waker) {
    return machine.steps(waker, "wake").stream().map(IdealMachine.Step::amount).toList();
  }

  @Test
  void barrier_waitLongerThanSpin_spinsOnceThenSleeps() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    var workload =
        machine.start(provider, barrier("threads", "2", "chunk", "1ms", "spin", "100us"));
    machine.setSpeed(1, 0.5);
    machine.runUntil(2 * MS);

    // One 100 µs spin from 1 ms, then sleep at 1.1 ms until the release at 2 ms.
    assertThat(machine.steps(0, "spin"))
        .extracting(IdealMachine.Step::timeNs, IdealMachine.Step::amount)
        .containsExactly(tuple(1 * MS, 100_000.0));
    assertThat(machine.steps(0, "run"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(0L, 2 * MS);
    assertThat(machine.steps(0, "block"))
        .extracting(IdealMachine.Step::timeNs)
        .containsExactly(1_100_000L);
    WorkloadResult result = workload.result(2 * MS);
    assertThat(result.extra().get("barrier_sleep_fraction")).isEqualTo(0.5);
    // Waits: thread 0 waited 1 ms, thread 1 (last) none.
    assertThat(result.extra().get("barrier_wait_mean_us")).isEqualTo(500.0);
  }

  @Test
  void barrier_waitShorterThanSpin_leavesAtTheReleaseWithoutSleeping() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t").wakeLatencyNs(100);
    var workload = machine.start(provider, barrier("threads", "2", "chunk", "1ms", "spin", "2ms"));
    machine.setSpeed(1, 0.41);
    machine.runUntil(3 * MS);

    // One 2 ms spin from 1 ms; the release at 2.439024 ms ends it 100 ns later.
    assertThat(machine.steps(0, "block")).isEmpty();
    assertThat(machine.steps(0, "spin")).extracting(IdealMachine.Step::amount).containsExactly(2e6);
    assertThat(machine.steps(0, "run").get(1).timeNs()).isEqualTo(2_439_124L);
    assertThat(machine.steps(0, "run").get(1).amount()).isEqualTo(1e6);
    WorkloadResult result = workload.result(3 * MS);
    assertThat(result.extra().get("barrier_sleep_fraction")).isZero();
    assertThat(result.extra().get("iterations")).isEqualTo(1.0);
  }

  @Test
  void result_equalThreads_flopsAreChunksTimesChunkTimesClockTimesFlopPerCycle() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider, barrier("threads", "4", "chunk", "1ms", "affinity", "0-3"), 10_500_000);

    // Chunks end at 1, 2, ..., 10 ms: 40 chunks of 1e6 cycles at 16 FLOP/cycle in 10.5 ms.
    double expected = 40 * 1e6 * (2.0e9 / 1e9) * 16 / 0.0105;
    assertThat(result.metric()).isEqualTo("throughput");
    assertThat(result.unit()).isEqualTo("FLOP/s");
    assertThat(result.higherIsBetter()).isTrue();
    assertThat(result.value()).isCloseTo(expected, within(1e-6 * expected));
    assertThat(result.extra()).containsEntry("iterations", 10.0).containsEntry("chunks", 40.0);
  }

  @Test
  void split_movesFactorsOfTwoToNWhileMHalfExceedsN_oddCountsStayOnM() {
    assertThat(OpenBlasGemm.split(88)).containsExactly(11, 8);
    assertThat(OpenBlasGemm.split(87)).containsExactly(87, 1);
    assertThat(OpenBlasGemm.split(64)).containsExactly(8, 8);
    assertThat(OpenBlasGemm.split(1)).containsExactly(1, 1);
    for (int t = 1; t <= 400; t++) {
      int[] g = OpenBlasGemm.split(t);
      assertThat(g[0] * g[1]).as("grid of %d threads", t).isEqualTo(t);
      assertThat(g[0] % 2 == 0 && g[0] / 2 > g[1]).as("split of %d stopped early", t).isFalse();
    }
  }

  @Test
  void openblas_spin_panelWaitsForItsSlowestThreadOnly_noThreadEverBlocks() {
    // 4 threads: a 2 x 2 grid; panel 0 = threads 0, 1; panel 1 = threads 2, 3.
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    machine.start(
        provider,
        Map.of(
            "threads", "4", "affinity", "0-3", "m", "2000", "n", "2000", "k", "4", "gemm_q", "1"));
    machine.setSpeed(1, 0.5);
    machine.runUntil(1 * MS);

    // Each k-step is 2 x 1000 x 1000 FLOP = 62.5 us of work at 32 FLOP/ns; thread 1 takes 125 us,
    // so the team's first call ends when thread 1 finishes its 4th k-step, at 500 us.
    assertThat(machine.steps(0, "block")).isEmpty();
    assertThat(machine.steps(0, "spin")).isNotEmpty();
    long panel0 = machine.steps(0, "run").get(1).timeNs();
    long panel1 = machine.steps(2, "run").get(1).timeNs();
    assertThat(panel0).as("panel 0 waits for its slow thread").isGreaterThan(panel1);
    assertThat(machine.steps(2, "run").get(4).timeNs())
        .as("panel 1 waits at the call end for the slowest thread of the team")
        .isGreaterThanOrEqualTo(500_000L);
  }

  @Test
  void openblas_criticalPath_isEachPanelStepsLastThread_itsLostWorkOverThePanelsStepTime() {
    // 2 x 2 grid; thread 1 runs at half speed, losing half of each run (IdealMachine's rule).
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    var workload =
        machine.start(
            provider,
            Map.of(
                "threads",
                "4",
                "affinity",
                "0-3",
                "m",
                "2000",
                "n",
                "2000",
                "k",
                "4",
                "gemm_q",
                "1"));
    machine.setSpeed(1, 0.5);
    machine.runUntil(1 * MS);

    // Panel 0's k-steps wait for thread 1: 125 us each, of which it lost 62.5 us, and each call
    // waits for panel 0; panel 1's last threads lose nothing in their 62.5 us k-steps.
    WorkloadResult result = workload.result(1 * MS);
    double calls = result.extra().get("calls");
    assertThat(calls).isEqualTo(2.0);
    assertThat(result.extra().get("critical_path_by_calls")).isEqualTo(1.0);
    double steps = 4 * calls;
    double lost = steps * 62_500;
    double callTime = steps * 125_000;
    assertThat(result.extra().get("critical_path_ms")).isCloseTo(callTime / 1e6, within(1e-3));
    assertThat(result.extra().get("critical_lost_sibling_task_pct"))
        .isCloseTo(100 * lost / callTime, within(0.5));
    // Over every panel's k-steps the same loss is diluted by panel 1's.
    assertThat(result.extra().get("panel_lost_pct"))
        .isCloseTo(100 * lost / (callTime + steps * 62_500), within(0.5));
    assertThat(result.extra().get("critical_lost_sibling_ilb_pct")).isZero();
    assertThat(result.extra().get("critical_lost_pct"))
        .isEqualTo(result.extra().get("critical_lost_sibling_task_pct"));
  }

  @Test
  void openblas_openmp_callEndSpinsThenSleeps_kStepsNeverSleep() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    var workload =
        machine.start(
            provider,
            Map.of(
                "threads",
                "4",
                "affinity",
                "0-3",
                "m",
                "1000",
                "n",
                "1000",
                "k",
                "200",
                "gemm_q",
                "100",
                "wait",
                "openmp",
                "gomp_spin",
                "10us"));
    machine.setSpeed(1, 0.5);
    machine.runUntil(20 * MS);

    // A 2 x 2 grid: panel 0 (threads 0, 1) is held back by thread 1 at each k-step and spins;
    // panel 1 (threads 2, 3) finishes each call first, spins 10 us, then sleeps until the call
    // ends. K-steps of 1.5625 ms (3.125 ms for thread 1): calls end at 6.25, 12.5, 18.75 ms.
    WorkloadResult result = workload.result(20 * MS);
    assertThat(result.extra()).containsEntry("nthreads_m", 2.0).containsEntry("k_steps", 2.0);
    double calls = result.extra().get("calls");
    assertThat(calls).isPositive();
    assertThat(machine.steps(0, "block")).isEmpty();
    assertThat(machine.steps(1, "block")).isEmpty();
    assertThat(machine.steps(2, "block")).hasSize((int) calls);
    assertThat(machine.steps(2, "spin")).extracting(IdealMachine.Step::amount).contains(10_000.0);
    assertThat(result.extra().get("call_end_sleeps")).isEqualTo(2 * calls);
  }

  @Test
  void openblas_result_flopsAreTheCompletedKStepsOverTime() {
    IdealMachine machine = IdealMachine.shape("1n1l4c1t");
    WorkloadResult result =
        machine.run(
            provider,
            Map.of(
                "threads",
                "4",
                "affinity",
                "0-3",
                "m",
                "1000",
                "n",
                "1000",
                "k",
                "1000",
                "gemm_q",
                "100"),
            10_500_000);

    // 4 threads: 2 x 2 blocks of 500 x 500, 10 k-steps of 2*500*500*100 FLOP = 50 MFLOP each,
    // 1.5625 ms at 32 FLOP/ns: 6 completed k-steps per thread in 10.5 ms.
    double expected = 4 * 6 * 50e6 / 0.0105;
    assertThat(result.value()).isCloseTo(expected, within(1e-6 * expected));
  }
}
