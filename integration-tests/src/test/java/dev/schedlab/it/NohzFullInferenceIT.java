package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * seeds-digest §4, the thread's inference measurement (docs/reproductions.md, claim 2, "Inference
 * under housekeeping noise"): llama-batched-bench-like decode ({@code wl.inference}, 60 threads on
 * CPUs 4-79 of an Altra with {@code nohz_full=4-79}, pure spin barriers, 4 ms of work per step)
 * beside unbound housekeeping noise (30 tasks on 4-79, each running 2 ms after an exponential sleep
 * of mean 20 ms: three CPUs' worth; an assumption, the digest gives none) runs faster under the
 * fixed NOHZ registration than under the legacy one.
 *
 * <p>The mechanism: a noise burst that lands on an inference thread's CPU halves that thread for up
 * to 2 ms, and the barrier makes the whole team wait for it. The 16 CPUs the team leaves idle are
 * nohz_full CPUs whose tick stopped while they ran a task, so under the legacy rule they are never
 * in {@code nohz.idle_cpus_mask} and the ILB never balances for them; the fixed rule puts them
 * there, and the ILB pulls one of the two tasks off the shared CPU. So the fixed rule runs more ILB
 * passes and more balancing migrations (both checked, summed over the seeds).
 *
 * <p>Why the margin is a sign test over 64 paired seeds: a run is a chain of such collisions and
 * single seeds go either way (seed 2: −17 %, measured), since where a noise task lands and which
 * task the ILB moves decide the rest of the run; the effect is a shift of the odds. Under no
 * effect, the fixed rule would be ahead on each untied seed with probability 1/2; the test asks for
 * a count that chance reaches with probability at most 1 % (one-sided binomial tail, computed here
 * for the number of untied seeds), and for a positive mean of the per-seed changes. Measured on the
 * 2026-11-30 tree: ahead on 47 of 64 seeds, mean +7.9 %. The control: with 15 noise tasks the 16
 * idle CPUs absorb the noise, no thread is ever shared, and both rules print the same throughput on
 * every seed (checked on 8).
 */
final class NohzFullInferenceIT {

  private static final long MS = 1_000_000;
  private static final int SEEDS = 64;

  private static Map<String, String> inference(int noiseTasks) {
    Map<String, String> p = new HashMap<>();
    p.put("threads", "60");
    p.put("affinity", "4-79");
    p.put("spin", "1s");
    p.put("step_work", "4ms");
    p.put("noise_tasks", Integer.toString(noiseTasks));
    p.put("noise_period", "20ms");
    p.put("noise_work", "2ms");
    p.put("noise_affinity", "4-79");
    return p;
  }

  @Test
  void altraNohzFull_inferenceBesideNoise_fixedRegistrationAheadOnMostSeeds() {
    HardwareModel altra = Scenarios.machine("hw.altra", Map.of(), "nohz_full=4-79");
    Map<String, String> params = inference(30);
    int higher = 0;
    int lower = 0;
    double changeSum = 0;
    long ilbRuns = 0;
    long ilbRunsFixed = 0;
    long migrations = 0;
    long migrationsFixed = 0;
    for (long seed = 1; seed <= SEEDS; seed++) {
      SimulationResult legacy = run(altra, params, "mainline-7.3", seed);
      SimulationResult fixed = run(altra, params, "nohz-fix", seed);
      double a = legacy.workload().value();
      double b = fixed.workload().value();
      higher += b > a ? 1 : 0;
      lower += b < a ? 1 : 0;
      changeSum += (b - a) / a;
      ilbRuns += legacy.ilb().runs();
      ilbRunsFixed += fixed.ilb().runs();
      migrations += Arrays.stream(legacy.migrationsPerLevel()).sum();
      migrationsFixed += Arrays.stream(fixed.migrationsPerLevel()).sum();
    }
    System.out.printf(
        "NohzFullInferenceIT: fixed ahead on %d, behind on %d of %d seeds, mean"
            + " change %+.1f %%; ILB passes %d / %d, balancing migrations %d / %d%n",
        higher,
        lower,
        SEEDS,
        100 * changeSum / SEEDS,
        ilbRuns,
        ilbRunsFixed,
        migrations,
        migrationsFixed);

    assertThat(ilbRunsFixed).as("ILB passes").isGreaterThan(ilbRuns);
    assertThat(migrationsFixed).as("balancing migrations").isGreaterThan(migrations);
    assertThat(higher)
        .as("seeds with the fixed rule ahead, of %d untied", higher + lower)
        .isGreaterThanOrEqualTo(signTestThreshold(higher + lower, 0.01));
    assertThat(changeSum).as("sum of per-seed changes").isPositive();
  }

  @Test
  void altraNohzFull_inferenceBesideLightNoise_bothRulesAlike() {
    HardwareModel altra = Scenarios.machine("hw.altra", Map.of(), "nohz_full=4-79");
    Map<String, String> params = inference(15);
    for (long seed = 1; seed <= 8; seed++) {
      assertThat(run(altra, params, "nohz-fix", seed).workload().value())
          .as("seed %d", seed)
          .isEqualTo(run(altra, params, "mainline-7.3", seed).workload().value());
    }
  }

  /** The smallest k with P(X ≥ k) ≤ alpha for X ~ Binomial(n, 1/2). */
  static int signTestThreshold(int n, double alpha) {
    double[] pmf = new double[n + 1];
    pmf[0] = Math.pow(0.5, n);
    for (int k = 1; k <= n; k++) {
      pmf[k] = pmf[k - 1] * (n - k + 1) / k;
    }
    double tail = 0;
    for (int k = n; k >= 0; k--) {
      tail += pmf[k];
      if (tail > alpha) {
        return k + 1;
      }
    }
    return 0;
  }

  private static SimulationResult run(
      HardwareModel altra, Map<String, String> params, String profile, long seed) {
    return Scenarios.run(
        altra,
        "wl.inference",
        params,
        Scenarios.profile(profile),
        300 * MS,
        seed,
        SimulationListener.NONE);
  }
}
