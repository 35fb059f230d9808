package dev.schedlab.core.engine;

import dev.schedlab.core.balance.AlbField;
import dev.schedlab.core.balance.LbField;
import dev.schedlab.core.balance.LbStats;
import dev.schedlab.core.stats.CpuSchedstat;
import dev.schedlab.core.stats.CpuTime;
import dev.schedlab.core.stats.DomainSchedstat;
import dev.schedlab.core.stats.IlbStatistics;
import dev.schedlab.core.stats.LatencySummary;
import dev.schedlab.core.stats.Log2Histogram;
import dev.schedlab.core.stats.Schedstat;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link SimulationResult} of a finished run, read from the engine's and the balancer's
 * counters, with {@code /proc/schedstat} v17 ({@code show_schedstat()}'s cpu and domain lines).
 */
final class RunResults {

  private RunResults() {}

  /** What the run measured; {@code wallNs} is the wall-clock time it took. */
  static SimulationResult of(Engine engine, long wallNs) {
    EngineContext ctx = engine.ctx;
    Topology topology = ctx.topology;
    EngineStatistics stats = ctx.stats;
    long simulated = ctx.loop.now();
    LbStats lb = engine.balancer.stats();
    long[] migrations = new long[lb.nrLevels()];
    for (int level = 0; level < migrations.length; level++) {
      migrations[level] = lb.migrations(level);
    }
    List<CpuTime> times = new ArrayList<>();
    CpuMask online = topology.onlineMask();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = ctx.rqs[cpu];
      times.add(new CpuTime(cpu, rq.taskNs - rq.stolenNs, rq.overheadNs + rq.stolenNs, rq.idleNs));
    }
    WorkloadResult workloadResult = engine.workload.result(simulated);
    return new SimulationResult(
        topology.name(),
        topology.cpuCount(),
        engine.setup.seed(),
        simulated,
        ctx.hz,
        ctx.domains.levelNames(),
        schedstat(engine),
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
        Log2Histogram.ofBuckets(lb.lockHoldHistogram(), lb.lockHoldSumNs()).plus(stats.rqLockHold),
        migrations,
        stats.wakeupMigrations,
        LatencySummary.of(stats.wakeupLatency),
        engine.selectTaskRq.placementPaths(),
        times,
        stats.wastedCoreNs,
        stats.anyWastedNs,
        ctx.tasks.size(),
        ctx.counters.snapshot(),
        workloadResult,
        new SimulationResult.EnginePerformance(ctx.loop.processed(), wallNs));
  }

  /** {@code /proc/schedstat} v17 from the engine's and the balancer's counters. */
  private static Schedstat schedstat(Engine engine) {
    EngineContext ctx = engine.ctx;
    Topology topology = ctx.topology;
    EngineStatistics stats = ctx.stats;
    LbStats lb = engine.balancer.stats();
    List<Schedstat.CpuEntry> entries = new ArrayList<>();
    // The CPUs of a domain share one span object, so each distinct span is printed once: on an
    // 8192-CPU machine a span is 2,048 hex digits and there are four domains per CPU.
    Map<CpuMask, String> hexOfSpan = new IdentityHashMap<>();
    CpuMask online = topology.onlineMask();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      CpuRunqueue rq = ctx.rqs[cpu];
      CpuSchedstat counters =
          new CpuSchedstat(
              0,
              rq.schedCount,
              rq.schedGoidle,
              rq.ttwuCount,
              rq.ttwuLocal,
              rq.rqCpuTimeNs,
              rq.runDelayNs,
              rq.pcount);
      List<DomainSchedstat> lines = new ArrayList<>();
      for (SchedDomain sd : ctx.domains.domains(cpu)) {
        int level = sd.level();
        long[] fields = new long[DomainSchedstat.LB_FIELDS];
        int k = 0;
        for (IdleType idle : IdleType.values()) {
          for (LbField field : LbField.values()) {
            fields[k++] = lb.lb(cpu, level, idle, field);
          }
        }
        long[] alb = new long[3];
        int a = 0;
        for (AlbField field : AlbField.values()) {
          alb[a++] = lb.alb(cpu, level, field);
        }
        lines.add(
            new DomainSchedstat(
                level,
                sd.name(),
                hexOfSpan.computeIfAbsent(sd.span(), CpuMask::toHex),
                fields,
                alb,
                stats.ttwuWakeRemoteAt(cpu, level),
                stats.ttwuMoveAffineAt(cpu, level)));
      }
      entries.add(new Schedstat.CpuEntry(cpu, counters, lines));
    }
    return new Schedstat(ctx.jiffies(), entries);
  }
}
