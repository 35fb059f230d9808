package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.stats.SimulationResult;
import org.junit.jupiter.api.Test;

/**
 * The machine's background ({@link BackgroundIrqs}): timer expiries run the tick path on tickless
 * idle CPUs, device interrupts land on the boot CPU only, each CPU's kernel worker takes its idle
 * CPU out of the idle loop. Counts are Poisson; the bounds are five standard deviations.
 */
final class BackgroundIrqsTest {

  private static final long MS = 1_000_000;

  private static EngineOptions quiet() {
    return EngineOptions.defaults().withCheckInvariants(true).withoutBackground();
  }

  @Test
  void noBackground_idleMachineNeverBalances() {
    SimulationResult result =
        EngineFixture.on("1n1l8c1t").options(quiet()).duration(1_000 * MS).build().run();

    assertThat(result.softirqsFromTick()).isZero();
    assertThat(result.pluginCounters())
        .doesNotContainKeys("engine.timer_expiries_idle", "engine.device_irqs");
    assertThat(result.tasksCreated()).isZero();
  }

  @Test
  void timerExpiries_arriveAtTheRatePerCpu_andRaiseTheSoftirqOnlyWhenBalancingIsDue() {
    double rate = 50;
    SimulationResult result =
        EngineFixture.on("1n1l8c1t")
            .options(quiet().withIdleTimerRateHz(rate))
            .duration(2_000 * MS)
            .build()
            .run();

    double expected = rate * 8 * 2;
    long expiries = result.pluginCounters().get("engine.timer_expiries_idle");
    assertThat((double) expiries)
        .isBetween(expected - 5 * Math.sqrt(expected), expected + 5 * Math.sqrt(expected));
    // No CPU ticks on an idle machine: every tick softirq came from an expiry, and an idle CPU's
    // intervals are a few jiffies, so after a sleep of ~20 ms most expiries find balancing due.
    assertThat(result.softirqsFromTick()).isPositive().isLessThanOrEqualTo(expiries);
    assertThat(result.softirqsFromTick()).isGreaterThan(expiries / 2);
    // The tick path of an idle CPU never kicks an ILB (rq->idle_balance).
    assertThat(result.softirqsFromKick()).isZero();
  }

  @Test
  void deviceInterrupts_stealOnlyFromTheBootCpu() {
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .options(quiet().withDeviceIrqRateHz(1_000).withDeviceIrqNs(5_000))
            .duration(1_000 * MS)
            .tasks(
                host -> {
                  for (int cpu = 0; cpu < 4; cpu++) {
                    host.spawn(
                        EngineFixture.pinned("spin" + cpu, 4, cpu), ScriptedWorkload.spin(), cpu);
                  }
                })
            .build();
    SimulationResult result = sim.run();

    long irqs = result.pluginCounters().get("engine.device_irqs");
    assertThat((double) irqs).isBetween(1_000 - 5 * Math.sqrt(1_000), 1_000 + 5 * Math.sqrt(1_000));
    // The busy CPUs balance alike (softirq time stolen from each); CPU 0 loses the interrupts too.
    long others = Math.max(sim.rq(1).stolenNs, Math.max(sim.rq(2).stolenNs, sim.rq(3).stolenNs));
    assertThat(sim.rq(0).stolenNs - others).isGreaterThanOrEqualTo(irqs * 5_000 - others);
    assertThat(sim.rq(0).stolenNs).isGreaterThan(sim.rq(1).stolenNs + irqs * 4_000);
  }

  @Test
  void kernelWorkers_leaveTheIdleLoopOnTheirOwnCpuAtTheRate() {
    double rate = 20;
    EngineRun sim =
        EngineFixture.on("1n1l4c2t")
            .options(quiet().withKworkerRateHz(rate).withKworkerRunNs(10_000))
            .duration(2_000 * MS)
            .build();
    SimulationResult result = sim.run();

    assertThat(result.tasksCreated()).isEqualTo(8);
    double expected = rate * 8 * 2;
    long switches = result.smtContention() + result.smtNoContention();
    assertThat((double) switches)
        .isBetween(expected - 5 * Math.sqrt(expected), expected + 5 * Math.sqrt(expected) + 8);
    for (int cpu = 0; cpu < 8; cpu++) {
      // Each worker ran where it is pinned (the invariant checker also holds affinity).
      assertThat(sim.task(cpu).cpu).isEqualTo(cpu);
      assertThat(sim.rq(cpu).taskNs).isPositive();
    }
  }
}
