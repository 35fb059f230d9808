package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code skew_tick=1}: CPU n's tick, and so its {@code nohz_balancer_kick()}, fires n × (TICK_NSEC
 * / 2) / num_possible_cpus() after the jiffy boundary ({@code tick_setup_sched_timer()}); without
 * it every tick fires at the boundary. Observed through the kick calls of five busy CPUs (1-5) on
 * an 8-CPU machine whose other CPUs idle in {@code nohz.idle_cpus_mask}: at HZ 1000 the step is 500
 * µs / 8 = 62.5 µs. Aligned, all five kick in the same instant; skewed, the first kick's pass is
 * over before the next CPU ticks, so most kicks come from CPU 1.
 */
final class SkewTickTest {

  private static final long MS = 1_000_000;

  /** A kick call: when and from which CPU. */
  private record Kick(long nowNs, int cpu) {}

  @Test
  void skewOn_everyKickFiresAtItsCpusOffsetAfterTheBoundary() {
    List<Kick> kicks = kicks(true);

    // CPU 1 ticks first and usually kicks; the ILB's pass then moves nohz.next_balance on before
    // the later CPUs tick, yet some kicks come from others.
    assertThat(kicks).extracting(Kick::cpu).contains(1, 2);
    for (Kick kick : kicks) {
      assertThat(kick.nowNs() % MS)
          .as("kick from CPU %d", kick.cpu())
          .isEqualTo(kick.cpu() * 62_500L);
    }
  }

  @Test
  void skewOff_everyKickFiresAtTheBoundary() {
    List<Kick> kicks = kicks(false);

    // All five tick at the same instant, before any pass can move nohz.next_balance on.
    assertThat(kicks).extracting(Kick::cpu).contains(1, 2, 3, 4, 5);
    assertThat(kicks).allSatisfy(kick -> assertThat(kick.nowNs() % MS).isZero());
  }

  private static List<Kick> kicks(boolean skew) {
    List<Kick> kicks = new ArrayList<>();
    EngineRun sim =
        EngineFixture.on("1n1l8c1t")
            .options(
                EngineOptions.defaults()
                    .withoutBackground()
                    .withCheckInvariants(true)
                    .withSkewTick(skew))
            .duration(200 * MS)
            .tasks(
                host -> {
                  for (int cpu = 1; cpu <= 5; cpu++) {
                    host.spawn(
                        EngineFixture.pinned("busy" + cpu, 8, cpu), ScriptedWorkload.spin(), cpu);
                  }
                })
            .build();
    sim.listener(
        new SimulationListener() {
          @Override
          public void ilbKick(long nowNs, int kickerCpu, int ilbCpu) {
            kicks.add(new Kick(nowNs, kickerCpu));
          }
        });
    sim.run();
    return kicks;
  }
}
