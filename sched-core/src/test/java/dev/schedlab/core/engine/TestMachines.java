package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceCostModel;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomainOptions;
import java.util.List;

/** Machines, performance models and setups for engine tests. */
final class TestMachines {

  static final MachineFacts FACTS = new MachineFacts(3.0e9, 16, 1.0e11, "test machine");

  private TestMachines() {}

  /** Every thread runs at {@code capacity / 1024} regardless of its neighbours. */
  static final class UnitSpeed implements PerformanceModel {
    private final Topology topology;

    UnitSpeed(Topology topology) {
      this.topology = topology;
    }

    @Override
    public double speed(int cpu, int taskId, PerfStateView state) {
      return topology.capacity(cpu) / 1024.0;
    }

    @Override
    public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
      return Long.MAX_VALUE;
    }
  }

  /** A thread runs at {@code coRun} while any SMT sibling is busy, else at full speed. */
  static final class SmtCoRun implements PerformanceModel {
    private final Topology topology;
    private final double coRun;

    SmtCoRun(Topology topology, double coRun) {
      this.topology = topology;
      this.coRun = coRun;
    }

    @Override
    public double speed(int cpu, int taskId, PerfStateView state) {
      var smt = topology.smtSiblings(cpu);
      for (int s = smt.first(); s >= 0; s = smt.next(s)) {
        if (s != cpu && state.isBusy(s)) {
          return coRun;
        }
      }
      return 1.0;
    }

    @Override
    public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
      return Long.MAX_VALUE;
    }
  }

  static HardwareModel hardware(Topology topology, PerformanceModel model) {
    return new HardwareModel() {
      @Override
      public Topology topology() {
        return topology;
      }

      @Override
      public PerformanceModel performanceModel() {
        return model;
      }

      @Override
      public MachineFacts facts() {
        return FACTS;
      }
    };
  }

  static Topology shape(String shape) {
    return Shape.parse(shape).toTopology(SiblingNumbering.SPLIT);
  }

  static HardwareModel unit(String shape) {
    Topology topology = shape(shape);
    return hardware(topology, new UnitSpeed(topology));
  }

  /** A setup with the built-in policies and default options, invariants on. */
  static EngineSetup setup(
      HardwareModel hardware,
      PolicyBinding<WorkloadProvider> workload,
      long durationNs,
      long seed) {
    return new EngineSetup(
        hardware,
        SchedDomainOptions.defaults(),
        null,
        null,
        List.of(),
        List.of(),
        workload,
        seed,
        durationNs,
        1000,
        EngineOptions.defaults().withoutBackground().withCheckInvariants(true),
        BalancerOptions.defaults(),
        BalanceCostModel.defaults());
  }
}
