package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.core.workload.BarrierWorkloadProvider;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The balancer's group statistics cache changes no result: whole simulations (invariants on, so
 * every reuse is also checked against a fresh scan) give the same fingerprint and {@code
 * /proc/schedstat} text with the cache as without, on machines with SMT2, SMT4, several LLCs and
 * NUMA nodes, and the cache is actually used.
 */
final class GroupStatsCacheEngineTest {

  private static final String[] SHAPES = {"2n1l4c2t", "1n2l4c4t", "4n2l2c2t", "1n1l6c1t"};

  private record Outcome(SimulationResult result, long reused) {}

  private static Outcome run(String shape, WorkloadProvider workload, boolean cache) {
    boolean saved = Engine.groupStatsCache;
    Engine.groupStatsCache = cache;
    try {
      Topology topology = TestMachines.shape(shape);
      HardwareModel hw = TestMachines.hardware(topology, new TestMachines.SmtCoRun(topology, 0.6));
      Simulation simulation =
          new Simulation(
              TestMachines.setup(hw, PolicyBinding.withDefaults(workload), 200_000_000L, 5));
      SimulationResult result = simulation.run();
      return new Outcome(result, simulation.engine().balancer.groupStatsReused());
    } finally {
      Engine.groupStatsCache = saved;
    }
  }

  @Test
  void cacheOnAndOff_identicalResults() {
    for (String shape : SHAPES) {
      for (WorkloadProvider workload :
          new WorkloadProvider[] {
            new DeterminismTest.RandomSleepers(), new BarrierWorkloadProvider()
          }) {
        String what = shape + " " + workload.descriptor().id();
        Outcome with = run(shape, workload, true);
        Outcome without = run(shape, workload, false);
        assertThat(with.reused()).as(what + ": the cache was used").isPositive();
        assertThat(without.reused()).as(what).isZero();
        assertThat(with.result().fingerprint()).as(what).isEqualTo(without.result().fingerprint());
        assertThat(with.result().schedstat().toProcText())
            .as(what)
            .isEqualTo(without.result().schedstat().toProcText());
      }
    }
  }
}
