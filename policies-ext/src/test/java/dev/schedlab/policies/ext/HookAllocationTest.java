package dev.schedlab.policies.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.policies.ext.fakes.Machines;
import dev.schedlab.policies.ext.ilb.RoundRobinIlbSelectorProvider;
import dev.schedlab.policies.ext.newidle.LlcOnlyNewidleProvider;
import dev.schedlab.policies.ext.newidle.NoNumaNewidleProvider;
import dev.schedlab.policies.ext.smtbuddy.ExcludeSiblingsProvider;
import dev.schedlab.policies.ext.smtbuddy.SkipSmtAfterPushProvider;
import dev.schedlab.policies.ext.smtbuddy.SmtBuddyPushProvider;
import dev.schedlab.policies.ext.wake.BurstThresholdProvider;
import dev.schedlab.policies.ext.wake.RqDepthDistributeProvider;
import dev.schedlab.policies.ext.wake.StableIdleCoreProvider;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicyProvider;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.testkit.fakes.FakePassState;
import dev.schedlab.testkit.fakes.FakePolicyContext;
import dev.schedlab.testkit.fakes.FakeTask;
import dev.schedlab.testkit.fakes.FakeWakeupContext;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The hooks allocate nothing per call, on the paths where they act (a push scan, a skipped domain,
 * an exclusion, a redirect, a distribution): over many calls the thread's allocated bytes stay far
 * below one object per call. Fakes are built before measuring and allocate nothing themselves on
 * these paths.
 */
final class HookAllocationTest {

  private static final int CALLS = 100_000;

  /** Far below the 1.6 MB that even one 16-byte object per call would cost. */
  private static final long BUDGET_BYTES = 16 * 1024;

  private static final Topology MACHINE = Machines.adjacent("2n2l2c2t");
  private static final SchedDomains DOMAINS = SchedDomains.build(MACHINE);
  private static final int CPUS = MACHINE.nrCpuIds();

  /** Actions that never manage to move anything and record nothing. */
  private static final BalanceActions NO_MOVES =
      new BalanceActions() {
        @Override
        public boolean migrateOneTask(int srcCpu, int dstCpu) {
          return false;
        }

        @Override
        public void resetBalanceInterval(int cpu) {}
      };

  private final ArrayCpuState state = new ArrayCpuState(MACHINE);

  private static long allocatedBytes(Runnable calls) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    calls.run(); // warm-up: class loading and first-call allocations do not count
    long before = threads.getThreadAllocatedBytes(id);
    calls.run();
    return threads.getThreadAllocatedBytes(id) - before;
  }

  private BalancePass pass(BalancePassProvider provider) {
    return provider.create(FakePolicyContext.of(provider, MACHINE, state));
  }

  private WakeupPolicy wakeup(WakeupPolicyProvider provider) {
    return provider.create(FakePolicyContext.of(provider, MACHINE, state));
  }

  @Test
  void balancePassHooks_actingPaths_allocateNothingPerCall() {
    state.nrRunning(0, 2).runnableAvg(0, 1024);
    FakePassState pushed = new FakePassState(0, IdleType.NEWLY_IDLE, CPUS);
    pushed.recordPush(1);
    BalancePass push = pass(new SmtBuddyPushProvider());
    BalancePass skip = pass(new SkipSmtAfterPushProvider());
    BalancePass exclude = pass(new ExcludeSiblingsProvider());
    BalancePass noNuma = pass(new NoNumaNewidleProvider());
    BalancePass llcOnly = pass(new LlcOnlyNewidleProvider());
    SchedDomain smt = DOMAINS.domains(0).get(0);
    SchedDomain numa = DOMAINS.domains(0).get(DOMAINS.domains(0).size() - 1);
    MutableCpuMask candidates = CpuMasks.mutable(CPUS);

    long bytes =
        allocatedBytes(
            () -> {
              for (int i = 0; i < CALLS; i++) {
                push.beforeDomainWalk(pushed, NO_MOVES);
                skip.balanceDomain(smt, pushed);
                candidates.copyFrom(numa.span());
                exclude.narrowSourceCandidates(numa, pushed, candidates);
                noNuma.balanceDomain(numa, pushed);
                llcOnly.balanceDomain(numa, pushed);
              }
            });

    assertThat(bytes).isLessThan(BUDGET_BYTES);
  }

  @Test
  void wakeupHooks_actingPaths_allocateNothingPerCall() {
    for (int cpu = 1; cpu < 8; cpu++) {
      state.nrRunning(cpu, 1);
    }
    state.nrRunning(0, 30).nohzIdle(9, 12);
    FakeWakeupContext context = new FakeWakeupContext(state, NO_MOVES);
    FakeTask task = FakeTask.normal(1, 0, CpuMasks.full(CPUS));
    WakeupPolicy burst = wakeup(new BurstThresholdProvider());
    WakeupPolicy depth = wakeup(new RqDepthDistributeProvider());
    StableIdleCoreProvider stableProvider = new StableIdleCoreProvider();
    WakeupPolicy stable =
        stableProvider.create(
            FakePolicyContext.of(
                stableProvider,
                MACHINE,
                state,
                java.util.Map.of(StableIdleCoreProvider.ASYM_ONLY, "false")));
    int idleSecondSibling = 13; // core {12, 13} of the adjacent numbering, both idle

    long bytes =
        allocatedBytes(
            () -> {
              for (int i = 0; i < CALLS; i++) {
                burst.selectFinal(task, 0, 0, context);
                depth.onPeriodicBalance(0, state);
                depth.selectFinal(task, 0, 0, context);
                stable.selectFinal(task, idleSecondSibling, idleSecondSibling, context);
              }
            });

    assertThat(bytes).isLessThan(BUDGET_BYTES);
  }

  @Test
  void roundRobinIlbSelector_walkingAndWrapping_allocatesNothingPerCall() {
    state.nrRunning(0, 1).nrRunning(5, 1);
    MutableCpuMask nohz = CpuMasks.mutable(CPUS);
    nohz.fill();
    IlbSelector selector =
        new RoundRobinIlbSelectorProvider()
            .create(FakePolicyContext.of(new RoundRobinIlbSelectorProvider(), MACHINE, state));

    long bytes =
        allocatedBytes(
            () -> {
              for (int i = 0; i < CALLS; i++) {
                selector.findNewIlb(0, nohz, nohz, state);
              }
            });

    assertThat(bytes).isLessThan(BUDGET_BYTES);
  }
}
