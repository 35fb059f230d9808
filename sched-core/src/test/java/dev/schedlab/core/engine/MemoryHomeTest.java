package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * A memory-bound task's home node is the node it first runs on (first touch) and does not follow
 * later migrations; the engine counts running memory-bound tasks both by the node they run on and
 * by their home node. Machine {@code 2n1l2c1t}: node 0 = CPUs 0-1, node 1 = CPUs 2-3.
 */
final class MemoryHomeTest {

  @Test
  void homeIsTheFirstNode_andStaysThereAfterAMove() {
    EngineRun sim =
        EngineFixture.on("2n1l2c1t")
            .tasks(
                host -> {
                  host.spawn(
                      new TaskSpec(
                          "hog", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 1), WorkClass.COMPUTE),
                      ScriptedWorkload.spin(),
                      1);
                  host.spawn(
                      new TaskSpec("m", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 0), WorkClass.MEMORY),
                      ScriptedWorkload.spin(),
                      0);
                  host.spawn(
                      new TaskSpec(
                          "w",
                          SchedPolicy.NORMAL,
                          19,
                          CpuMasks.of(4, 0, 1, 2, 3),
                          WorkClass.MEMORY),
                      ScriptedWorkload.spin(),
                      0);
                })
            .build();
    PerfStateView view = sim.perfView;
    sim.advanceTo(1);
    Task m = sim.task(1);
    assertThat(m.state).isEqualTo(TaskState.RUNNING);
    assertThat(view.memoryHomeNode(m.id)).isZero();
    Task w = sim.task(2);
    if (w.memoryHomeNode < 0) {
      // Not run yet: no home.
      assertThat(view.memoryHomeNode(w.id)).isEqualTo(-1);
    }
    // Let w run somewhere, then move it across nodes while it waits or runs.
    sim.advanceTo(50_000_000);
    int home = w.memoryHomeNode;
    assertThat(home).isBetween(0, 1);
    int other = 1 - home;
    int homeRunning = view.memoryBoundHomedRunning(home);
    int otherRunning = view.memoryBoundHomedRunning(other);
    // Every running memory-bound task is counted once by home and once by running node.
    assertThat(homeRunning + otherRunning)
        .isEqualTo(view.memoryBoundRunning(0) + view.memoryBoundRunning(1));
    assertThat(view.memoryBoundHomedRunning(home, 0) + view.memoryBoundHomedRunning(home, 1))
        .isEqualTo(homeRunning);
    if (w.state == TaskState.QUEUED) {
      int dst = home == 0 ? 2 : 0;
      sim.engine.fair.migrateQueuedTask(w.id, dst);
      sim.advanceTo(100_000_000);
    }
    assertThat(w.memoryHomeNode).isEqualTo(home);
    // m is pinned to node 0 and ran there first: it always runs at home.
    assertThat(view.memoryBoundHomedRunning(0, 0)).isGreaterThanOrEqualTo(1);
  }

  /**
   * A spin is a poll loop: while a memory-bound task spins it does compute work, is not counted
   * among its node's running memory-bound tasks, and touches no pages (no home yet); its first real
   * run sets the home and counts.
   */
  @Test
  void spinOfAMemoryBoundTask_isComputeWork_andDoesNotFirstTouch() {
    TaskProgram spinThenRun =
        new TaskProgram() {
          private int step;

          @Override
          public void next(TaskControl control) {
            switch (step++) {
              case 0 -> control.spin(5_000);
              case 1 -> control.run(5_000);
              default -> control.block();
            }
          }
        };
    EngineRun sim =
        EngineFixture.on("2n1l2c1t")
            .tasks(
                host ->
                    host.spawn(
                        new TaskSpec(
                            "m", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 2), WorkClass.MEMORY),
                        spinThenRun,
                        2))
            .build();
    PerfStateView view = sim.perfView;

    sim.advanceTo(1_000);
    Task m = sim.task(0);
    assertThat(m.state).isEqualTo(TaskState.RUNNING);
    assertThat(view.workClass(m.id)).isEqualTo(WorkClass.COMPUTE);
    assertThat(view.memoryBoundRunning(1)).isZero();
    assertThat(view.memoryHomeNode(m.id)).isEqualTo(-1);

    sim.advanceTo(7_000);
    assertThat(view.workClass(m.id)).isEqualTo(WorkClass.MEMORY);
    assertThat(view.memoryBoundRunning(1)).isEqualTo(1);
    assertThat(view.memoryHomeNode(m.id)).isEqualTo(1);

    sim.advanceTo(20_000);
    assertThat(m.state).isEqualTo(TaskState.BLOCKED);
    assertThat(view.memoryBoundRunning(1)).isZero();
  }

  /**
   * A task homed on node 0 but running on node 1 shares node 0's controllers with the tasks running
   * at home there: when one of them starts memory-bound work, the engine asks the performance model
   * again for the one away (the engine once re-asked only when the changing task itself ran away
   * from its home, so the task away kept its old speed until its next timer).
   */
  @Test
  void taskAwayFromHome_isReaskedWhenATaskAtHomeStartsMemoryWork() {
    Topology topology = TestMachines.shape("2n1l2c1t");
    EngineRun sim =
        EngineFixture.on(TestMachines.hardware(topology, new HomeDemand()))
            .tasks(
                host -> {
                  host.spawn(
                      new TaskSpec(
                          "away", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 2), WorkClass.MEMORY),
                      spinThenMemory(100_000),
                      2);
                  host.spawn(
                      new TaskSpec(
                          "local", SchedPolicy.NORMAL, 0, CpuMasks.of(4, 0), WorkClass.MEMORY),
                      spinThenMemory(1_000_000),
                      0);
                })
            .build();
    sim.advanceTo(50_000);
    // Before its first memory access: its memory was placed on node 0 (as after a migration).
    sim.task(0).memoryHomeNode = 0;
    sim.advanceTo(500_000);
    assertThat(sim.task(0).state).isEqualTo(TaskState.RUNNING);
    assertThat(sim.rq(2).speed).isEqualTo(0.5);

    sim.advanceTo(1_500_000);
    assertThat(sim.perfView.workClass(sim.task(1).id)).isEqualTo(WorkClass.MEMORY);
    assertThat(sim.perfView.memoryBoundHomedRunning(0)).isEqualTo(2);
    assertThat(sim.rq(2).speed).isEqualTo(1.0 / 3);
  }

  /** Polls (compute work, no first touch) for {@code spinNs}, then does memory-bound work. */
  private static TaskProgram spinThenMemory(long spinNs) {
    return new TaskProgram() {
      private int step;

      @Override
      public void next(TaskControl control) {
        switch (step++) {
          case 0 -> control.spin(spinNs);
          case 1 -> control.run(100_000_000);
          default -> control.block();
        }
      }
    };
  }

  /** A memory-bound task runs at 1 / (1 + the memory-bound tasks running homed on its home). */
  private static final class HomeDemand implements PerformanceModel {
    @Override
    public double speed(int cpu, int taskId, PerfStateView state) {
      int home = state.memoryHomeNode(taskId);
      if (state.workClass(taskId) != WorkClass.MEMORY || home < 0) {
        return 1.0;
      }
      return 1.0 / (1 + state.memoryBoundHomedRunning(home));
    }

    @Override
    public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
      return Long.MAX_VALUE;
    }
  }
}
