package dev.schedlab.core.engine;

import static dev.schedlab.core.engine.EngineFixture.pinned;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The core scheduler: tasks share a CPU in proportion to their weights with the base slice, a
 * SCHED_IDLE task yields to a waking normal task, {@code avg_idle} is the kernel's 1/8 EWMA,
 * idle-to-task switches count SMT contention, wasted-core time accrues exactly while a CPU idles
 * beside a waiting task, work progresses at the performance model's speed (recomputed when a
 * sibling's activity changes), the balancer spreads runnable tasks, and affinity holds.
 */
final class SchedulerTest {

  private static final long MS = 1_000_000;

  @Test
  void baseSlice_scalesWithLogOfCpuCount() {
    assertThat(nice0Slice("1n1l1c1t")).isEqualTo(700_000);
    assertThat(nice0Slice("1n1l4c1t")).isEqualTo(2_100_000);
    assertThat(nice0Slice("2n1l8c2t")).isEqualTo(2_800_000);
  }

  /** The slice of a nice-0 task (its virtual slice is the base slice) on {@code shape}. */
  private static long nice0Slice(String shape) {
    EngineRun sim = EngineFixture.on(shape).build();
    int nrCpuIds = sim.ctx.topology.nrCpuIds();
    Task task =
        new Task(
            0,
            "t",
            SchedPolicy.NORMAL,
            0,
            CpuMasks.of(nrCpuIds, 0),
            WorkClass.COMPUTE,
            ScriptedWorkload.spin());
    return sim.engine.fair.vslice(task);
  }

  @Test
  void hz300_jiffiesFollowFlooredTickBoundaries() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .hz(300)
            .duration(1_000_000_000L)
            .tasks(host -> host.spawn(pinned("a", 2, 0), ScriptedWorkload.spin(), 0))
            .build();
    assertThat(sim.ctx.tickTime(1)).isEqualTo(3_333_333);
    assertThat(sim.ctx.tickTime(300)).isEqualTo(1_000_000_000L);
    sim.advanceTo(3_333_332);
    assertThat(sim.ctx.jiffies()).isZero();
    sim.advanceTo(3_333_333);
    assertThat(sim.ctx.jiffies()).isEqualTo(1);
    var result = sim.finish();
    // Ticks are scheduled strictly before the end: the last is jiffy 299.
    assertThat(result.schedstat().timestampJiffies()).isEqualTo(299);
  }

  @Test
  void twoEqualTasksOnOneCpu_shareItEvenly() {
    EngineRun sim = EngineFixture.on("1n1l2c1t").twoHogs(0).build();
    sim.advanceTo(1000 * MS);
    double a = sim.task(0).sumExecNs;
    double b = sim.task(1).sumExecNs;
    assertThat(a + b).isCloseTo(1000.0 * MS, within(3.0 * MS));
    assertThat(a / (a + b)).isCloseTo(0.5, within(0.01));
  }

  @Test
  void niceFiveAgainstNiceZero_shareByWeight() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(
                host -> {
                  host.spawn(pinned("a", 2, 0), ScriptedWorkload.spin(), 0);
                  host.spawn(
                      new TaskSpec(
                          "b", SchedPolicy.NORMAL, 5, CpuMasks.of(2, 0), WorkClass.COMPUTE),
                      ScriptedWorkload.spin(),
                      0);
                })
            .build();
    sim.advanceTo(2000 * MS);
    double a = sim.task(0).sumExecNs;
    double b = sim.task(1).sumExecNs;
    assertThat(a / (a + b)).isCloseTo(1024.0 / (1024 + 335), within(0.02));
  }

  @Test
  void schedIdleTask_wakingNormalTask_preemptsAtOnce() {
    TaskProgram waker =
        new TaskProgram() {
          private int step;

          @Override
          public void next(TaskControl control) {
            step++;
            if (step == 1) {
              control.sleep(10 * MS);
            } else {
              control.run(1e9);
            }
          }
        };
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(
                host -> {
                  host.spawn(
                      new TaskSpec("bg", SchedPolicy.IDLE, 0, CpuMasks.of(2, 0), WorkClass.COMPUTE),
                      ScriptedWorkload.spin(),
                      0);
                  host.spawn(pinned("n", 2, 0), waker, 0);
                })
            .build();
    sim.advanceTo(10 * MS + 1);
    assertThat(sim.rq(0).curr).isSameAs(sim.task(1));
    sim.advanceTo(200 * MS);
    // SCHED_IDLE's weight is 3: it gets a sliver once the normal task runs.
    assertThat(sim.task(1).sumExecNs).isGreaterThan(185 * MS);
  }

  @Test
  void avgIdle_afterAnIdlePeriod_movesAnEighthTowardsTheSample() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(host -> host.spawn(pinned("a", 2, 1), ScriptedWorkload.runSleep(MS, 200_000), 1))
            .build();
    sim.advanceTo(MS + 100_000);
    CpuRunqueue rq = sim.rq(1);
    assertThat(rq.curr).isNull();
    long stamp = rq.idleStamp;
    long before = rq.avgIdle;
    assertThat(stamp).isPositive();
    assertThat(before).isEqualTo(1_000_000);
    sim.advanceTo(MS + 300_000);
    assertThat(rq.curr).isNotNull();
    long sample = rq.curr.execStartNs - stamp;
    assertThat(rq.avgIdle).isEqualTo(before + (sample - before) / 8);
  }

  @Test
  void idleToTaskSwitches_countSmtContentionBySiblingState() {
    EngineRun sim =
        EngineFixture.on("1n1l2c2t")
            .tasks(
                host -> {
                  host.spawn(pinned("a", 4, 0), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("b", 4, 2), ScriptedWorkload.spin(), 0);
                })
            .build();
    sim.advanceTo(MS / 2);
    assertThat(sim.stats.smtNoContention).isEqualTo(1);
    assertThat(sim.stats.smtContention).isEqualTo(1);
  }

  @Test
  void wastedCore_idleCpuBesideWaitingTask_accruesTheWholeTime() {
    EngineRun sim = EngineFixture.on("1n1l2c1t").duration(100 * MS).twoHogs(0).build();
    var result = sim.run();
    assertThat((double) result.wastedCoreNs()).isCloseTo(100.0 * MS, within(0.1 * MS));
    assertThat(result.anyWastedNs()).isEqualTo(result.wastedCoreNs());
  }

  @Test
  void wastedCore_oneTaskPerCpu_none() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .duration(100 * MS)
            .tasks(
                host -> {
                  host.spawn(pinned("a", 2, 0), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("b", 2, 1), ScriptedWorkload.spin(), 1);
                })
            .build();
    assertThat(sim.run().wastedCoreNs()).isZero();
  }

  @Test
  void work_progressesAtModelSpeed_andSlowsWhileSiblingBusy() {
    Topology topology = TestMachines.shape("1n1l2c2t");
    HardwareModel hw = TestMachines.hardware(topology, new TestMachines.SmtCoRun(topology, 0.5));
    EngineRun sim =
        EngineFixture.on(hw)
            .tasks(
                host -> {
                  host.spawn(pinned("a", 4, 0), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("b", 4, 1), ScriptedWorkload.spin(), 1);
                  host.spawn(pinned("c", 4, 3), ScriptedWorkload.runOnceThenBlock(50 * MS), 3);
                })
            .build();
    sim.advanceTo(100 * MS);
    sim.rq(0).updateCurr(sim.ctx.now());
    sim.rq(1).updateCurr(sim.ctx.now());
    // a runs alone on core {0,2}; b shares core {1,3} with c for 100 ms of c's 50 ms at half
    // speed, i.e. c needs 100 ms: b ran at half speed throughout.
    assertThat(sim.task(0).workDone).isCloseTo(100.0 * MS, within(0.1 * MS));
    assertThat(sim.task(1).workDone).isCloseTo(50.0 * MS, within(0.1 * MS));
    sim.advanceTo(200 * MS);
    sim.rq(1).updateCurr(sim.ctx.now());
    assertThat(sim.task(2).state).isEqualTo(TaskState.BLOCKED);
    assertThat(sim.task(1).workDone).isCloseTo(150.0 * MS, within(0.2 * MS));
  }

  @Test
  void balancing_eightTasksForkedOnFourCpus_endTwoPerCpu() {
    EngineRun sim =
        EngineFixture.on("1n1l4c1t")
            .tasks(
                host -> {
                  for (int i = 0; i < 8; i++) {
                    host.spawn(
                        new TaskSpec("t" + i, SchedPolicy.NORMAL, 0, null, WorkClass.COMPUTE),
                        ScriptedWorkload.spin(),
                        0);
                  }
                })
            .build();
    sim.advanceTo(500 * MS);
    for (int cpu = 0; cpu < 4; cpu++) {
      assertThat(sim.rq(cpu).nr).as("CPU %d", cpu).isEqualTo(2);
    }
  }

  @Test
  void balancing_cpuGoingIdleBesideOverloadedCpu_pullsTheMovableTask() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(
                host -> {
                  host.spawn(pinned("pinned", 2, 0), ScriptedWorkload.spin(), 0);
                  host.spawn(pinned("short", 2, 1), ScriptedWorkload.runOnceThenBlock(20 * MS), 1);
                  host.spawn(
                      new TaskSpec("free", SchedPolicy.NORMAL, 0, null, WorkClass.COMPUTE),
                      ScriptedWorkload.spin(),
                      0);
                })
            .build();
    sim.advanceTo(10 * MS);
    // Both CPUs were busy at fork time: the fork path kept the new task local.
    assertThat(sim.rq(0).nr).isEqualTo(2);
    sim.advanceTo(300 * MS);
    assertThat(sim.rq(0).nr).isEqualTo(1);
    assertThat(sim.rq(1).nr).isEqualTo(1);
    assertThat(sim.task(2).cpu).isEqualTo(1);
  }

  @Test
  void affinity_programSpawnsOutsideOnlineCpus_rejected() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(
                host ->
                    host.spawn(
                        new TaskSpec(
                            "x", SchedPolicy.NORMAL, 0, CpuMasks.empty(2), WorkClass.COMPUTE),
                        ScriptedWorkload.spin(),
                        0))
            .build();
    assertThatThrownBy(() -> sim.advanceTo(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no online CPU");
  }

  @Test
  void program_endingAStepWithoutAnAction_isReported() {
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(host -> host.spawn(pinned("x", 2, 0), control -> {}, 0))
            .build();
    assertThatThrownBy(() -> sim.advanceTo(MS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("without run, sleep, block or exit");
  }

  @Test
  void wakeBeforeBlock_isNotLost() {
    int[] runs = new int[1];
    EngineRun sim =
        EngineFixture.on("1n1l2c1t")
            .tasks(
                host -> {
                  int sleeper =
                      host.spawn(
                          pinned("s", 2, 1),
                          new TaskProgram() {
                            private boolean ran;

                            @Override
                            public void next(TaskControl control) {
                              if (!ran) {
                                ran = true;
                                control.run(5 * MS);
                              } else {
                                runs[0]++;
                                control.block();
                              }
                            }
                          },
                          1);
                  host.spawn(
                      pinned("w", 2, 0),
                      new TaskProgram() {
                        private boolean woke;

                        @Override
                        public void next(TaskControl control) {
                          if (!woke) {
                            woke = true;
                            control.wake(sleeper);
                          }
                          control.run(1e9);
                        }
                      },
                      0);
                })
            .build();
    sim.advanceTo(20 * MS);
    // The wake came while s was running; its first block consumed it, its second blocked.
    assertThat(runs[0]).isEqualTo(2);
    assertThat(sim.task(0).state).isEqualTo(TaskState.BLOCKED);
  }
}
