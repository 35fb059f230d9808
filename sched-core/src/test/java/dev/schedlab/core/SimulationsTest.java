package dev.schedlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.core.workload.BarrierWorkloadProvider;
import dev.schedlab.core.workload.CpuBoundWorkloadProvider;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The public entry point: a {@link SimulationConfig} goes through the Dagger component to a
 * finished run; policy plugins named by id come from a registry handed in as data, and their
 * parameters and counters reach the engine and the result.
 */
final class SimulationsTest {

  private static HardwareModel machine(String shape) {
    Topology topology = Shape.parse(shape).toTopology(SiblingNumbering.SPLIT);
    PerformanceModel unit =
        new PerformanceModel() {
          @Override
          public double speed(int cpu, int taskId, PerfStateView state) {
            return 1.0;
          }

          @Override
          public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
            return Long.MAX_VALUE;
          }
        };
    MachineFacts facts = new MachineFacts(3e9, 16, 1e11, "test");
    return new HardwareModel() {
      @Override
      public Topology topology() {
        return topology;
      }

      @Override
      public PerformanceModel performanceModel() {
        return unit;
      }

      @Override
      public MachineFacts facts() {
        return facts;
      }
    };
  }

  /** An ILB selector that counts its calls and picks the highest idle CPU. */
  public static final class LastIdleSelectorProvider implements IlbSelectorProvider {
    @Override
    public PluginDescriptor descriptor() {
      return PluginDescriptor.builder("test.ilb.last-idle", PluginKind.ILB_SELECTOR)
          .description("highest idle CPU")
          .build();
    }

    @Override
    public IlbSelector create(PolicyContext context) {
      var calls = context.counter("calls");
      return new IlbSelector() {
        @Override
        public int findNewIlb(int thisCpu, CpuMask nohz, CpuMask hk, CpuStateView state) {
          calls.increment();
          for (int cpu = nohz.last(); cpu >= 0; cpu--) {
            if (nohz.test(cpu) && hk.test(cpu) && state.isIdle(cpu)) {
              return cpu;
            }
          }
          return CpuMask.NO_CPU;
        }

        @Override
        public int lastExamined() {
          return 1;
        }
      };
    }
  }

  @Test
  void run_cpuBoundConfig_completesWithResult() {
    SimulationConfig config =
        SimulationConfig.builder(
                machine("1n1l4c2t"), PolicyBinding.withDefaults(new CpuBoundWorkloadProvider()))
            .durationNs(100_000_000)
            .seed(3)
            .build();
    SimulationResult result = Simulations.run(config);
    assertThat(result.nrCpus()).isEqualTo(8);
    assertThat(result.simulatedNs()).isEqualTo(100_000_000);
    assertThat(result.workload().metric()).isEqualTo("throughput");
    assertThat(result.schedstat().toProcText()).startsWith("version 17\n");
    assertThat(result.levelNames()).containsExactly("SMT", "MC");
  }

  @Test
  void policies_fromRegistry_reachTheEngineAndCountersTheResult() {
    PluginRegistry registry = PluginRegistry.of(List.of(new LastIdleSelectorProvider()));
    SimulationConfig config =
        SimulationConfig.builder(
                machine("1n1l4c2t"), PolicyBinding.withDefaults(new BarrierWorkloadProvider()))
            .policies(registry, List.of(PluginRef.of("test.ilb.last-idle")))
            .durationNs(200_000_000)
            .build();
    SimulationResult result = Simulations.run(config);
    assertThat(result.pluginCounters()).containsKey("test.ilb.last-idle.calls");
    assertThat(result.pluginCounters().get("test.ilb.last-idle.calls"))
        .isEqualTo(result.ilb().kickCalls());
    long[] chosen = result.ilb().chosenPerCpu();
    assertThat(chosen[7]).isPositive();
  }

  @Test
  void policies_unknownId_rejectedWithNearestName() {
    PluginRegistry registry = PluginRegistry.of(List.of(new LastIdleSelectorProvider()));
    var builder =
        SimulationConfig.builder(
            machine("1n1l4c2t"), PolicyBinding.withDefaults(new CpuBoundWorkloadProvider()));
    assertThatThrownBy(() -> builder.policies(registry, List.of(PluginRef.of("test.ilb.last"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test.ilb.last-idle");
  }

  @Test
  void workloadParameters_outOfRange_rejectedWhenResolved() {
    var provider = new CpuBoundWorkloadProvider();
    assertThatThrownBy(() -> provider.descriptor().resolve(Map.of("nice", "40")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-20..19");
  }

  @Test
  void run_twice_onOneSimulation_rejected() {
    SimulationConfig config =
        SimulationConfig.builder(
                machine("1n1l2c1t"), PolicyBinding.withDefaults(new CpuBoundWorkloadProvider()))
            .durationNs(10_000_000)
            .build();
    var simulation = Simulations.create(config);
    simulation.run();
    assertThatThrownBy(simulation::run).isInstanceOf(IllegalStateException.class);
  }
}
