package dev.schedlab.core.engine;

import dev.schedlab.core.balance.LbStats;
import dev.schedlab.core.balance.LoadBalancer;
import dev.schedlab.core.stats.CpuSchedstat;
import dev.schedlab.core.stats.CpuTime;
import dev.schedlab.core.stats.DomainSchedstat;
import dev.schedlab.core.stats.IlbStatistics;
import dev.schedlab.core.stats.LatencySummary;
import dev.schedlab.core.stats.Log2Histogram;
import dev.schedlab.core.stats.Schedstat;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.FirstIdleIlbSelector;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.NohzIdleTracking;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.TransitionOnlyNohzIdleTracking;
import dev.schedlab.spi.WakeupPolicy;
import dev.schedlab.spi.WakeupPolicyProvider;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * One simulation: a machine, a set of policy plugins and a workload, run for a fixed simulated
 * time on a discrete-event engine. Single use and single-threaded; run many in parallel on
 * separate threads (there is no shared mutable state).
 *
 * <p>Built by the Dagger component in {@code dev.schedlab.core}, or directly from an {@link
 * EngineSetup}.
 */
public final class Simulation {

  final EngineSetup setup;
  final Topology topology;
  final SchedDomains domains;
  final EngineOptions options;
  final int hz;
  final EventLoop loop;
  final CpuRunqueue[] rqs;
  final List<Task> tasks = new ArrayList<>();
  final RandomStreams random;
  final EngineStatistics stats;
  final MutableCpuMask nohzIdleMask;
  final EngineState state;
  /**
   * SCHED_IDLE tasks on any runqueue: while none is, no runqueue is {@code sched_idle_rq()}, and
   * wakeup scans may skip CPUs that are not idle.
   */
  int queuedIdlePolicyTasks;
  final EnginePerfView perfView;
  final EngineHost host;
  final CounterRegistry counters = new CounterRegistry();
  final ScratchMaskPool scratchMasks;
  final PerformanceModel performance;
  final IlbSelector ilbSelector;
  final NohzIdleTracking nohzTracking;
  final List<BalancePass> passes;
  final List<WakeupPolicy> wakeupPolicies;
  final LoadBalancer balancer;
  final Scheduler scheduler;
  final NohzBalancing nohz;
  final WakeupPlacement placement;
  final InvariantChecker invariants;
  final Workload workload;
  private boolean ran;
  /** Receives timeline events; {@link SimulationListener#NONE} unless {@link #listener} set one. */
  SimulationListener listener = SimulationListener.NONE;

  /** Builds the simulation; nothing runs until {@link #run()}. */
  @Inject
  public Simulation(EngineSetup setup) {
    this.setup = setup;
    this.topology = setup.hardware().topology();
    this.domains = SchedDomains.build(topology, setup.domainOptions());
    this.options = setup.engine();
    this.hz = setup.hz();
    this.loop = new EventLoop(new HeapEventQueue());
    int nrCpuIds = topology.nrCpuIds();
    this.random = new RandomStreams(setup.seed(), nrCpuIds);
    this.rqs = new CpuRunqueue[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      rqs[cpu] = new CpuRunqueue(cpu, random.cpu(cpu));
    }
    this.stats = new EngineStatistics(nrCpuIds, domains.maxLevels(), topology.cpuCount());
    this.nohzIdleMask = CpuMasks.mutable(nrCpuIds);
    this.state = new EngineState(this);
    this.perfView = new EnginePerfView(this);
    this.host = new EngineHost(this);
    this.scratchMasks =
        new ScratchMaskPool(
            nrCpuIds,
            options.checkInvariants()
                ? ScratchMaskPool.MisusePolicy.THROW
                : ScratchMaskPool.MisusePolicy.WARN_ONCE);
    this.performance = setup.hardware().performanceModel();
    this.ilbSelector =
        setup.ilbSelector() == null
            ? new FirstIdleIlbSelector()
            : setup.ilbSelector().provider().create(context(setup.ilbSelector()));
    this.nohzTracking =
        setup.nohzIdleTracking() == null
            ? new TransitionOnlyNohzIdleTracking()
            : setup.nohzIdleTracking().provider().create(context(setup.nohzIdleTracking()));
    List<BalancePass> passList = new ArrayList<>();
    for (PolicyBinding<BalancePassProvider> binding : setup.balancePasses()) {
      passList.add(binding.provider().create(context(binding)));
    }
    this.passes = List.copyOf(passList);
    List<WakeupPolicy> wakeupList = new ArrayList<>();
    for (PolicyBinding<WakeupPolicyProvider> binding : setup.wakeupPolicies()) {
      wakeupList.add(binding.provider().create(context(binding)));
    }
    this.wakeupPolicies = List.copyOf(wakeupList);
    this.balancer =
        new LoadBalancer(
            host, passes, setup.balancer(), setup.costModel(), LoadBalancer.newStats(domains));
    if (options.spreadBalanceStamps()) {
      balancer.spreadBalanceStamps(random.balanceStamps());
    }
    this.scheduler = new Scheduler(this);
    this.nohz = new NohzBalancing(this);
    this.placement = new WakeupPlacement(this);
    this.invariants = options.checkInvariants() ? new InvariantChecker(this) : null;
    this.workload =
        setup.workload().provider().create(
            new EngineWorkloadContext(
                topology,
                setup.hardware().facts(),
                setup.workload().parameters(),
                random.workload()));
  }

  private EnginePolicyContext context(PolicyBinding<? extends PluginProvider> binding) {
    return context(binding.id(), binding.parameters());
  }

  private EnginePolicyContext context(String pluginId, Parameters parameters) {
    return new EnginePolicyContext(
        pluginId, topology, domains, parameters, state, random.nextPlugin(), scratchMasks,
        counters);
  }

  /**
   * Attaches a listener for timeline events (trace export); call before {@link #run()}.
   *
   * @return this simulation
   */
  public Simulation listener(SimulationListener value) {
    if (ran) {
      throw new IllegalStateException("attach the listener before the run starts");
    }
    this.listener = java.util.Objects.requireNonNull(value, "listener");
    return this;
  }

  /**
   * Runs the simulation to its end and returns what it measured.
   *
   * @throws IllegalStateException if called twice
   * @throws InvariantViolation if the invariant checker is on and an invariant breaks
   */
  public SimulationResult run() {
    if (ran) {
      throw new IllegalStateException("a Simulation runs once; build another one");
    }
    long wallStart = System.nanoTime();
    begin();
    loop.run(this);
    scheduler.finish();
    if (invariants != null) {
      invariants.sweep();
    }
    long wallNs = System.nanoTime() - wallStart;
    return result(wallNs);
  }

  /** Starts the run: CPUs idle, the workload's tasks forked, the end scheduled. */
  void begin() {
    ran = true;
    scheduler.start();
    workload.start(new Host());
    loop.schedule(setup.durationNs(), new Event.End());
  }

  /** Runs the events up to {@code ns} (tests inspect the state in between). */
  void advanceTo(long ns) {
    if (!ran) {
      begin();
    }
    loop.runUntil(ns, this);
  }

  /** Ends a run driven by {@link #advanceTo} and returns its result. */
  SimulationResult finishForTest() {
    loop.runUntil(setup.durationNs(), this);
    scheduler.finish();
    return result(0);
  }

  /** The {@link WorkloadHost}: the workload's initial tasks, forked by an init task. */
  private final class Host implements WorkloadHost {
    @Override
    public long nowNs() {
      return loop.now();
    }

    @Override
    public int spawn(TaskSpec spec, TaskProgram program, int parentCpu) {
      return scheduler.spawn(spec, program, parentCpu, null);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Results

  private SimulationResult result(long wallNs) {
    long simulated = loop.now();
    LbStats lb = balancer.stats();
    long[] migrations = new long[lb.nrLevels()];
    for (int level = 0; level < migrations.length; level++) {
      migrations[level] = lb.migrations(level);
    }
    List<CpuTime> times = new ArrayList<>();
    CpuMask online = topology.onlineMask();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      times.add(
          new CpuTime(cpu, rq.taskNs - rq.stolenNs, rq.overheadNs + rq.stolenNs, rq.idleNs));
    }
    WorkloadResult workloadResult = workload.result(simulated);
    return new SimulationResult(
        topology.name(),
        topology.cpuCount(),
        setup.seed(),
        simulated,
        hz,
        domains.levelNames(),
        schedstat(),
        lb,
        stats.softirqsFromTick + stats.ilbRuns,
        stats.softirqsFromTick,
        stats.ilbRuns,
        new IlbStatistics(
            stats.kickIlbCalls,
            stats.kickBalance,
            stats.kickStatsOnly,
            stats.kickNextOnly,
            stats.kickNoIlb,
            stats.kickAlreadyPending,
            stats.ilbChoices,
            stats.ilbChoicesWithBusySibling,
            stats.kickIpis,
            stats.kickIpisDropped,
            stats.ilbCpusExamined,
            stats.ilbRuns,
            stats.ilbCpusVisited,
            stats.ilbBalanceCalls,
            stats.newIlbLocalRuns,
            stats.ilbChosen),
        stats.smtContention,
        stats.smtContentionSiblingBalancing,
        stats.smtNoContention,
        stats.ilbDuration,
        stats.newidleDuration,
        Log2Histogram.ofBuckets(lb.lockHoldHistogram()),
        migrations,
        stats.wakeupMigrations,
        LatencySummary.of(stats.wakeupLatency),
        placement.placementPaths(),
        times,
        stats.wastedCoreNs,
        stats.anyWastedNs,
        tasks.size(),
        counters.snapshot(),
        workloadResult,
        new SimulationResult.EnginePerformance(loop.processed(), wallNs));
  }

  /** {@code /proc/schedstat} v17 from the engine's and the balancer's counters. */
  private Schedstat schedstat() {
    LbStats lb = balancer.stats();
    List<Schedstat.CpuEntry> entries = new ArrayList<>();
    CpuMask online = topology.onlineMask();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = rqs[cpu];
      CpuSchedstat counters =
          new CpuSchedstat(
              0, rq.schedCount, rq.schedGoidle, rq.ttwuCount, rq.ttwuLocal, rq.rqCpuTimeNs,
              rq.runDelayNs, rq.pcount);
      List<DomainSchedstat> lines = new ArrayList<>();
      for (SchedDomain sd : domains.domains(cpu)) {
        int level = sd.level();
        long[] fields = new long[DomainSchedstat.LB_FIELDS];
        int k = 0;
        for (IdleType idle : IdleType.values()) {
          for (dev.schedlab.core.balance.LbField field :
              dev.schedlab.core.balance.LbField.values()) {
            fields[k++] = lb.lb(cpu, level, idle, field);
          }
        }
        long[] alb = new long[3];
        int a = 0;
        for (dev.schedlab.core.balance.AlbField field :
            dev.schedlab.core.balance.AlbField.values()) {
          alb[a++] = lb.alb(cpu, level, field);
        }
        lines.add(
            new DomainSchedstat(
                level, sd.name(), sd.span().toHex(), fields, alb,
                stats.ttwuWakeRemoteAt(cpu, level), stats.ttwuMoveAffineAt(cpu, level)));
      }
      entries.add(new Schedstat.CpuEntry(cpu, counters, lines));
    }
    return new Schedstat(scheduler.jiffies(), entries);
  }

  // ---------------------------------------------------------------------------------------
  // Introspection for tests in this package

  CpuRunqueue rq(int cpu) {
    return rqs[cpu];
  }

  Task task(int id) {
    return tasks.get(id);
  }
}
