package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
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
}
