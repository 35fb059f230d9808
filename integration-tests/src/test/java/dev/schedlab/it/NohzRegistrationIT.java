package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.spi.HardwareModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * seeds-digest §4 through the real engine and the policies-fair plugins: on an Altra with {@code
 * nohz_full=1-79}, a nohz_full CPU whose tick stopped while it ran one task then goes idle with the
 * tick already stopped (rt-app workers run 5 ms, sleep 5 ms). The legacy transition-only rule never
 * registers it in {@code nohz.idle_cpus_mask}; the fixed rule does.
 */
final class NohzRegistrationIT {

  private static final long MS = 1_000_000;
  private static final long WARM_UP_NS = 100 * MS;

  /** Largest NOHZ idle mask weight seen after the warm-up. */
  private static final class MaxMaskWeight implements SimulationListener {
    int max;

    @Override
    public void nohzIdleMask(long nowNs, int weight) {
      if (nowNs >= WARM_UP_NS) {
        max = Math.max(max, weight);
      }
    }
  }

  /** 79 rt-app workers on CPUs 1-79, each running 5 ms then sleeping 5 ms. */
  private static Path workers(Path dir) throws IOException {
    return Scenarios.rtappWorkers(dir, 1, 79, 79);
  }

  private int maxMaskWeight(String profile) throws IOException {
    HardwareModel altra = Scenarios.machine("hw.altra", Map.of(), "nohz_full=1-79");
    MaxMaskWeight listener = new MaxMaskWeight();
    Scenarios.run(
        altra,
        "wl.rtapp",
        Map.of("file", workers(dir).toString()),
        Scenarios.profile(profile),
        300 * MS,
        7,
        listener);
    return listener.max;
  }

  @TempDir Path dir;

  @Test
  void legacyRule_idleNohzFullCpusStayOutOfTheMask() throws IOException {
    // Only CPU 0 (housekeeping, running nothing) can be registered once every nohz_full CPU has
    // had its tick stopped while busy.
    assertThat(maxMaskWeight("mainline-7.3")).isLessThanOrEqualTo(1);
  }

  @Test
  void fixedRule_idleNohzFullCpusAreRegistered() throws IOException {
    // Every worker sleeps half the time, so at any moment about half of CPUs 1-79 are idle, and
    // each idle entry with the tick stopped registers the CPU.
    assertThat(maxMaskWeight("nohz-fix")).isGreaterThanOrEqualTo(40);
  }
}
