package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Claim 3's STREAM run as the thread ran it (docs/reproductions.md, section 3, "STREAM as the
 * thread ran it"): 384 OpenMP threads, STREAM's program with NTIMES = 10 ({@code wl.stream -W
 * ntimes=10}: the master creates the team one {@code pthread_create()} after another, the threads
 * wait at the team barrier, the init loop first-touches the arrays) on {@code hw.hygon-7447v} (a
 * node per die), with the model's default barrier spin of 50 µs. This holds the model to the
 * mechanism it shows there, not to the thread's figure, and not for other spins (the sign turns at
 * 0.2-1 ms; see the docs):
 *
 * <ul>
 *   <li>under {@code mainline-7.3} the fork path piles threads onto the CPUs where the previous
 *       ones fell asleep, and the surplus is pulled across dies (nodes) after the first touch:
 *       memory-bound time away from the home node exceeds time at home (measured on the 2026-11-30
 *       tree: 22.4 s against 6.9 s);
 *   <li>under {@code smt-buddy-assist} the burst-wakeup part redirects forks and wakeups that would
 *       land on a CPU with 4 runnable tasks (266 redirects measured): remote time stays below a
 *       tenth of home time (measured 0.04 s against 7.5 s);
 *   <li>so the team finishes its 10 iterations sooner and STREAM's best rate is higher under
 *       buddy-assist (measured 48.7 against 138.9 GB/s). The margin is only the direction: the
 *       baseline is paced by threads running at most at 10/16 of their speed (remote memory at SLIT
 *       distance 16 or more), which a run without remote threads does not have, but how much
 *       stacking each variant keeps is not bounded by the model.
 * </ul>
 *
 * Both runs have the invariant checker on (failsafe sets {@code schedlab.invariants}), which checks
 * at every sweep that exactly the running tasks doing memory-bound work (not spinning) load their
 * nodes.
 */
final class StreamTeamStartIT {

  private static final long MS = 1_000_000;
  private static final Map<String, String> STREAM = Map.of("threads", "384", "ntimes", "10");

  @Test
  void hygon_streamProgram_burstWakeupsAvoidThePileUpAndItsRemotePages() {
    assertThat(Boolean.getBoolean("schedlab.invariants")).isTrue();
    HardwareModel hygon = Scenarios.machine("hw.hygon-7447v", Map.of(), "");
    SimulationResult off = run(hygon, "mainline-7.3");
    SimulationResult buddy = run(hygon, "smt-buddy-assist");

    assertThat(off.workload().extra().get("completed_iterations")).isEqualTo(10.0);
    assertThat(buddy.workload().extra().get("completed_iterations")).isEqualTo(10.0);

    assertThat(remoteUs(off)).isGreaterThan(homeUs(off));
    assertThat(buddy.pluginCounters().get("ext.wake.burst-threshold.redirects")).isPositive();
    assertThat(remoteUs(buddy) * 10).isLessThan(homeUs(buddy));

    assertThat(buddy.workload().extra().get("stream_done_ms"))
        .isLessThan(off.workload().extra().get("stream_done_ms"));
    assertThat(buddy.workload().value()).isGreaterThan(off.workload().value());
  }

  /**
   * The same program at libgomp's nominal 3 ms spin on the plausible C86-4G m7 layout (a node per
   * socket, 8 L3s per socket), seed 1 (seven of eight seeds have buddy-assist ahead there, seed 7
   * not; the docs list them). The mechanism held here: the threads spin through their barrier
   * waits, so no CPU goes newly idle, and the threads the team start stacked stay stacked beside
   * idle CPUs, since SMT- and L3-level balancing of the idle CPUs finds nothing to move and the
   * socket-level pass comes every few hundred ms, longer than the run: the baseline's wasted core
   * exceeds 100 ms (a stacked thread beside an idle CPU for a third of the 0.3 s run; 570 ms
   * measured) with fewer than 20 balancing migrations (3 measured). Buddy-assist's SMT push moves
   * stacked threads onto idle siblings at a periodic pass (11 pushes measured), so wasted core
   * falls (364 ms measured) and the best rate rises (measured 66.7 against 103.2 GB/s since wakeup
   * preemption keeps RUN_TO_PARITY's protection, 76.5 before); the margin is the direction.
   */
  @Test
  void hygon_perSocketLayout_libgompSpin_smtPushUnstacksSpinningThreads() {
    HardwareModel hygon =
        Scenarios.machine(
            "hw.hygon-7447v", Map.of("numa", "per-socket", "dies_per_socket", "8"), "");
    Map<String, String> stream = Map.of("threads", "384", "ntimes", "10", "spin", "3ms");
    SimulationResult off =
        Scenarios.run(
            hygon,
            "wl.stream",
            stream,
            Scenarios.profile("mainline-7.3"),
            300 * MS,
            1,
            SimulationListener.NONE);
    SimulationResult buddy =
        Scenarios.run(
            hygon,
            "wl.stream",
            stream,
            Scenarios.profile("smt-buddy-assist"),
            300 * MS,
            1,
            SimulationListener.NONE);

    assertThat(off.wastedCoreNs()).isGreaterThan(100 * MS);
    long migrations = java.util.Arrays.stream(off.migrationsPerLevel()).sum();
    assertThat(migrations).isLessThan(20);
    assertThat(buddy.pluginCounters().get("ext.smt-buddy.push.pushes")).isPositive();
    assertThat(buddy.wastedCoreNs()).isLessThan(off.wastedCoreNs());
    assertThat(buddy.workload().value()).isGreaterThan(off.workload().value());
  }

  /**
   * The same case on seeds 2-4, paired: on each, the baseline keeps stacked spinning threads for
   * the run (the precondition of the seed-1 test: wasted core above 100 ms with fewer than 20
   * balancing migrations; measured 445-523 ms and 3-4), buddy-assist pushes (7-13 pushes), and its
   * best rate is higher (measured +10, +59 and +40 %; seed 1 +55 %). Seed 7 is the one of seeds 1-8
   * that goes the other way (−5.3 %): its baseline start left no thread stacked for the run (131.7
   * GB/s), so the precondition is what the direction rests on, and this test checks it on every
   * seed it uses. The margin is the direction.
   */
  @Test
  void hygon_perSocketLayout_libgompSpin_seedsTwoToFour_stackedBaselineLosesToThePush() {
    HardwareModel hygon =
        Scenarios.machine(
            "hw.hygon-7447v", Map.of("numa", "per-socket", "dies_per_socket", "8"), "");
    Map<String, String> stream = Map.of("threads", "384", "ntimes", "10", "spin", "3ms");
    for (long seed = 2; seed <= 4; seed++) {
      SimulationResult off =
          Scenarios.run(
              hygon,
              "wl.stream",
              stream,
              Scenarios.profile("mainline-7.3"),
              300 * MS,
              seed,
              SimulationListener.NONE);
      SimulationResult buddy =
          Scenarios.run(
              hygon,
              "wl.stream",
              stream,
              Scenarios.profile("smt-buddy-assist"),
              300 * MS,
              seed,
              SimulationListener.NONE);

      assertThat(off.wastedCoreNs()).as("seed %d", seed).isGreaterThan(100 * MS);
      assertThat(java.util.Arrays.stream(off.migrationsPerLevel()).sum())
          .as("seed %d", seed)
          .isLessThan(20);
      assertThat(buddy.pluginCounters().get("ext.smt-buddy.push.pushes"))
          .as("seed %d", seed)
          .isPositive();
      assertThat(buddy.workload().value())
          .as("seed %d", seed)
          .isGreaterThan(off.workload().value());
    }
  }

  private static SimulationResult run(HardwareModel hygon, String profile) {
    return Scenarios.run(
        hygon,
        "wl.stream",
        STREAM,
        Scenarios.profile(profile),
        250 * MS,
        1,
        SimulationListener.NONE);
  }

  private static long remoteUs(SimulationResult result) {
    return result.pluginCounters().getOrDefault("engine.memory_remote_us", 0L);
  }

  private static long homeUs(SimulationResult result) {
    return result.pluginCounters().get("engine.memory_home_us");
  }
}
