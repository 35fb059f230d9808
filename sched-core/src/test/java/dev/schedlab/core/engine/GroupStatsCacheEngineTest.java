package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.LoadBalancer;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.core.workload.BarrierWorkloadProvider;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The balancer's reuse of unchanged searches (the group statistics cache and the balanced-attempt
 * memo) changes no result: whole simulations give the same fingerprint and {@code /proc/schedstat}
 * text with it as without, on machines with SMT2, SMT4, several LLCs and NUMA nodes; with the full
 * invariant checks every reuse and every would-be replay is checked against a fresh search, and
 * without them the replays are taken.
 */
final class GroupStatsCacheEngineTest {

  private static final String[] SHAPES = {"2n1l4c2t", "1n2l4c4t", "4n2l2c2t", "1n1l6c1t"};

  private record Outcome(SimulationResult result, long reused, long replayed) {}

  private static Outcome run(
      String shape, WorkloadProvider workload, boolean cache, boolean invariants) {
    boolean saved = Engine.groupStatsCache;
    Engine.groupStatsCache = cache;
    try {
      Topology topology = TestMachines.shape(shape);
      HardwareModel hw = TestMachines.hardware(topology, new TestMachines.SmtCoRun(topology, 0.6));
      EngineSetup base =
          TestMachines.setup(hw, PolicyBinding.withDefaults(workload), 200_000_000L, 5);
      EngineSetup setup =
          new EngineSetup(
              base.hardware(),
              base.domainOptions(),
              base.ilbSelector(),
              base.nohzIdleTracking(),
              base.balancePasses(),
              base.wakeupPolicies(),
              base.workload(),
              base.seed(),
              base.durationNs(),
              base.hz(),
              base.engine().withCheckInvariants(invariants),
              base.balancer(),
              base.costModel());
      Simulation simulation = new Simulation(setup);
      SimulationResult result = simulation.run();
      LoadBalancer balancer = simulation.engine().balancer;
      return new Outcome(result, balancer.groupStatsReused(), balancer.balancedAttemptsReplayed());
    } finally {
      Engine.groupStatsCache = saved;
    }
  }

  @Test
  void reuseOnAndOff_identicalResults() {
    long replayed = 0;
    for (String shape : SHAPES) {
      for (WorkloadProvider workload :
          new WorkloadProvider[] {
            new DeterminismTest.RandomSleepers(), new BarrierWorkloadProvider()
          }) {
        String what = shape + " " + workload.descriptor().id();
        Outcome without = run(shape, workload, false, false);
        Outcome checked = run(shape, workload, true, true);
        Outcome taken = run(shape, workload, true, false);
        assertThat(without.reused()).as(what).isZero();
        assertThat(checked.reused()).as(what + ": the cache was used").isPositive();
        assertThat(checked.replayed()).as(what + ": replays are checked, not taken").isZero();
        replayed += taken.replayed();
        for (Outcome with : new Outcome[] {checked, taken}) {
          assertThat(with.result().fingerprint())
              .as(what)
              .isEqualTo(without.result().fingerprint());
          assertThat(with.result().schedstat().toProcText())
              .as(what)
              .isEqualTo(without.result().schedstat().toProcText());
        }
      }
    }
    assertThat(replayed).as("attempts were replayed").isPositive();
  }
}
