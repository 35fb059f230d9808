package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.policies.fair.ilb.IdleCoreIlbSelectorProvider;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.view.CpuStateView;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engine reuses {@code find_new_ilb()}'s last answer while the idle state is unchanged when the
 * selector says its answer depends on nothing else ({@link IlbSelector#dependsOnIdleStateOnly()},
 * true for {@code fair.ilb.idle-core}). The same selector behind a wrapper that does not say so is
 * asked on every kick; both runs must agree in every deterministic field ({@code
 * SimulationResult.fingerprint()}: counters, the ILB choices per CPU, examined counts, schedstat).
 * A stale answer (an idle-state change the epoch missed) shows as a different choice or count.
 */
final class IlbAnswerReuseIT {

  private static final long MS = 1_000_000;

  /** The idle-core selector, asked on every kick: the wrapper keeps the interface's default. */
  private static final class AskEveryTime implements IlbSelectorProvider {
    private final IdleCoreIlbSelectorProvider real = new IdleCoreIlbSelectorProvider();

    @Override
    public PluginDescriptor descriptor() {
      return real.descriptor();
    }

    @Override
    public IlbSelector create(PolicyContext context) {
      IlbSelector inner = real.create(context);
      assertThat(inner.dependsOnIdleStateOnly()).isTrue();
      return new IlbSelector() {
        @Override
        public int findNewIlb(int thisCpu, CpuMask nohz, CpuMask housekeeping, CpuStateView s) {
          return inner.findNewIlb(thisCpu, nohz, housekeeping, s);
        }

        @Override
        public int lastExamined() {
          return inner.lastExamined();
        }
      };
    }
  }

  private static String fingerprint(
      IlbSelectorProvider ilb,
      HardwareModel machine,
      Map<String, String> gemm,
      EngineOptions engine,
      long seed) {
    WorkloadProvider provider = Scenarios.REGISTRY.require("wl.gemm", WorkloadProvider.class);
    SimulationConfig config =
        SimulationConfig.builder(
                machine, new PolicyBinding<>(provider, provider.descriptor().resolve(gemm)))
            .policies(Scenarios.REGISTRY, Scenarios.profile("mainline-7.3"))
            .ilbSelector(PolicyBinding.withDefaults(ilb))
            .durationNs(300 * MS)
            .seed(seed)
            .engine(engine)
            .build();
    return Simulations.run(config).fingerprint();
  }

  private static void assertSame(
      HardwareModel machine, Map<String, String> gemm, EngineOptions engine, long seed) {
    String reused = fingerprint(new IdleCoreIlbSelectorProvider(), machine, gemm, engine, seed);
    String asked = fingerprint(new AskEveryTime(), machine, gemm, engine, seed);
    assertThat(reused).isEqualTo(asked);
  }

  @Test
  void vera_barrierGemm_quiet_reusedAnswers_sameRun() {
    HardwareModel vera = Scenarios.machine("hw.vera", Map.of(), "");
    assertSame(vera, Map.of("wait", "barrier"), Scenarios.QUIET, 1);
  }

  @Test
  void vera_spinGemm_background_reusedAnswers_sameRun() {
    HardwareModel vera = Scenarios.machine("hw.vera", Map.of(), "");
    assertSame(vera, Map.of(), EngineOptions.defaults(), 2);
  }

  /**
   * With the governor keeping short idles' ticks, CPUs go idle and busy without entering or leaving
   * {@code nohz.idle_cpus_mask}: only the idle-mask half of the epoch sees those changes.
   */
  @Test
  void vera_barrierGemm_retainedIdleTicks_reusedAnswers_sameRun() {
    HardwareModel vera = Scenarios.machine("hw.vera", Map.of(), "");
    EngineOptions engine =
        Scenarios.QUIET.withRetainShortIdleTick(true).withWakeupRaceWindowNs(5_000);
    assertSame(vera, Map.of("wait", "barrier", "wake_fanout", "4"), engine, 4);
  }

  @Test
  void smt4Shape_barrierGemm_background_reusedAnswers_sameRun() {
    HardwareModel shape = Scenarios.machine("hw.shape", Map.of("shape", "2n2l8c4t"), "");
    assertSame(shape, Map.of("wait", "barrier"), EngineOptions.defaults(), 3);
  }
}
