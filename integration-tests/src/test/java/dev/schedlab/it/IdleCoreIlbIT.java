package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.engine.SimulationListener;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.HardwareModel;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * seeds-digest §1 through the real engine: on Vera with GEMM confined to node 0 (one thread per
 * core, forked from CPU 0 and placed on either sibling by fork balancing), first-idle picks
 * idle CPUs whose SMT sibling runs a GEMM thread as ILB, idle-core never does while a fully
 * idle core exists, and the GEMM's FLOP/s is higher under idle-core. The throughput margin is
 * only "higher": the size of the effect is the subject of the fidelity work.
 */
final class IdleCoreIlbIT {

  private static final long MS = 1_000_000;

  private static SimulationResult run(String profile) {
    HardwareModel vera = Scenarios.machine("hw.vera", Map.of(), "");
    return Scenarios.run(
        vera, "wl.gemm", Map.of(), Scenarios.profile(profile), 1_000 * MS, 1,
        SimulationListener.NONE);
  }

  @Test
  void vera_gemm_idleCoreAvoidsBusySiblingsAndRaisesThroughput() {
    SimulationResult firstIdle = run("mainline-7.1");
    SimulationResult idleCore = run("mainline-7.3");
    assertThat(firstIdle.ilb().choicesWithBusySibling()).isPositive();
    assertThat(idleCore.ilb().choicesWithBusySibling()).isZero();
    assertThat(idleCore.workload().value()).isGreaterThan(firstIdle.workload().value());
  }
}
