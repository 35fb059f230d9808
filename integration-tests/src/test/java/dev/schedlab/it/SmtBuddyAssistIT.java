package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The smt-buddy-assist profile (policies-ext) runs end to end on the Hygon-like machine with the
 * invariant checker on (failsafe sets schedlab.invariants), and its push fires when runqueues
 * hold two tasks next to idle siblings.
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
}
