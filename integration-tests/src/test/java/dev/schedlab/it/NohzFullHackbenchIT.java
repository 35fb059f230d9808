package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * seeds-digest §4, the thread's own benchmark (docs/reproductions.md, claim 2): hackbench with one
 * group (20 senders, 20 receivers, UNIX sockets, {@code -l 1000}, with hackbench's start protocol:
 * every task forked first, then all released by one write) on an Altra with {@code nohz_full=4-79},
 * confined to CPUs 4-79, finishes sooner under the fixed NOHZ registration rule than under the
 * legacy one.
 *
 * <p>The mechanism in the model: writes and reads wake with {@code WF_SYNC}, so {@code
 * wake_affine_idle()} sends a sleeping receiver to its waker's CPU and {@code
 * select_idle_sibling()} can then look only at that CPU's 2-CPU cluster (Altra's LLC): receivers
 * stack on senders' clusters while most of the 76 CPUs are idle. A stacked receiver slows every
 * sender of its group (each writes round robin, so a full buffer blocks it), which makes more
 * readers and writers sleep and more sync wakeups stack again. Only balancing on behalf of idle
 * CPUs breaks that up. Under the legacy rule an idle nohz_full CPU that stopped its tick while it
 * ran one task is not in {@code nohz.idle_cpus_mask}, so the ILB never balances for it; the fixed
 * rule puts it there. The listener checks that cause directly: the mask is heavier on average.
 *
 * <p>Why the margin is "strictly less on the mean of four seeds" and not a per-seed or percentage
 * bound: the fix only adds CPU_IDLE balancing for idle CPUs, whose cost (an ILB pass of some tens
 * of µs every few hundred µs on housekeeping CPUs, and the migration warm-up of the tasks it moves)
 * is far below the stacked time it removes, so the direction is a consequence of the model. Its
 * size is not: whether and when a run reaches the state where every task has a CPU of its own
 * depends on the start (fork placement, balance phases), and under the legacy rule some seeds reach
 * it through newidle balancing alone, so a single seed may show no difference. Four seeds of 0.2
 * simulated s (hackbench takes about 0.1 s) keep the test at a few seconds of wall time.
 */
final class NohzFullHackbenchIT {

  private static final long MS = 1_000_000;
  private static final long[] SEEDS = {1, 2, 3, 4};

  /** Records the weight of {@code nohz.idle_cpus_mask} as it changes. */
  private static final class MaskWeights implements SimulationListener {
    final List<long[]> changes = new ArrayList<>();

    @Override
    public void nohzIdleMask(long nowNs, int weight) {
      changes.add(new long[] {nowNs, weight});
    }

    /** Time-weighted mean weight from {@code startNs} until {@code endNs}. */
    double mean(long startNs, long endNs) {
      double weightNs = 0;
      long lastNs = startNs;
      long weight = 0;
      for (long[] change : changes) {
        if (change[0] > startNs) {
          long at = Math.min(change[0], endNs);
          weightNs += (double) weight * (at - lastNs);
          lastNs = at;
        }
        weight = change[1];
      }
      weightNs += (double) weight * (endNs - lastNs);
      return weightNs / (endNs - startNs);
    }
  }

  /** Sums over the seeds: hackbench time in s, mask weight means, wasted core ns. */
  private static double[] runSeeds(String profile) {
    HardwareModel altra = Scenarios.machine("hw.altra", Map.of(), "nohz_full=4-79");
    double time = 0;
    double mask = 0;
    double wasted = 0;
    for (long seed : SEEDS) {
      MaskWeights listener = new MaskWeights();
      SimulationResult result =
          Scenarios.run(
              altra,
              "wl.hackbench",
              Map.of("groups", "1", "loops", "1000", "affinity", "4-79"),
              Scenarios.profile(profile),
              200 * MS,
              seed,
              listener);
      assertThat(result.workload().metric()).as("hackbench completed").isEqualTo("time");
      double seconds = result.workload().value();
      time += seconds;
      // Only while hackbench runs (from the start byte to the last read): before, the tasks
      // are being forked; after, every CPU idles and the mask shows the idle tail.
      long startNs = (long) (result.workload().extra().get("start_ms") * 1e6);
      mask += listener.mean(startNs, startNs + (long) (seconds * 1e9));
      wasted += result.wastedCoreNs();
    }
    return new double[] {time, mask, wasted};
  }

  @Test
  void altraNohzFull_hackbenchOneGroup_fixedRegistrationFinishesSooner() {
    double[] legacy = runSeeds("mainline-7.3");
    double[] fixed = runSeeds("nohz-fix");
    System.out.printf(
        "NohzFullHackbenchIT: legacy / fixed over %d seeds: mean time %.5f / %.5f s, mean mask"
            + " weight %.1f / %.1f, wasted core %.1f / %.1f ms%n",
        SEEDS.length,
        legacy[0] / SEEDS.length,
        fixed[0] / SEEDS.length,
        legacy[1] / SEEDS.length,
        fixed[1] / SEEDS.length,
        legacy[2] / 1e6,
        fixed[2] / 1e6);
    assertThat(fixed[1]).as("mean nohz.idle_cpus_mask weight").isGreaterThan(legacy[1]);
    assertThat(fixed[2]).as("wasted core ns").isLessThan(legacy[2]);
    assertThat(fixed[0] / SEEDS.length)
        .as("mean hackbench time, s")
        .isLessThan(legacy[0] / SEEDS.length);
  }
}
