package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.IlbStatistics;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.PluginRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The round-robin ILB of Imran Khan's RFC ({@code ext.ilb.round-robin}, docs/reproductions.md,
 * claim 1, "Other ILB choices") against 7.1's first-idle walk on Vera GEMM, mainline rules, both
 * with the rest of the mainline-7.1 profile.
 *
 * <p>What is asserted follows from the rules, not from a run. Ticks are aligned ({@code
 * sched_skew_tick=0}), so all 88 busy CPUs call {@code nohz_balancer_kick()} at the same instant,
 * and while a GEMM thread has gone idle since the last pass ({@code nohz.needs_update}) each of
 * them calls {@code kick_ilb()}. First-idle returns the same CPU to all of them: one IPI, the
 * others find the kick pending. Round-robin returns the next idle CPU each time, which has no kick
 * pending, so nearly every call sends an IPI and starts a pass: at least ten times first-idle's
 * IPIs (the factor is about the number of busy CPUs that tick together, 88, divided by the kicks
 * first-idle needs per tick, at most a few), and fewer calls than first-idle find a kick pending.
 * The work spreads: round-robin chooses at least 100 different CPUs (the node-1 CPUs alone are
 * 176), first-idle's most chosen CPU takes most of its choices.
 */
// The barrier model (-W wait=barrier) the figures were recorded with, on the quiet machine.
final class RoundRobinIlbIT {

  private static final long MS = 1_000_000;

  private static SimulationResult gemm(String ilbSelector) {
    List<PluginRef> plugins =
        Scenarios.profile("mainline-7.1").stream()
            .map(ref -> ref.id().equals("fair.ilb.first-idle") ? PluginRef.of(ilbSelector) : ref)
            .toList();
    return Scenarios.run(
        Scenarios.machine("hw.vera", Map.of(), ""),
        "wl.gemm",
        Map.of("wait", "barrier"),
        plugins,
        300 * MS,
        1,
        SimulationListener.NONE);
  }

  @Test
  void veraGemm_roundRobin_spreadsTheIlbAndNoLongerCoalescesKicks() {
    IlbStatistics firstIdle = gemm("fair.ilb.first-idle").ilb();
    IlbStatistics roundRobin = gemm("ext.ilb.round-robin").ilb();

    System.out.printf(
        "RoundRobinIlbIT: IPIs %d -> %d, passes %d -> %d, CPUs chosen %d -> %d,"
            + " busiest CPU's share %.2f -> %.2f%n",
        firstIdle.ipis(),
        roundRobin.ipis(),
        firstIdle.runs(),
        roundRobin.runs(),
        distinct(firstIdle.chosenPerCpu()),
        distinct(roundRobin.chosenPerCpu()),
        (double) max(firstIdle.chosenPerCpu()) / firstIdle.choices(),
        (double) max(roundRobin.chosenPerCpu()) / roundRobin.choices());
    assertThat(roundRobin.ipis()).isGreaterThanOrEqualTo(10 * firstIdle.ipis());
    assertThat(roundRobin.alreadyPending()).isLessThan(firstIdle.alreadyPending());
    assertThat(roundRobin.runs()).isGreaterThanOrEqualTo(10 * firstIdle.runs());
    assertThat(distinct(roundRobin.chosenPerCpu())).isGreaterThanOrEqualTo(100);
    assertThat(max(firstIdle.chosenPerCpu())).isGreaterThan(firstIdle.choices() / 2);
  }

  private static long distinct(long[] perCpu) {
    return java.util.Arrays.stream(perCpu).filter(n -> n > 0).count();
  }

  private static long max(long[] perCpu) {
    return java.util.Arrays.stream(perCpu).max().orElse(0);
  }
}
