package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * An offline SMT thread does not keep its core from being idle: the kernel's {@code cpu_smt_mask()}
 * loses a CPU at hotplug, so {@code is_core_idle()} and {@code select_idle_core()} look at the
 * online threads only (hwloc's {@code 16em64t-4s2c2t-offlines} has such cores).
 */
final class OfflineSiblingTest {

  /** Two SMT2 cores, CPUs 0/2 and 1/3; CPU 3 offline. */
  private static Topology topology() {
    TopologyBuilder b = Topology.builder(4).name("offline-sibling");
    for (int cpu = 0; cpu < 4; cpu++) {
      b.addCpu(cpu, 0, 0, 0, cpu % 2, cpu % 2, 0);
    }
    return b.offline(3).build();
  }

  @Test
  void aCoreWhoseOtherThreadIsOfflineIsIdleWhenItsOnlineThreadIs() {
    EngineRun sim =
        EngineFixture.on(TestMachines.hardware(topology(), new TestMachines.UnitSpeed(topology())))
            .duration(1_000_000L)
            .build();
    assertThat(sim.state.isIdle(1)).isTrue();
    assertThat(sim.state.isCoreIdle(1)).isTrue();
    assertThat(sim.state.idleCoreMask().test(1)).isTrue();
    assertThat(sim.state.idleCoreMask().test(3)).isFalse();
    assertThat(sim.state.siblingsOf()[1]).isEmpty();
    assertThat(sim.state.siblingsOf()[0]).containsExactly(2);
  }
}
