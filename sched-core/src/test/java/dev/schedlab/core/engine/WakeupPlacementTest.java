package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.stats.PlacementPath;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * Wakeup placement follows kernel-facts §5: {@code select_idle_sibling()} prefers a fully idle SMT
 * core while {@code has_idle_cores} is set and takes the first idle CPU otherwise; {@code
 * choose_idle_cpu()} counts a SCHED_IDLE-only runqueue as idle for non-idle wakees only, unless a
 * {@code WakeupPolicy} votes otherwise; forks spread over idle CPUs.
 */
final class WakeupPlacementTest {

  private static final long MS = 1_000_000;

  private static TaskSpec pinned(String name, int nrCpuIds, int cpu, SchedPolicy policy) {
    return new TaskSpec(name, policy, 0, CpuMasks.of(nrCpuIds, cpu), WorkClass.COMPUTE);
  }

  private static TaskSpec free(String name, SchedPolicy policy) {
    return new TaskSpec(name, policy, 0, null, WorkClass.COMPUTE);
  }

  /**
   * 1n1l3c2t split: cores {0,3}, {1,4}, {2,5}. CPUs 1 and 5 are busy; a wakee whose target is CPU 1
   * scans from CPU 2, which is idle but on core {2,5} with a busy sibling.
   */
  private static EngineRun busyOneAndFive(SchedPolicy wakeePolicy) {
    EngineRun sim =
        EngineFixture.on("1n1l3c2t")
            .tasks(
                host -> {
                  host.spawn(pinned("a", 6, 1, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 1);
                  host.spawn(pinned("b", 6, 5, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 5);
                  host.spawn(free("wakee", wakeePolicy), ScriptedWorkload.blockForever(), 0);
                })
            .build();
    sim.advanceTo(5 * MS);
    return sim;
  }

  @Test
  void selectIdleSibling_idleCoresHinted_picksCpuOnFullyIdleCore() {
    EngineRun sim = busyOneAndFive(SchedPolicy.NORMAL);
    Task wakee = sim.task(2);
    wakee.recentUsedCpu = -1;
    sim.engine.llcShared.setIdleCores(1, true);
    assertThat(sim.engine.idleSibling.select(wakee, 1, 1)).isEqualTo(3);
    assertThat(sim.engine.idleSibling.lastPath()).isEqualTo(PlacementPath.LLC_SCAN);
  }

  @Test
  void selectIdleSibling_noIdleCoresHint_picksFirstIdleCpuAfterTarget() {
    EngineRun sim = busyOneAndFive(SchedPolicy.NORMAL);
    Task wakee = sim.task(2);
    wakee.recentUsedCpu = -1;
    sim.engine.llcShared.setIdleCores(1, false);
    // Not hinted: select_idle_smt() on prev's core first ({1,4}: CPU 4 is idle).
    assertThat(sim.engine.idleSibling.select(wakee, 1, 1)).isEqualTo(4);
    assertThat(sim.engine.idleSibling.lastPath()).isEqualTo(PlacementPath.SMT_SIBLING);
  }

  @Test
  void selectIdleSibling_idleTarget_returnsTarget() {
    EngineRun sim = busyOneAndFive(SchedPolicy.NORMAL);
    Task wakee = sim.task(2);
    assertThat(sim.engine.idleSibling.select(wakee, 1, 0)).isEqualTo(0);
    assertThat(sim.engine.idleSibling.lastPath()).isEqualTo(PlacementPath.TARGET_IDLE);
  }

  @Test
  void idleCoreScanWithoutIdleCore_clearsHasIdleCores() {
    EngineRun sim =
        EngineFixture.on("1n1l2c2t")
            .tasks(
                host -> {
                  host.spawn(pinned("a", 4, 0, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("b", 4, 1, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 1);
                  host.spawn(free("wakee", SchedPolicy.NORMAL), ScriptedWorkload.blockForever(), 0);
                })
            .build();
    sim.advanceTo(5 * MS);
    Task wakee = sim.task(2);
    wakee.recentUsedCpu = -1;
    sim.engine.llcShared.setIdleCores(0, true);
    int cpu = sim.engine.idleSibling.select(wakee, 0, 0);
    assertThat(cpu).isIn(2, 3);
    assertThat(sim.engine.llcShared.testIdleCores(0)).isFalse();
  }

  @Test
  void chooseIdleCpu_schedIdleRunqueue_idleForNormalWakeeOnly() {
    // SIS_UTIL off: with both CPUs at full utilisation it would stop the scan altogether.
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .options(
                EngineOptions.defaults()
                    .withoutBackground()
                    .withCheckInvariants(true)
                    .withSisUtil(false))
            .tasks(
                host -> {
                  host.spawn(pinned("busy", 2, 0, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("bg", 2, 1, SchedPolicy.IDLE), ScriptedWorkload.spin(), 1);
                  host.spawn(
                      free("normal", SchedPolicy.NORMAL), ScriptedWorkload.blockForever(), 0);
                  host.spawn(free("idle", SchedPolicy.IDLE), ScriptedWorkload.blockForever(), 0);
                })
            .build();
    sim.advanceTo(5 * MS);
    assertThat(sim.state.isSchedIdleRq(1)).isTrue();
    assertThat(sim.engine.chain.chooseIdleCpu(1, sim.task(2))).isTrue();
    assertThat(sim.engine.chain.chooseIdleCpu(1, sim.task(3))).isFalse();
    Task normal = sim.task(2);
    normal.recentUsedCpu = -1;
    assertThat(sim.engine.idleSibling.select(normal, 0, 0)).isEqualTo(1);
    assertThat(sim.engine.idleSibling.lastPath()).isEqualTo(PlacementPath.LLC_SCAN);
    // As the target, the SCHED_IDLE-only CPU is taken at once, and says so.
    assertThat(sim.engine.idleSibling.select(normal, 1, 1)).isEqualTo(1);
    assertThat(sim.engine.idleSibling.lastPath()).isEqualTo(PlacementPath.TARGET_SCHED_IDLE);
    Task idle = sim.task(3);
    idle.recentUsedCpu = -1;
    assertThat(sim.engine.idleSibling.select(idle, 0, 0)).isEqualTo(0);
    assertThat(sim.engine.idleSibling.lastPath()).isEqualTo(PlacementPath.NONE_IDLE);
  }

  @Test
  void selectIdleCpu_sisUtilWithFullyBusyLlc_scansNothing() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(
                host -> {
                  host.spawn(pinned("busy", 2, 0, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("bg", 2, 1, SchedPolicy.IDLE), ScriptedWorkload.spin(), 1);
                  host.spawn(
                      free("normal", SchedPolicy.NORMAL), ScriptedWorkload.blockForever(), 0);
                })
            .build();
    sim.advanceTo(300 * MS);
    assertThat(sim.engine.llcShared.nrIdleScan(0)).isZero();
    Task normal = sim.task(2);
    normal.recentUsedCpu = -1;
    assertThat(sim.engine.idleSibling.select(normal, 0, 0)).isEqualTo(0);
  }

  @Test
  void chooseIdleCpu_policyVotesNo_schedIdleRunqueueNotIdleForAnyone() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .wakeup(TestPlugins.schedIdleVote(WakeupPolicy.Vote.NO))
            .tasks(
                host -> {
                  host.spawn(pinned("busy", 2, 0, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("bg", 2, 1, SchedPolicy.IDLE), ScriptedWorkload.spin(), 1);
                  host.spawn(
                      free("normal", SchedPolicy.NORMAL), ScriptedWorkload.blockForever(), 0);
                })
            .build();
    sim.advanceTo(5 * MS);
    assertThat(sim.engine.chain.chooseIdleCpu(1, sim.task(2))).isFalse();
  }

  @Test
  void chooseIdleCpu_firstNonAbstainingPolicyDecides() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .wakeup(TestPlugins.schedIdleVote(WakeupPolicy.Vote.ABSTAIN))
            .wakeup(TestPlugins.schedIdleVote(WakeupPolicy.Vote.YES))
            .wakeup(TestPlugins.schedIdleVote(WakeupPolicy.Vote.NO))
            .tasks(
                host -> {
                  host.spawn(pinned("bg", 2, 1, SchedPolicy.IDLE), ScriptedWorkload.spin(), 1);
                  host.spawn(free("idle", SchedPolicy.IDLE), ScriptedWorkload.blockForever(), 0);
                })
            .build();
    sim.advanceTo(5 * MS);
    assertThat(sim.engine.chain.chooseIdleCpu(1, sim.task(1))).isTrue();
  }

  @Test
  void fork_asManyTasksAsCpus_oneTaskPerCpu() {
    EngineRun sim =
        EngineFixture.on("2n1l4c2t")
            .tasks(
                host -> {
                  for (int i = 0; i < 16; i++) {
                    host.spawn(free("t" + i, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 0);
                  }
                })
            .build();
    sim.advanceTo(MS / 2);
    for (int cpu = 0; cpu < 16; cpu++) {
      assertThat(sim.rq(cpu).nr).as("CPU %d", cpu).isEqualTo(1);
    }
  }

  @Test
  void fork_halfAsManyTasksAsCpus_oneTaskPerCore() {
    EngineRun sim =
        EngineFixture.on("2n1l4c2t")
            .tasks(
                host -> {
                  for (int i = 0; i < 8; i++) {
                    host.spawn(free("t" + i, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 0);
                  }
                })
            .build();
    sim.advanceTo(MS / 2);
    for (int core = 0; core < 8; core++) {
      int busy = sim.rq(core).nr + sim.rq(core + 8).nr;
      assertThat(busy).as("core %d", core).isEqualTo(1);
    }
  }

  /**
   * 1n1l2c1t: a SCHED_IDLE waker spins alone on CPU 0, CPU 1 is idle, and a SCHED_IDLE wakee last
   * ran on CPU 1. {@code vote} stands for the SCHED_IDLE rule (YES: the rule before the wakee fix;
   * ABSTAIN: the engine default, the fixed rule).
   */
  private static EngineRun idleWakerAloneOnCpu0(WakeupPolicy.Vote vote) {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .options(
                EngineOptions.defaults()
                    .withoutBackground()
                    .withCheckInvariants(true)
                    .withSisUtil(false))
            .wakeup(TestPlugins.schedIdleVote(vote))
            .tasks(
                host -> {
                  host.spawn(pinned("waker", 2, 0, SchedPolicy.IDLE), ScriptedWorkload.spin(), 0);
                  host.spawn(free("wakee", SchedPolicy.IDLE), ScriptedWorkload.blockForever(), 1);
                })
            .build();
    sim.advanceTo(5 * MS);
    assertThat(sim.rq(0).nr).isEqualTo(1);
    assertThat(sim.state.isAvailableIdle(1)).isTrue();
    sim.task(1).recentUsedCpu = -1;
    return sim;
  }

  @Test
  void syncWakeup_wakerAloneAndOldSchedIdleRule_stacksOnWakerCpu() {
    EngineRun sim = idleWakerAloneOnCpu0(WakeupPolicy.Vote.YES);
    // wake_affine_idle(): sync and nr_running == 1 give the waker's CPU although prev is idle;
    // select_idle_sibling() accepts it because its only task is SCHED_IDLE.
    int cpu =
        sim.engine.selectTaskRq.selectTaskRqFair(
            sim.task(1), 1, 0, SelectTaskRq.WF_TTWU | SelectTaskRq.WF_SYNC, sim.task(0));
    assertThat(cpu).isEqualTo(0);
  }

  @Test
  void syncWakeup_schedIdleAwareRule_keepsIdlePrev() {
    EngineRun sim = idleWakerAloneOnCpu0(WakeupPolicy.Vote.ABSTAIN);
    int cpu =
        sim.engine.selectTaskRq.selectTaskRqFair(
            sim.task(1), 1, 0, SelectTaskRq.WF_TTWU | SelectTaskRq.WF_SYNC, sim.task(0));
    assertThat(cpu).isEqualTo(1);
  }

  @Test
  void plainWakeup_oldSchedIdleRule_keepsIdlePrev() {
    EngineRun sim = idleWakerAloneOnCpu0(WakeupPolicy.Vote.YES);
    // Without sync wake_affine_idle() returns the idle prev, which select_idle_sibling() keeps.
    int cpu =
        sim.engine.selectTaskRq.selectTaskRqFair(
            sim.task(1), 1, 0, SelectTaskRq.WF_TTWU, sim.task(0));
    assertThat(cpu).isEqualTo(1);
  }

  @Test
  void syncWakeup_wakerNotAlone_noSyncShortcut() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .options(
                EngineOptions.defaults()
                    .withoutBackground()
                    .withCheckInvariants(true)
                    .withSisUtil(false))
            .wakeup(TestPlugins.schedIdleVote(WakeupPolicy.Vote.YES))
            .tasks(
                host -> {
                  host.spawn(pinned("waker", 2, 0, SchedPolicy.IDLE), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("other", 2, 0, SchedPolicy.IDLE), ScriptedWorkload.spin(), 0);
                  host.spawn(free("wakee", SchedPolicy.IDLE), ScriptedWorkload.blockForever(), 1);
                })
            .build();
    sim.advanceTo(5 * MS);
    assertThat(sim.rq(0).nr).isEqualTo(2);
    sim.task(2).recentUsedCpu = -1;
    // Two tasks on the waker's CPU: no sync shortcut, the idle prev wins in wake_affine_idle().
    int cpu =
        sim.engine.selectTaskRq.selectTaskRqFair(
            sim.task(2), 1, 0, SelectTaskRq.WF_TTWU | SelectTaskRq.WF_SYNC, sim.task(0));
    assertThat(cpu).isEqualTo(1);
  }

  // select_idle_capacity(): 7.1.5 vs the SMT-aware form of 7.2 (mainline deltas)

  /**
   * Asymmetric SMT2, 1 LLC, split numbering: cores {0,3}, {1,4}, {2,5}; core {1,4} at capacity 512,
   * the others at 1024. CPU 0 spins, so CPU 3 is idle next to a busy sibling.
   */
  private static EngineRun asymSmt(boolean mainline) {
    var b = dev.schedlab.topology.Topology.builder(6).name("asym-smt2");
    for (int cpu = 0; cpu < 6; cpu++) {
      b.addCpu(cpu, 0, 0, 0, cpu % 3, cpu % 3, 0);
      b.capacity(cpu, cpu % 3 == 1 ? 512 : 1024);
    }
    var topology = b.build();
    EngineRun sim =
        EngineFixture.on(TestMachines.hardware(topology, new TestMachines.UnitSpeed(topology)))
            .balancer(
                dev.schedlab.core.balance.BalancerOptions.defaults().withMainlineDeltas(mainline))
            .tasks(
                host -> {
                  host.spawn(pinned("busy", 6, 0, SchedPolicy.NORMAL), ScriptedWorkload.spin(), 0);
                  host.spawn(free("wakee", SchedPolicy.NORMAL), ScriptedWorkload.blockForever(), 0);
                })
            .build();
    sim.advanceTo(5 * MS);
    return sim;
  }

  private static int wake(EngineRun sim, long util) {
    Task wakee = sim.task(1);
    wakee.recentUsedCpu = -1;
    wakee.avg.utilAvg = util;
    wakee.utilEst = util;
    sim.engine.llcShared.setIdleCores(3, true);
    return sim.engine.idleSibling.select(wakee, 3, 3);
  }

  @Test
  void selectIdleCapacity_linux715_takesTheFirstFittingIdleCpuEvenNextToABusySibling() {
    assertThat(wake(asymSmt(false), 100)).isEqualTo(3);
  }

  @Test
  void selectIdleCapacity_mainline_prefersAFittingCpuOnAFullyIdleCore() {
    assertThat(wake(asymSmt(true), 100)).isEqualTo(4);
  }

  @Test
  void selectIdleCapacity_misfitEverywhere_linux715TakesTheBiggestFirst_mainlineAnIdleCore() {
    // util 1000 fits no CPU (1000 * 1280 >= 1024 * 1024): the ranking decides.
    assertThat(wake(asymSmt(false), 1000)).isEqualTo(3);
    EngineRun mainline = asymSmt(true);
    assertThat(wake(mainline, 1000)).isEqualTo(5);
    assertThat(mainline.engine.llcShared.testIdleCores(3)).isTrue();
  }

  @Test
  void selectIdleCapacity_wordWiseFormChoosesAsTheWalk_onRandomStates() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
    int[] capacities = {1024, 973, 512};
    int compared = 0;
    for (int round = 0; round < 40; round++) {
      int cores = 4 + random.nextInt(12);
      int nrCpuIds = 2 * cores;
      var b = dev.schedlab.topology.Topology.builder(nrCpuIds).name("asym-smt2-" + round);
      for (int cpu = 0; cpu < nrCpuIds; cpu++) {
        int core = cpu % cores;
        b.addCpu(cpu, 0, 0, 0, core, core, 0);
      }
      for (int core = 0; core < cores; core++) {
        int capacity = capacities[random.nextInt(capacities.length)];
        b.capacity(core, capacity);
        b.capacity(core + cores, capacity);
      }
      var topology = b.build();
      boolean[] busy = new boolean[nrCpuIds];
      for (int cpu = 0; cpu < nrCpuIds; cpu++) {
        busy[cpu] = random.nextInt(3) == 0;
      }
      EngineRun sim =
          EngineFixture.on(TestMachines.hardware(topology, new TestMachines.UnitSpeed(topology)))
              .tasks(
                  host -> {
                    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
                      if (busy[cpu]) {
                        host.spawn(
                            pinned("busy" + cpu, nrCpuIds, cpu, SchedPolicy.NORMAL),
                            ScriptedWorkload.spin(),
                            cpu);
                      }
                    }
                    host.spawn(
                        free("wakee", SchedPolicy.NORMAL), ScriptedWorkload.blockForever(), 0);
                  })
              .build();
      sim.advanceTo(2 * MS);
      Task wakee = sim.task(sim.tasks.size() - 1);
      for (int trial = 0; trial < 20; trial++) {
        int target = random.nextInt(nrCpuIds);
        long util = new long[] {100, 700, 800, 1000}[random.nextInt(4)];
        boolean hint = random.nextBoolean();
        int[] chosen = new int[2];
        boolean[] hintAfter = new boolean[2];
        SelectIdleCapacity capacity = sim.engine.idleCapacity;
        var asym = sim.domains.sdAsymCpuCapacity(target);
        for (int mode = 0; mode < 2; mode++) {
          // No scan budget applies (as with an idle core hinted, or SIS_UTIL off) and no
          // runqueue holds only SCHED_IDLE tasks: the two forms must agree.
          sim.engine.llcShared.setIdleCores(target, hint);
          var cpus = CpuMasks.mutable(nrCpuIds);
          cpus.and(asym.span(), wakee.allowed);
          if (mode == 0) {
            cpus.andWith(sim.state.idleMask());
            chosen[mode] = capacity.byMasks(cpus, target, util, hint);
          } else {
            chosen[mode] = capacity.walk(wakee, cpus, target, util, hint, Integer.MAX_VALUE);
          }
          hintAfter[mode] = sim.engine.llcShared.testIdleCores(target);
        }
        assertThat(chosen[0])
            .as("round %d target %d util %d hint %s", round, target, util, hint)
            .isEqualTo(chosen[1]);
        assertThat(hintAfter[0]).isEqualTo(hintAfter[1]);
        compared++;
      }
    }
    assertThat(compared).isEqualTo(800);
  }
}
