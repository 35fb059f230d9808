package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * seeds-digest §1 through the real engine on Vera's default (asymmetric-capacity) firmware, GEMM
 * confined to node 0 (one thread per core), 1 simulated second; docs/reproductions.md, claim 1.
 *
 * <p>What the model shows and these tests hold it to:
 *
 * <ul>
 *   <li>first-idle picks idle CPUs next to a busy GEMM thread as ILB, idle-core never does while
 *       node 1 offers fully idle cores — the selector rule, end to end;
 *   <li>with the mainline wakeup rules (7.2's SMT-aware {@code select_idle_capacity()}) no GEMM
 *       thread is ever woken onto the idle sibling of a busy core, and idle-core's FLOP/s is not
 *       below first-idle's. It is not higher either in this model: the odd cores run at 973/1024
 *       of the even ones, so the even-core threads wait about 5 % of every chunk at the barrier,
 *       and a first-idle ILB next to one of them (a 60-75 µs pass at the co-run speed costs its
 *       thread about 30 µs) is absorbed by that wait. The thread's +52 % is therefore not
 *       reproduced on this firmware (docs, claim 1, gap);
 *   <li>with Linux 7.1.5's SMT-unaware {@code select_idle_capacity()} ({@code mainlineDeltas}
 *       off), GEMM threads do not fit any CPU (util above 80 % of 1024), so their wakeups go to
 *       the first idle CPU of the highest capacity, whatever its sibling runs: the team stacks
 *       two per core and nothing separates them, under either selector, and throughput falls.
 *       The NVIDIA report behind 7.2's change (up to 2x on Vera) is this mechanism.
 * </ul>
 *
 * <p>Margins: the stacking count is a property of the layout (the 44 odd-core threads can each
 * move once, to a full-capacity CPU); the test asks for at least 20 such wakeups under 7.1.5
 * rules and none under mainline rules, and for the stacked run to be at least 10 % slower, a
 * quarter of what two threads per core at the model's 0.6 co-run speed cost once stacked.
 */
final class IdleCoreIlbIT {

  private static final long MS = 1_000_000;

  private static SimulationResult run(String profile, boolean mainlineRules) {
    HardwareModel vera = Scenarios.machine("hw.vera", Map.of(), "");
    return Scenarios.run(
        vera, "wl.gemm", Map.of(), Scenarios.profile(profile), 1_000 * MS, 1,
        SimulationListener.NONE,
        BalancerOptions.defaults().withMainlineDeltas(mainlineRules));
  }

  @Test
  void vera_gemm_idleCoreAvoidsBusySiblings_andIsNoSlower() {
    SimulationResult firstIdle = run("mainline-7.1", true);
    SimulationResult idleCore = run("mainline-7.3", true);
    assertThat(firstIdle.ilb().choicesWithBusySibling()).isPositive();
    assertThat(idleCore.ilb().choicesWithBusySibling()).isZero();
    assertThat(firstIdle.wakeupMigrations()).isZero();
    assertThat(idleCore.wakeupMigrations()).isZero();
    assertThat(idleCore.workload().value()).isGreaterThanOrEqualTo(firstIdle.workload().value());
  }

  @Test
  void vera_gemm_linux715WakeupRules_stackTheTeamOnBusyCores() {
    SimulationResult mainline = run("mainline-7.3", true);
    SimulationResult linux715 = run("mainline-7.3", false);
    assertThat(linux715.wakeupMigrations()).isGreaterThanOrEqualTo(20);
    assertThat(linux715.smtContention()).isGreaterThanOrEqualTo(20);
    assertThat(linux715.workload().value()).isLessThan(0.9 * mainline.workload().value());
  }
}
