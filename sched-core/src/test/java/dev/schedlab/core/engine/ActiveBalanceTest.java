package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.AlbField;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * Active balancing moves a task that is running: the stopper preempts it on the busiest CPU, so a
 * lone CPU-bound task on a little CPU (a misfit) ends up on the idle big CPU, which no periodic
 * pass can do because detach_tasks never takes a running task.
 */
final class ActiveBalanceTest {

  private static final long MS = 1_000_000;

  /** CPU 0 little (capacity 512), CPU 1 big (1024), one LLC. */
  private static Topology bigLittle() {
    return Topology.builder(2)
        .name("big.LITTLE 1+1")
        .addCpu(0, 0, 0, 0, 0, 0, 0)
        .addCpu(1, 0, 0, 0, 1, 1, 0)
        .capacity(0, 512)
        .capacity(1, 1024)
        .build();
  }

  @Test
  void misfit_loneTaskOnLittleCpu_isPushedToIdleBigCpuByTheStopper() {
    Topology topology = bigLittle();
    EngineRun sim =
        EngineFixture.on(TestMachines.hardware(topology, new TestMachines.UnitSpeed(topology)))
            .tasks(
                host -> {
                  // Keeps the big CPU busy while the hog is forked, so the hog starts little.
                  host.spawn(
                      new TaskSpec(
                          "blocker",
                          SchedPolicy.NORMAL,
                          0,
                          dev.schedlab.cpumask.CpuMasks.of(2, 1),
                          WorkClass.COMPUTE),
                      ScriptedWorkload.runOnceThenBlock(5 * MS),
                      1);
                  host.spawn(
                      new TaskSpec("hog", SchedPolicy.NORMAL, 0, null, WorkClass.COMPUTE),
                      ScriptedWorkload.spin(),
                      0);
                })
            .build();
    sim.advanceTo(1 * MS);
    assertThat(sim.task(1).cpu).as("hog starts on the little CPU").isEqualTo(0);
    sim.advanceTo(2_000 * MS);
    assertThat(sim.task(1).cpu).isEqualTo(1);
    long pushed = 0;
    var stats = sim.balancer.stats();
    for (int level = 0; level < sim.domains.maxLevels(); level++) {
      pushed += stats.albTotal(level, AlbField.PUSHED);
    }
    assertThat(pushed).isPositive();
  }
}
