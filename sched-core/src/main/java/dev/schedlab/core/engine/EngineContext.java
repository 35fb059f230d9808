package dev.schedlab.core.engine;

import dev.schedlab.core.balance.BalanceCostModel;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.balance.GroupStamps;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import java.util.ArrayList;
import java.util.List;

/**
 * The facts of one run that every part of the engine shares: the machine's topology and sched
 * domains, the options, HZ, the event loop, the runqueues and tasks, the statistics and counters,
 * the timeline listener, the random streams and the {@link EngineState} view over the runqueues.
 * Each part receives this and, through its constructor, the specific parts it calls.
 *
 * <p>Besides those it holds the few run-wide variables the kernel keeps globally: {@code jiffies}
 * (advanced by the tick only), the CPU whose code the current event runs, and the sums of {@code
 * nr_running} and of queued SCHED_IDLE tasks over all runqueues.
 */
final class EngineContext {

  /**
   * The machine width from which the tick and the NOHZ idle pass read the next CPUs' state ahead of
   * the work ({@code SchedTick}'s and {@code NohzBalancing}'s {@code touchAhead}). Below it the
   * per-CPU state stays in cache between passes and the extra reads cost more than they save:
   * measured on a Vera barrier GEMM (352 CPUs), the NOHZ pass's reads made the run about 2 %
   * slower; on an 8192-CPU GEMM both together took the steady state from 0.255 to 0.282 simulated s
   * per wall s (benchmarks/README.md, session of 2026-12-03 08:40). A speed choice only: every
   * result is the same either way.
   */
  static final int TOUCH_AHEAD_MIN_CPUS = 2048;

  /**
   * Events of one instant handed to {@link Event.Handler#touchAhead} at most. A GEMM team's threads
   * finish their steps at the same nanosecond: the 8192-CPU GEMM fires about 20 CPU timers per
   * instant (1.25 M timers at 61,366 instants in 300 ms, counted).
   */
  static final int INSTANT_TOUCH_AHEAD = 64;

  final Topology topology;
  final SchedDomains domains;
  final EngineOptions options;
  final BalancerOptions balancerOptions;
  final BalanceCostModel costModel;
  final int hz;
  final long durationNs;
  final EventLoop loop;
  final RandomStreams random;
  final CpuRunqueue[] rqs;

  /**
   * Every CPU's balancing row, {@link CpuRunqueue#LB_ROW} longs each (see {@link
   * CpuRunqueue#syncLbRow}).
   */
  final long[] lbRows;

  /** Change stamps of the balancing inputs: every CPU's row, idleness and misfit load. */
  final GroupStamps groupStamps;

  final List<Task> tasks = new ArrayList<>();
  final EngineStatistics stats;
  final CounterRegistry counters = new CounterRegistry();

  /** {@code nohz.idle_cpus_mask}, maintained by {@link NohzBalancing}. */
  final MutableCpuMask nohzIdleMask;

  /** The live {@code CpuStateView} policies and the balancer read. */
  final EngineState state;

  /** Receives timeline events; {@link SimulationListener#NONE} unless the run attached one. */
  SimulationListener listener = SimulationListener.NONE;

  /** The CPU whose code the current event runs (local reschedules need no IPI), or -1. */
  int contextCpu = CpuMask.NO_CPU;

  /** Sum of {@code nr_running}. */
  long totalNrRunning;

  /**
   * SCHED_IDLE tasks on any runqueue: while none is, no runqueue is {@code sched_idle_rq()}, and
   * wakeup scans may skip CPUs that are not idle.
   */
  int queuedIdlePolicyTasks;

  private long jiffies;

  EngineContext(EngineSetup setup, SchedDomains domains) {
    this.topology = setup.hardware().topology();
    this.domains = domains;
    this.options = setup.engine();
    this.balancerOptions = setup.balancer();
    this.costModel = setup.costModel();
    this.hz = setup.hz();
    this.durationNs = setup.durationNs();
    this.loop = new EventLoop(new RadixEventQueue());
    int nrCpuIds = topology.nrCpuIds();
    if (nrCpuIds >= TOUCH_AHEAD_MIN_CPUS) {
      loop.touchAhead(INSTANT_TOUCH_AHEAD);
    }
    this.random = new RandomStreams(setup.seed(), nrCpuIds);
    this.rqs = new CpuRunqueue[nrCpuIds];
    this.lbRows = new long[CpuRunqueue.LB_ROW * nrCpuIds];
    this.groupStamps = new GroupStamps(domains);
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      rqs[cpu] =
          new CpuRunqueue(cpu, random.cpu(cpu), lbRows, CpuRunqueue.LB_ROW * cpu, groupStamps);
    }
    this.stats = new EngineStatistics(nrCpuIds, domains.maxLevels(), topology.cpuCount());
    this.nohzIdleMask = CpuMasks.mutable(nrCpuIds);
    this.state = new EngineState(this);
  }

  long now() {
    return loop.now();
  }

  /** {@code jiffies}: the last jiffy the tick reached. */
  long jiffies() {
    return jiffies;
  }

  /** Advances {@code jiffies}; the tick's alone. */
  void setJiffies(long value) {
    jiffies = value;
  }

  /** Time of jiffy {@code j}: {@code j * 1e9 / hz}, rounded down. */
  long tickTime(long j) {
    return Math.multiplyExact(j, 1_000_000_000L) / hz;
  }

  /** Equivalent of {@code msecs_to_jiffies()}: rounds up. */
  long msecsToJiffies(long ms) {
    return (ms * hz + 999) / 1000;
  }
}
