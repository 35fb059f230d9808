package dev.schedlab.core.engine;

import static dev.schedlab.core.engine.EngineFixture.pinned;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.topology.Housekeeping;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NO_HZ and NOHZ idle balancing follow kernel-facts §3: idle CPUs stop their tick and register in
 * {@code nohz.idle_cpus_mask}; a woken CPU leaves it on its first busy tick, not at wakeup; busy
 * nohz_full CPUs stop their tick and, under the transition-only rule, are not registered when they
 * go idle (the fixed rule registers them); kicks follow {@code nohz_balancer_kick()}; the ILB
 * visits the mask wrapping from {@code ilb + 1}, itself last; nohz_full CPUs are never the ILB.
 */
final class NohzTest {

  private static final long MS = 1_000_000;

  @Test
  void idleMachine_atStart_everyCpuTicklessAndRegistered() {
    EngineRun sim = EngineFixture.on("1n1l4c1t").build();
    sim.advanceTo(0);
    assertThat(sim.nohzIdleMask.toCpuList()).isEqualTo("0-3");
    assertThat(sim.engine.tick.running().isEmpty()).isTrue();
    for (int cpu = 0; cpu < 4; cpu++) {
      assertThat(sim.rq(cpu).tickStopped).isTrue();
    }
    assertThat(sim.engine.llcShared.nrBusyCpus(0)).isZero();
  }

  @Test
  void wokenCpu_leavesIdleMaskOnFirstBusyTickNotAtWakeup() {
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .tasks(host -> host.spawn(pinned("a", 4, 2), ScriptedWorkload.spin(), 0))
            .build();
    sim.advanceTo(MS / 2);
    assertThat(sim.rq(2).curr).isNotNull();
    assertThat(sim.rq(2).tickStopped).isFalse();
    assertThat(sim.nohzIdleMask.test(2)).as("still registered before its first tick").isTrue();
    sim.advanceTo(MS);
    assertThat(sim.nohzIdleMask.test(2)).isFalse();
    assertThat(sim.engine.llcShared.nrBusyCpus(0)).isEqualTo(1);
  }

  @Test
  void nohzFullCpu_busyWithOneTask_stopsItsTick() {
    EngineRun sim =
        EngineFixture.on(nohzFull("1n1l4c1t", "nohz_full=1-3"))
            .tasks(host -> host.spawn(pinned("a", 4, 2), ScriptedWorkload.spin(), 0))
            .build();
    sim.advanceTo(3 * MS);
    assertThat(sim.rq(2).curr).isNotNull();
    assertThat(sim.rq(2).tickStopped).isTrue();
    assertThat(sim.nohzIdleMask.test(2)).isFalse();
    assertThat(sim.rq(0).tickStopped).as("the timekeeper keeps its tick while idle").isFalse();
  }

  @Test
  void nohzFullCpu_goingIdleWithStoppedTick_transitionOnlyRuleMissesIt() {
    EngineRun sim =
        EngineFixture.on(nohzFull("1n1l4c1t", "nohz_full=1-3"))
            .tasks(
                host -> host.spawn(pinned("a", 4, 2), ScriptedWorkload.runOnceThenBlock(5 * MS), 0))
            .build();
    sim.advanceTo(20 * MS);
    assertThat(sim.state.isIdle(2)).isTrue();
    assertThat(sim.rq(2).tickStopped).isTrue();
    assertThat(sim.nohzIdleMask.test(2)).isFalse();
  }

  @Test
  void nohzFullCpu_goingIdleWithStoppedTick_fixedRuleRegistersIt() {
    EngineRun sim =
        EngineFixture.on(nohzFull("1n1l4c1t", "nohz_full=1-3"))
            .nohz(TestPlugins.registerAlways())
            .tasks(
                host -> host.spawn(pinned("a", 4, 2), ScriptedWorkload.runOnceThenBlock(5 * MS), 0))
            .build();
    sim.advanceTo(20 * MS);
    assertThat(sim.state.isIdle(2)).isTrue();
    assertThat(sim.nohzIdleMask.test(2)).isTrue();
  }

  @Test
  void kick_busyCpuWithTwoTasks_kicksBalanceToFirstIdleCpu() {
    EngineRun sim = EngineFixture.on("1n1l4c1t").twoHogs(2).build();
    sim.advanceTo(MS + MS / 2);
    assertThat(sim.stats.kickBalance).isEqualTo(1);
    assertThat(sim.stats.ilbChosen[0]).isEqualTo(1);
    assertThat(sim.stats.ilbRuns).isEqualTo(1);
  }

  @Test
  void kick_oneBusyCpuInLlc_noBalanceKick() {
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .tasks(host -> host.spawn(pinned("a", 4, 1), ScriptedWorkload.spin(), 1))
            .build();
    sim.advanceTo(200 * MS);
    assertThat(sim.engine.llcShared.nrBusyCpus(0)).isEqualTo(1);
    assertThat(sim.stats.kickBalance).isZero();
    assertThat(sim.stats.kickStatsOnly).as("blocked load still gets decayed").isPositive();
  }

  @Test
  void kick_twoBusyCpusInLlc_balanceKicks() {
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .tasks(
                host -> {
                  host.spawn(pinned("a", 4, 1), ScriptedWorkload.spin(), 1);
                  host.spawn(pinned("b", 4, 3), ScriptedWorkload.spin(), 3);
                })
            .build();
    sim.advanceTo(200 * MS);
    assertThat(sim.engine.llcShared.nrBusyCpus(0)).isEqualTo(2);
    assertThat(sim.stats.kickBalance).isGreaterThan(10);
  }

  @Test
  void kick_everyCpuBusy_noKicksOnceTheMaskIsEmpty() {
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .tasks(
                host -> {
                  for (int cpu = 0; cpu < 4; cpu++) {
                    host.spawn(pinned("t" + cpu, 4, cpu), ScriptedWorkload.spin(), cpu);
                  }
                })
            .build();
    sim.advanceTo(5 * MS);
    assertThat(sim.nohzIdleMask.isEmpty()).isTrue();
    long kicks = sim.stats.kickIlbCalls;
    sim.advanceTo(300 * MS);
    assertThat(sim.stats.kickIlbCalls).isEqualTo(kicks);
  }

  private static final EngineOptions BOOT_STAMPS =
      EngineOptions.defaults()
          .withoutBackground()
          .withCheckInvariants(true)
          .withSpreadBalanceStamps(false);

  @Test
  void ilbPass_visitsIdleMaskFromIlbPlusOneWrappingItselfLast() {
    List<Integer> visits = new ArrayList<>();
    EngineRun sim =
        EngineFixture.on("1n1l8c1t")
            .pass(TestPlugins.recordIdlePasses(visits))
            // Boot-state stamps (sd_init): every CPU is due at jiffy 1, so the pass balances, and
            // records, each CPU it visits.
            .options(BOOT_STAMPS)
            .twoHogs(3)
            .build();
    sim.advanceTo(MS + MS / 2);
    assertThat(sim.stats.ilbRuns).isEqualTo(1);
    assertThat(sim.stats.ilbChosen[0]).isEqualTo(1);
    assertThat(visits).containsExactly(1, 2, 4, 5, 6, 7, 0);
  }

  @Test
  void ilbPass_ilbInTheMiddle_wrapsAround() {
    List<Integer> visits = new ArrayList<>();
    EngineRun sim =
        EngineFixture.on(nohzFull("1n1l8c1t", "nohz_full=0-4"))
            .pass(TestPlugins.recordIdlePasses(visits))
            // Boot-state stamps (sd_init): every CPU is due at jiffy 1, so the pass balances, and
            // records, each CPU it visits.
            .options(BOOT_STAMPS)
            .twoHogs(7)
            .build();
    sim.advanceTo(MS + MS / 2);
    // CPU 5 is the timekeeper: it keeps its tick while idle, so it balances for itself at the
    // tick (first entry) and is never registered. The ILB is CPU 6; it visits 0-4, then itself.
    assertThat(sim.stats.ilbChosen[6]).isEqualTo(1);
    assertThat(visits).containsExactly(5, 0, 1, 2, 3, 4, 6);
  }

  @Test
  void ilbChoice_neverANohzFullCpu() {
    EngineRun sim = EngineFixture.on(nohzFull("1n1l8c1t", "nohz_full=0-3")).twoHogs(5).build();
    sim.advanceTo(300 * MS);
    assertThat(sim.stats.ilbChoices).isPositive();
    for (int cpu = 0; cpu < 4; cpu++) {
      assertThat(sim.stats.ilbChosen[cpu]).as("CPU %d", cpu).isZero();
    }
  }

  @Test
  void ilbPass_occupiesTheIlbForItsCost() {
    EngineRun sim = EngineFixture.on("1n1l4c1t").twoHogs(2).build();
    // Kick at 1 ms, IPI latency 2 µs: the ILB (CPU 0) is busy right after.
    sim.advanceTo(MS + 2_000);
    assertThat(sim.rq(0).phase).isEqualTo(CpuPhase.IDLE_SOFTIRQ);
    assertThat(sim.state.isIdle(0)).as("idle_cpu() stays true in softirq").isTrue();
    assertThat(sim.perfView.isBusy(0)).isTrue();
    sim.advanceTo(2 * MS - 1);
    assertThat(sim.perfView.isBusy(0)).isFalse();
    assertThat(sim.stats.ilbDuration.count()).isEqualTo(1);
    assertThat(sim.stats.ilbDuration.maxNs()).isPositive();
  }

  /**
   * {@code _nohz_idle_balance()} stops when the ILB is no longer idle and must reschedule: a task
   * woken onto the ILB mid-pass runs after one more CPU visit, not after the whole pass, and the
   * pass hands its unfinished STATS work to the next ILB.
   */
  @Test
  void ilbPass_taskWokenOntoTheIlb_abortsThePassAfterOneVisit() {
    long visitNs = 100_000;
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .options(
                EngineOptions.defaults()
                    .withoutBackground()
                    .withCheckInvariants(true)
                    .withIlbPerCpuVisitedNs(visitNs))
            .tasks(
                host -> {
                  host.spawn(pinned("a", 4, 2), ScriptedWorkload.spin(), 2);
                  host.spawn(pinned("b", 4, 2), ScriptedWorkload.spin(), 2);
                  // Runs 1 µs on CPU 0, then sleeps until 1.05 ms: into the pass kicked at 1 ms.
                  host.spawn(pinned("w", 4, 0), ScriptedWorkload.runSleep(1_000, 1_049_000), 0);
                })
            .build();
    sim.advanceTo(MS + 3_000);
    assertThat(sim.rq(0).phase).isEqualTo(CpuPhase.IDLE_SOFTIRQ);
    long passStart = sim.rq(0).ilbPassStartNs;
    long plannedEnd = sim.rq(0).phaseEndNs;
    // Three idle CPUs (0, 1, 3) are visited at 100 µs each: the pass lasts over 300 µs.
    assertThat(plannedEnd - passStart).isGreaterThan(3 * visitNs);

    sim.advanceTo(1_050_000 + visitNs + 1);
    Task w = sim.task(2);
    assertThat(w.state)
        .as("woken at 1.05 ms, running after one more visit")
        .isEqualTo(TaskState.RUNNING);
    assertThat(sim.counters.snapshot()).containsEntry("engine.ilb_aborts", 1L);
    assertThat(sim.stats.ilbDuration.count()).isEqualTo(1);
    assertThat(sim.stats.ilbDuration.maxNs()).isLessThan(plannedEnd - passStart);
  }

  @Test
  void ilbOnBusyThreadsSibling_slowsThatThreadWhileThePassRuns() {
    // Cores {0,2} and {1,3}: CPU 0 runs two tasks (it kicks), CPU 1 one; the first idle CPU in
    // the mask is 2, CPU 0's sibling, and CPU 0 runs at half speed while 2 balances.
    Topology topology = TestMachines.shape("1n1l2c2t");
    var hw = TestMachines.hardware(topology, new TestMachines.SmtCoRun(topology, 0.5));
    EngineRun sim =
        EngineFixture.on(hw)
            .tasks(
                host -> {
                  host.spawn(pinned("a", 4, 0), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("b", 4, 0), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("c", 4, 1), ScriptedWorkload.spin(), 1);
                })
            .build();
    sim.advanceTo(500 * MS);
    for (int cpu = 0; cpu < 2; cpu++) {
      sim.rq(cpu).updateCurr(sim.ctx.now());
    }
    assertThat(sim.stats.ilbChosen[2]).isPositive();
    assertThat(sim.stats.ilbChosen[3]).isZero();
    assertThat(sim.stats.ilbChoicesWithBusySibling).isEqualTo(sim.stats.ilbChoices);
    double cpu0Work = sim.task(0).workDone + sim.task(1).workDone;
    double cpu1Work = sim.task(2).workDone;
    long ilbBusyNs = sim.rq(2).overheadNs;
    assertThat(ilbBusyNs).isPositive();
    // CPU 0 loses half of the time its sibling spent balancing (ticks and softirqs aside).
    assertThat(cpu1Work - cpu0Work).isCloseTo(ilbBusyNs / 2.0, within(0.2 * ilbBusyNs));
  }

  @Test
  void isolatedCpu_hasNoDomains_neverRegistersBalancesOrKicks() {
    EngineRun sim = EngineFixture.on(nohzFull("1n1l4c1t", "isolcpus=domain,3")).twoHogs(3).build();
    sim.advanceTo(200 * MS);
    assertThat(sim.domains.domains(3)).isEmpty();
    assertThat(sim.nohzIdleMask.test(3)).isFalse();
    assertThat(sim.stats.kickIlbCalls).isZero();
    assertThat(sim.stats.softirqsFromTick).isZero();
    assertThat(sim.stats.ilbRuns).isZero();
    assertThat(sim.rq(3).nr).as("nothing can pull from an isolated CPU").isEqualTo(2);
  }

  private static dev.schedlab.spi.HardwareModel nohzFull(String shape, String bootArgs) {
    Topology topology = TestMachines.shape(shape);
    topology = topology.withHousekeeping(Housekeeping.parse(bootArgs, topology.nrCpuIds()));
    return TestMachines.hardware(topology, new TestMachines.UnitSpeed(topology));
  }
}
