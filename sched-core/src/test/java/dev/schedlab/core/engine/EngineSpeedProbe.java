package dev.schedlab.core.engine;

import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.core.workload.BarrierWorkloadProvider;
import dev.schedlab.core.workload.CpuBoundWorkloadProvider;
import dev.schedlab.spi.WorkloadProvider;
import java.util.List;
import java.util.Locale;

/**
 * Measures the engine's speed (simulated seconds per wall second, events per second) outside the
 * test suite, which never times anything: {@code java ... EngineSpeedProbe [shape] [cpu|gemm]
 * [seconds] [repeats]}. Uses the unit-speed performance model, HZ 1000, invariants off; the first
 * repeat includes JIT warm-up.
 */
public final class EngineSpeedProbe {

  private EngineSpeedProbe() {}

  public static void main(String[] args) {
    String shape = args.length > 0 ? args[0] : "2n1l88c2t";
    String workload = args.length > 1 ? args[1] : "cpu";
    long seconds = args.length > 2 ? Long.parseLong(args[2]) : 10;
    int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    var hardware = TestMachines.unit(shape);
    for (int rep = 0; rep < repeats; rep++) {
      PolicyBinding<WorkloadProvider> binding =
          workload.equals("cpu")
              ? PolicyBinding.withDefaults(new CpuBoundWorkloadProvider())
              : PolicyBinding.withDefaults(new BarrierWorkloadProvider());
      EngineSetup base = TestMachines.setup(hardware, binding, seconds * 1_000_000_000L, 7);
      EngineSetup setup =
          new EngineSetup(
              base.hardware(),
              base.domainOptions(),
              null,
              null,
              List.of(),
              List.of(),
              base.workload(),
              base.seed(),
              base.durationNs(),
              base.hz(),
              base.engine().withCheckInvariants(false),
              base.balancer(),
              base.costModel());
      SimulationResult result = new Simulation(setup).run();
      System.out.printf(
          Locale.ROOT,
          "%s %s %d s: %.2f simulated s per wall s, %.3g events/s (%d events, %.2f s wall)%n",
          shape,
          workload,
          seconds,
          result.simulatedPerWallSecond(),
          result.performance().eventsPerSecond(),
          result.performance().eventsProcessed(),
          result.performance().wallNs() / 1e9);
      if (rep == 0) {
        System.out.print(result.summary());
      }
    }
  }
}
