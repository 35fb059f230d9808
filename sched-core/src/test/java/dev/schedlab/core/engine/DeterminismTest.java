package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.core.workload.BarrierWorkloadProvider;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.topology.Topology;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * A run is a function of its configuration and master seed: the same seed gives identical results
 * (every counter, histogram and the schedstat text), another seed gives different ones.
 */
final class DeterminismTest {

  /** Tasks that run and sleep for random times drawn from the workload's stream. */
  static final class RandomSleepers implements WorkloadProvider {
    @Override
    public PluginDescriptor descriptor() {
      return PluginDescriptor.builder("test.random-sleepers", PluginKind.WORKLOAD)
          .description("random run/sleep tasks")
          .build();
    }

    @Override
    public Workload create(WorkloadContext context) {
      RandomGenerator random = context.random();
      return new Workload() {
        @Override
        public void start(WorkloadHost host) {
          for (int i = 0; i < 24; i++) {
            host.spawn(
                TaskSpec.normal("r" + i),
                new TaskProgram() {
                  private boolean running;

                  @Override
                  public void next(TaskControl control) {
                    running = !running;
                    if (running) {
                      control.run(50_000 + random.nextInt(2_000_000));
                    } else {
                      control.sleep(10_000 + random.nextInt(3_000_000));
                    }
                  }
                },
                0);
          }
        }

        @Override
        public WorkloadResult result(long simulatedNs) {
          return new WorkloadResult("none", 0, "", true, Map.of());
        }
      };
    }
  }

  private static SimulationResult run(WorkloadProvider workload, long seed) {
    Topology topology = TestMachines.shape("2n1l4c2t");
    HardwareModel hw = TestMachines.hardware(topology, new TestMachines.SmtCoRun(topology, 0.6));
    return new Simulation(
            TestMachines.setup(hw, PolicyBinding.withDefaults(workload), 300_000_000L, seed))
        .run();
  }

  @Test
  void randomWorkload_sameSeedTwice_identicalResults() {
    SimulationResult a = run(new RandomSleepers(), 42);
    SimulationResult b = run(new RandomSleepers(), 42);
    assertThat(a.fingerprint()).isEqualTo(b.fingerprint());
    assertThat(a.performance().eventsProcessed()).isEqualTo(b.performance().eventsProcessed());
  }

  @Test
  void randomWorkload_differentSeeds_differ() {
    SimulationResult a = run(new RandomSleepers(), 42);
    SimulationResult b = run(new RandomSleepers(), 43);
    assertThat(a.fingerprint()).isNotEqualTo(b.fingerprint());
  }

  @Test
  void barrierWorkload_sameSeedTwice_identicalSchedstat() {
    SimulationResult a = run(new BarrierWorkloadProvider(), 7);
    SimulationResult b = run(new BarrierWorkloadProvider(), 7);
    assertThat(a.schedstat().toProcText()).isEqualTo(b.schedstat().toProcText());
    assertThat(a.fingerprint()).isEqualTo(b.fingerprint());
  }
}
