package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceCostModel;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.WakeupPolicyProvider;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.domain.SchedDomainOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Builds small simulations for mechanism tests. */
final class EngineFixture {

  private final HardwareModel hardware;
  private Consumer<WorkloadHost> start = host -> {};
  private PolicyBinding<IlbSelectorProvider> ilb;
  private PolicyBinding<NohzIdleTrackingProvider> nohz;
  private final List<PolicyBinding<BalancePassProvider>> passes = new ArrayList<>();
  private final List<PolicyBinding<WakeupPolicyProvider>> wakeups = new ArrayList<>();
  // A quiet machine: the engine tests isolate one mechanism; BackgroundIrqsTest adds the rest.
  private EngineOptions options =
      EngineOptions.defaults().withoutBackground().withCheckInvariants(true);
  private BalancerOptions balancer = BalancerOptions.defaults();
  private long durationNs = 1_000_000_000L;
  private long seed = 1;
  private int hz = 1000;

  /** A nice-0 SCHED_NORMAL compute task allowed on {@code cpu} only. */
  static TaskSpec pinned(String name, int nrCpuIds, int cpu) {
    return new TaskSpec(name, SchedPolicy.NORMAL, 0, CpuMasks.of(nrCpuIds, cpu), WorkClass.COMPUTE);
  }

  private EngineFixture(HardwareModel hardware) {
    this.hardware = hardware;
  }

  static EngineFixture on(HardwareModel hardware) {
    return new EngineFixture(hardware);
  }

  static EngineFixture on(String shape) {
    return new EngineFixture(TestMachines.unit(shape));
  }

  EngineFixture tasks(Consumer<WorkloadHost> value) {
    this.start = value;
    return this;
  }

  /** Two spinning nice-0 tasks, "a" then "b", both pinned to {@code cpu}, as the workload. */
  EngineFixture twoHogs(int cpu) {
    int nrCpuIds = hardware.topology().nrCpuIds();
    return tasks(
        host -> {
          host.spawn(pinned("a", nrCpuIds, cpu), ScriptedWorkload.spin(), cpu);
          host.spawn(pinned("b", nrCpuIds, cpu), ScriptedWorkload.spin(), cpu);
        });
  }

  EngineFixture ilb(IlbSelectorProvider provider) {
    this.ilb = PolicyBinding.withDefaults(provider);
    return this;
  }

  EngineFixture nohz(NohzIdleTrackingProvider provider) {
    this.nohz = PolicyBinding.withDefaults(provider);
    return this;
  }

  EngineFixture pass(BalancePassProvider provider) {
    passes.add(PolicyBinding.withDefaults(provider));
    return this;
  }

  EngineFixture wakeup(WakeupPolicyProvider provider) {
    wakeups.add(PolicyBinding.withDefaults(provider));
    return this;
  }

  EngineFixture options(EngineOptions value) {
    this.options = value;
    return this;
  }

  EngineFixture balancer(BalancerOptions value) {
    this.balancer = value;
    return this;
  }

  EngineFixture duration(long ns) {
    this.durationNs = ns;
    return this;
  }

  EngineFixture seed(long value) {
    this.seed = value;
    return this;
  }

  EngineFixture hz(int value) {
    this.hz = value;
    return this;
  }

  EngineRun build() {
    return new EngineRun(
        new EngineSetup(
            hardware,
            SchedDomainOptions.defaults(),
            ilb,
            nohz,
            passes,
            wakeups,
            ScriptedWorkload.of(start),
            seed,
            durationNs,
            hz,
            options,
            balancer,
            BalanceCostModel.defaults()));
  }
}
