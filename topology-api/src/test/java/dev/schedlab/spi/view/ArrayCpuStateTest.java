package dev.schedlab.spi.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrayCpuState} keeps its incrementally maintained figures equal to their definitions after
 * every change of a random sequence: {@code idleMask()} is the CPUs with {@code nr_running} 0,
 * {@code idleCoreMask()} those of them whose online SMT siblings are all idle ({@code
 * is_core_idle()} over {@code cpu_smt_mask()}, offline CPUs left out), {@code totalNrRunning()} and
 * {@code activeCpuCount()} sums over the active CPUs; on SMT1, SMT2 and SMT4 machines and on one
 * with offline CPUs.
 */
final class ArrayCpuStateTest {

  @Test
  void randomChanges_smt1To4AndOfflineCpus_maintainedFiguresMatchTheirDefinitions() {
    SplittableRandom random = new SplittableRandom(17);
    for (Topology topology :
        new Topology[] {
          Shape.parse("1n2l4c1t").toTopology(SiblingNumbering.SPLIT),
          Shape.parse("2n1l8c2t").toTopology(SiblingNumbering.SPLIT),
          Shape.parse("1n1l4c4t").toTopology(SiblingNumbering.ADJACENT),
          withOfflineSiblings()
        }) {
      ArrayCpuState state = new ArrayCpuState(topology);
      check(state);
      for (int step = 0; step < 2_000; step++) {
        int cpu = random.nextInt(topology.nrCpuIds());
        switch (random.nextInt(5)) {
          case 0 -> state.nrRunning(cpu, random.nextInt(3));
          case 1 -> state.idle(cpu, random.nextBoolean());
          case 2 -> state.active(cpu, random.nextBoolean());
          case 3 -> state.schedIdleRq(cpu, random.nextBoolean());
          default -> state.allIdle(random.nextInt(4) == 0);
        }
        check(state);
      }
    }
  }

  @Test
  void isCoreIdle_offlineSiblingBusy_doesNotCount() {
    ArrayCpuState state = new ArrayCpuState(withOfflineSiblings());
    // CPUs 0 and 4 are one core; 4 is offline, and a task "on" it is not in cpu_smt_mask().
    state.idle(4, false);

    assertThat(state.isCoreIdle(0)).isTrue();
    assertThat(state.idleCoreMask().test(0)).isTrue();
    state.idle(5, false);
    assertThat(state.isCoreIdle(1)).isFalse();
    assertThat(state.idleCoreMask().test(1)).isFalse();
  }

  @Test
  void idleExactly_andNohzIdleExactly_setBothMasksIndependently() {
    Topology topology = Shape.parse("1n1l4c2t").toTopology(SiblingNumbering.SPLIT);
    CpuMask idle = CpuMasks.parseCpuList("1-3,7", 8);
    ArrayCpuState state =
        new ArrayCpuState(topology)
            .idleExactly(idle)
            .nohzIdleExactly(CpuMasks.parseCpuList("1,4", 8));

    assertThat(state.idleMask().toCpuList()).isEqualTo("1-3,7");
    // Only core 3 (CPUs 3 and 7) is fully idle.
    assertThat(state.idleCoreMask().toCpuList()).isEqualTo("3,7");
    assertThat(state.isTickStopped(4)).isTrue();
    assertThat(state.isIdle(4)).isFalse();
    assertThat(state.totalNrRunning()).isEqualTo(4);
  }

  @Test
  void schedIdleRq_onIdleCpu_queuesATask() {
    ArrayCpuState state = new ArrayCpuState(Shape.parse("4c").toTopology(SiblingNumbering.SPLIT));

    state.schedIdleRq(2, true);

    assertThat(state.isSchedIdleRq(2)).isTrue();
    assertThat(state.isIdle(2)).isFalse();
    assertThat(state.nrRunning(2)).isEqualTo(1);
  }

  @Test
  void nrRunning_negative_isRefused() {
    ArrayCpuState state = new ArrayCpuState(Shape.parse("4c").toTopology(SiblingNumbering.SPLIT));

    assertThatThrownBy(() -> state.nrRunning(1, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CPU 1");
  }

  /** Four 2-thread cores, siblings n and n + 4; CPUs 4 and 6 offline. */
  private static Topology withOfflineSiblings() {
    TopologyBuilder builder = Topology.builder(8).name("offline-siblings");
    for (int cpu = 0; cpu < 8; cpu++) {
      builder.addCpu(cpu, 0, 0, 0, TopologyBuilder.UNKNOWN, cpu % 4, 0);
    }
    return builder.offline(4).offline(6).build();
  }

  private static void check(ArrayCpuState state) {
    Topology topology = state.topology();
    long running = 0;
    int active = 0;
    for (int cpu = 0; cpu < state.nrCpuIds(); cpu++) {
      boolean idle = state.nrRunning(cpu) == 0;
      boolean coreIdle = true;
      CpuMask smt = topology.smtSiblings(cpu);
      for (int s = smt.first(); s != CpuMask.NO_CPU; s = smt.next(s)) {
        coreIdle &= s == cpu || !topology.isOnline(s) || state.nrRunning(s) == 0;
      }
      assertThat(state.isIdle(cpu)).isEqualTo(idle);
      assertThat(state.idleMask().test(cpu)).as("idleMask CPU %d", cpu).isEqualTo(idle);
      assertThat(state.isCoreIdle(cpu)).as("isCoreIdle CPU %d", cpu).isEqualTo(coreIdle);
      assertThat(state.idleCoreMask().test(cpu))
          .as("idleCoreMask CPU %d on %s", cpu, topology.name())
          .isEqualTo(idle && coreIdle);
      if (state.isActive(cpu)) {
        running += state.nrRunning(cpu);
        active++;
      }
    }
    assertThat(state.totalNrRunning()).isEqualTo(running);
    assertThat(state.activeCpuCount()).isEqualTo(active);
  }
}
