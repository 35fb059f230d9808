package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.stats.CpuTime;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.core.workload.BarrierWorkloadProvider;
import dev.schedlab.core.workload.CpuBoundWorkloadProvider;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ten simulated seconds of a 352-CPU machine (2 nodes × 88 cores × SMT2, siblings n/n+176, as Vera)
 * with the invariant checker on: a CPU-bound task per CPU keeps every CPU busy with no invariant
 * broken; a one-thread-per-core barrier workload exercises wakeups, newidle and NOHZ idle balancing
 * for a shorter time.
 */
final class SoakTest {

  @Test
  void vera352_cpuBound_tenSeconds_everyCpuBusyAndInvariantsHold() {
    var hw = TestMachines.unit("2n1l88c2t");
    var setup =
        TestMachines.setup(
            hw, PolicyBinding.withDefaults(new CpuBoundWorkloadProvider()), 10_000_000_000L, 11);
    SimulationResult result = new Simulation(setup).run();
    assertThat(result.nrCpus()).isEqualTo(352);
    assertThat(result.simulatedNs()).isEqualTo(10_000_000_000L);
    for (CpuTime time : result.cpuTimes()) {
      assertThat(time.idleNs()).as("CPU %d idle", time.cpu()).isLessThan(1_000_000);
    }
    // 352 tasks × 10 s, minus each task's unfinished 10 ms chunk and balancing overhead.
    assertThat(result.workload().extra().get("chunks")).isGreaterThan(352 * 995.0);
    assertThat(result.ilb().ipis()).isZero();
  }

  @Test
  void vera352_barrierOnePerCore_oneSecond_invariantsHold() {
    var hw = TestMachines.unit("2n1l88c2t");
    var provider = new BarrierWorkloadProvider();
    var binding =
        new PolicyBinding<dev.schedlab.spi.WorkloadProvider>(
            provider, provider.descriptor().resolve(Map.of("work_us", "2000")));
    var setup = TestMachines.setup(hw, binding, 1_000_000_000L, 5);
    SimulationResult result = new Simulation(setup).run();
    assertThat(result.workload().extra().get("iterations")).isGreaterThan(400.0);
    assertThat(result.ilb().runs()).isPositive();
    assertThat(result.softirqs()).isPositive();
    assertThat(result.smtContention() + result.smtNoContention()).isPositive();
  }
}
