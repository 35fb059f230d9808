package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The smt-buddy-assist profile (policies-ext) runs end to end on the Hygon-like machine with the
 * invariant checker on (failsafe sets schedlab.invariants), and its push fires when runqueues hold
 * two tasks next to idle siblings.
 */
final class SmtBuddyAssistIT {

  private static final long MS = 1_000_000;

  @Test
  void hygon_hackbench_profileRunsWithInvariantsAndPushes() {
    assertThat(Boolean.getBoolean("schedlab.invariants")).isTrue();
    HardwareModel hygon = Scenarios.machine("hw.hygon-7447v", Map.of(), "");
    SimulationResult result =
        Scenarios.run(
            hygon,
            "wl.hackbench",
            Map.of("groups", "16"),
            Scenarios.profile("smt-buddy-assist"),
            200 * MS,
            3,
            SimulationListener.NONE);
    assertThat(result.simulatedNs()).isEqualTo(200 * MS);
    assertThat(result.pluginCounters()).containsKey("ext.smt-buddy.push.pushes");
    assertThat(result.pluginCounters().get("ext.smt-buddy.push.pushes")).isPositive();
  }

  /**
   * Claim 3 in the steady state beside light housekeeping noise (docs/reproductions.md, section 3,
   * "Paired over 24 seeds"): STREAM with 384 threads on {@code hw.hygon-7447v} (a node per die) and
   * 38 noise tasks (50 µs bursts, mean sleep 10 ms), 0.3 s, seeds 1, 2 and 4. The RFC's explanation
   * as the model shows it: in the baseline a displaced thread delays the barrier, the others sleep
   * after their 50 µs spin, and newidle balancing pulls threads across nodes, away from the pages
   * they first touched (measured: 816-1543 balancing migrations, 8.5-26.4 s of memory-bound time
   * away from home). The no-NUMA newidle part forbids those pulls, and in this steady state they
   * are the only fast way off a node (fork gave every thread its own CPU, wakeups return threads to
   * their idle previous CPU, and the NUMA levels' periodic balancing of idle CPUs comes every 192
   * ms or more), so remote time under buddy-assist is checked to be below a tenth of the baseline's
   * (measured 0). A thread away from home runs at 10/16 of its speed or less (SLIT 16 and more) and
   * paces every barrier, so the rate is checked to be higher (measured 330.7 / 320.0 / 328.0
   * against 365.3 / 361.9 / 364.5 GB/s). Over 24 seeds buddy-assist is ahead on 21 and behind on 2
   * (not checked here: a seed whose baseline never pulls a thread across nodes has no remote time
   * to remove, so the per-seed precondition is checked instead). The figures are from a quiet
   * machine: the 38 noise tasks are this scenario's housekeeping, so the engine's own background
   * (timer expiries, device interrupts, kworkers; on by default since issue 19) is off here, as
   * when the seeds were chosen.
   */
  @Test
  void hygon_streamBesideNoise_newidleStaysHomeAndTheTeamIsFaster() {
    HardwareModel hygon = Scenarios.machine("hw.hygon-7447v", Map.of(), "");
    Map<String, String> stream = Map.of("threads", "384", "noise_tasks", "38");
    for (long seed : new long[] {1, 2, 4}) {
      SimulationResult off =
          Scenarios.run(
              hygon,
              "wl.stream",
              stream,
              Scenarios.profile("mainline-7.3"),
              300 * MS,
              seed,
              SimulationListener.NONE,
              BalancerOptions.defaults(),
              QUIET);
      SimulationResult buddy =
          Scenarios.run(
              hygon,
              "wl.stream",
              stream,
              Scenarios.profile("smt-buddy-assist"),
              300 * MS,
              seed,
              SimulationListener.NONE,
              BalancerOptions.defaults(),
              QUIET);
      long offRemote = remoteUs(off);

      assertThat(offRemote).as("seed %d: baseline remote time, µs", seed).isGreaterThan(1_000_000);
      assertThat(remoteUs(buddy) * 10).as("seed %d", seed).isLessThan(offRemote);
      assertThat(buddy.workload().value())
          .as("seed %d", seed)
          .isGreaterThan(off.workload().value());
    }
  }

  /** The engine's defaults without its background. */
  private static final EngineOptions QUIET = EngineOptions.defaults().withoutBackground();

  private static long remoteUs(SimulationResult result) {
    return result.pluginCounters().getOrDefault("engine.memory_remote_us", 0L);
  }
}
