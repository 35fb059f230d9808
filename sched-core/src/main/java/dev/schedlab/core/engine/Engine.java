package dev.schedlab.core.engine;

import dev.schedlab.core.balance.LoadBalancer;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.FirstIdleIlbSelector;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.NohzIdleTracking;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.TransitionOnlyNohzIdleTracking;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicyProvider;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine of one run, put together: the {@link EngineContext}, the policy plugins and the
 * workload created from the {@link EngineSetup}, the load balancer, and the parts, each built with
 * the parts it calls, lowest first. Routes every {@link Event} to the part it concerns and carries
 * the runqueue core's two upward calls ({@link RunqueueUpcalls}) to the balancer and the
 * context-switch code. Package-private: {@code Simulation} runs it; the engine's tests build and
 * step it directly.
 */
final class Engine implements Event.Handler, RunqueueUpcalls {

  /**
   * Whether the balancer keeps group statistics across searches ({@link
   * LoadBalancer#useGroupStatsCache}); results are the same either way. The system property {@code
   * schedlab.groupStatsCache=false} turns it off, to time the difference.
   */
  static volatile boolean groupStatsCache =
      !"false".equals(System.getProperty("schedlab.groupStatsCache"));

  final EngineSetup setup;
  final EngineContext ctx;
  final TickSched tick;
  final TaskProgress progress;
  final FairClass fair;
  final EngineHost host;
  final LoadBalancer balancer;
  final WakeupPolicyChain chain;
  final SdLlcShared llcShared;

  /** The cheap checks always; the rest with {@code check_invariants}. */
  final InvariantChecker invariants;

  final NohzBalancing nohz;
  final SelectIdleCapacity idleCapacity;
  final SelectIdleSibling idleSibling;
  final SelectTaskRq selectTaskRq;
  final TryToWakeUp wakeups;
  final WakeUpNewTask forks;
  final IdleLoop idleLoop;
  final CoreSchedule core;
  final SchedTick schedTick;
  final BackgroundIrqs background;
  final Workload workload;

  Engine(EngineSetup setup) {
    this.setup = setup;
    SchedDomains domains = SchedDomains.build(setup.hardware().topology(), setup.domainOptions());
    this.ctx = new EngineContext(setup, domains);
    EngineOptions options = ctx.options;
    ScratchMaskPool scratchMasks =
        new ScratchMaskPool(
            ctx.topology.nrCpuIds(),
            options.checkInvariants()
                ? ScratchMaskPool.MisusePolicy.THROW
                : ScratchMaskPool.MisusePolicy.WARN_ONCE);
    this.tick = new TickSched(ctx);
    CpuidleExit cpuidle = new CpuidleExit(ctx);
    this.progress = new TaskProgress(ctx, setup.hardware().performanceModel());
    BalancingTime balancingTime = new BalancingTime(ctx, progress);
    PeltUpdates pelt = new PeltUpdates(ctx);
    this.fair = new FairClass(ctx, tick, progress, pelt, this);
    this.host = new EngineHost(ctx, pelt, fair);
    // Plugins are created in binding order, each drawing the next plugin random stream.
    IlbSelector ilbSelector =
        setup.ilbSelector() == null
            ? new FirstIdleIlbSelector()
            : setup.ilbSelector().provider().create(context(setup.ilbSelector(), scratchMasks));
    NohzIdleTracking nohzTracking =
        setup.nohzIdleTracking() == null
            ? new TransitionOnlyNohzIdleTracking()
            : setup
                .nohzIdleTracking()
                .provider()
                .create(context(setup.nohzIdleTracking(), scratchMasks));
    List<BalancePass> passes = new ArrayList<>();
    for (PolicyBinding<BalancePassProvider> binding : setup.balancePasses()) {
      passes.add(binding.provider().create(context(binding, scratchMasks)));
    }
    List<WakeupPolicy> wakeupPolicies = new ArrayList<>();
    for (PolicyBinding<WakeupPolicyProvider> binding : setup.wakeupPolicies()) {
      wakeupPolicies.add(binding.provider().create(context(binding, scratchMasks)));
    }
    this.balancer =
        new LoadBalancer(
            host,
            List.copyOf(passes),
            setup.balancer(),
            setup.costModel(),
            LoadBalancer.newStats(domains));
    if (groupStatsCache) {
      balancer.useGroupStatsCache(ctx.groupStamps, options.checkInvariants());
    }
    if (options.spreadBalanceStamps()) {
      balancer.spreadBalanceStamps(ctx.random.balanceStamps());
    }
    this.chain = new WakeupPolicyChain(ctx, wakeupPolicies);
    this.llcShared = new SdLlcShared(ctx);
    this.invariants = new InvariantChecker(ctx, progress, llcShared, options.checkInvariants());
    this.nohz =
        new NohzBalancing(
            ctx, balancer, ilbSelector, llcShared, balancingTime, pelt, cpuidle, chain, invariants);
    this.idleCapacity = new SelectIdleCapacity(ctx, llcShared, chain);
    this.idleSibling = new SelectIdleSibling(ctx, llcShared, chain, idleCapacity);
    FindDstCpu findDst = new FindDstCpu(ctx, chain, cpuidle);
    this.selectTaskRq = new SelectTaskRq(ctx, chain, idleSibling, findDst, pelt, balancer);
    this.wakeups = new TryToWakeUp(ctx, selectTaskRq, fair, progress);
    this.forks = new WakeUpNewTask(ctx, selectTaskRq, pelt, fair);
    this.idleLoop =
        new IdleLoop(ctx, tick, progress, llcShared, nohz, nohzTracking, balancer, invariants);
    this.core =
        new CoreSchedule(
            ctx, fair, progress, balancingTime, idleLoop, nohz, cpuidle, balancer, wakeups, forks);
    this.schedTick =
        new SchedTick(
            ctx,
            tick,
            fair,
            pelt,
            nohz,
            balancer,
            balancingTime,
            llcShared,
            idleLoop,
            core,
            chain,
            invariants);
    this.background = new BackgroundIrqs(ctx, progress, balancingTime, schedTick, core);
    this.workload =
        setup
            .workload()
            .provider()
            .create(
                new EngineWorkloadContext(
                    ctx.topology,
                    setup.hardware().facts(),
                    setup.workload().parameters(),
                    ctx.random.workload()));
  }

  private EnginePolicyContext context(
      PolicyBinding<? extends PluginProvider> binding, ScratchMaskPool scratchMasks) {
    return new EnginePolicyContext(
        binding.id(),
        ctx.topology,
        ctx.domains,
        binding.parameters(),
        ctx.state,
        ctx.random.nextPlugin(),
        scratchMasks,
        ctx.counters);
  }

  /**
   * Starts the run: CPUs idle, the first tick, the workload's tasks forked, the background started
   * (its kernel workers forked), the end scheduled.
   */
  void begin() {
    idleLoop.boot();
    schedTick.start();
    Host host = new Host();
    workload.start(host);
    // After the workload's tasks, so that their ids do not depend on the background.
    background.start((spec, program, cpu) -> host.spawn(spec, program, cpu));
    ctx.loop.schedule(ctx.durationNs, new Event.End());
  }

  /** Closes the time accounting once the events are done. */
  void finish() {
    progress.finish();
  }

  /** The {@link WorkloadHost}: the workload's initial tasks, forked by an init task. */
  private final class Host implements WorkloadHost {
    @Override
    public long nowNs() {
      return ctx.now();
    }

    @Override
    public int spawn(TaskSpec spec, TaskProgram program, int parentCpu) {
      boolean outsideEvent = forks.outsideEventContext();
      int id = forks.spawn(spec, program, parentCpu, null);
      if (outsideEvent) {
        core.afterEvent(parentCpu);
      }
      return id;
    }
  }

  // ---------------------------------------------------------------------------------------
  // RunqueueUpcalls

  @Override
  public void nrRunningAdded(int cpu, int previousNrRunning, int nrRunning) {
    balancer.addNrRunning(cpu, previousNrRunning, nrRunning);
  }

  @Override
  public void resched(CpuRunqueue rq) {
    core.resched(rq);
  }

  // ---------------------------------------------------------------------------------------
  // Event.Handler

  @Override
  public void onJiffy(long jiffy) {
    schedTick.onJiffy(jiffy);
  }

  @Override
  public void onSkewedTick() {
    schedTick.onSkewedTick();
  }

  @Override
  public void onSleepEnd(int task, long token) {
    int cpu = wakeups.sleepEnded(task, token);
    if (cpu != CpuMask.NO_CPU) {
      core.afterEvent(cpu);
    }
  }

  @Override
  public void onCpuTimer(int cpu) {
    core.onCpuTimer(cpu);
  }

  @Override
  public void touchAhead(Event[] events, int n) {
    core.touchTimers(events, n);
  }

  @Override
  public void onKickIpi(int cpu) {
    nohz.onKickIpi(cpu);
    core.afterEvent(cpu);
  }

  @Override
  public void onReschedIpi(int cpu) {
    core.onReschedIpi(cpu);
  }

  @Override
  public void onActiveBalance(int busiestCpu, int targetCpu) {
    core.onActiveBalance(busiestCpu, targetCpu);
  }

  @Override
  public void onPhaseEnd(int cpu, long token) {
    core.onPhaseEnd(cpu, token);
  }

  @Override
  public void onBackgroundIrq(int source) {
    background.onArrival(source);
  }

  @Override
  public void onEnd() {
    ctx.loop.stop();
  }
}
