package dev.schedlab.core.stats;

import dev.schedlab.core.balance.LbField;
import dev.schedlab.core.balance.LbStats;
import dev.schedlab.core.balance.MigrationSkip;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.IdleType;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Everything one simulation run measured: the statistics the kernel threads used (schedstat v17,
 * SCHED_SOFTIRQ count, ILB kicks and choices, SMT contention, ILB duration and rq-lock hold
 * histograms, migrations per level), plus wakeup latency, per-CPU time, wasted-core time, plugin
 * counters, the workload's own metric, and the engine's speed. All fields except {@link
 * #performance()} are a deterministic function of the configuration and seed.
 *
 * @param machine the topology's name
 * @param nrCpus online CPUs
 * @param seed master seed
 * @param simulatedNs simulated time
 * @param hz tick rate
 * @param levelNames domain level names of the deepest CPU, bottom-up
 * @param schedstat {@code /proc/schedstat} at the end
 * @param lbStats the balancer's counters (read-only after the run)
 * @param softirqs SCHED_SOFTIRQ runs: from ticks and from NOHZ kicks
 * @param softirqsFromTick ... raised by {@code sched_balance_trigger()}
 * @param softirqsFromKick ... raised by {@code nohz_csd_func()}
 * @param ilb NOHZ idle balancing
 * @param smtContention idle-to-task switches with a busy SMT sibling: running a task, or busy with
 *     balancing work (ILB, newidle, softirq), which occupies the core as much
 * @param smtContentionSiblingBalancing ... of which the sibling ran no task, only balancing (in the
 *     kernel's terms it was still idle: the idle task runs the softirq)
 * @param smtNoContention idle-to-task switches with every SMT sibling idle
 * @param ilbDuration duration of each kick-driven ILB pass
 * @param newidleDuration duration of each newidle pass that did work
 * @param rqLockHold runqueue-lock hold time during {@code detach_tasks()}
 * @param migrationsPerLevel tasks moved by balancing per domain level
 * @param wakeupMigrations wakeups placed on another CPU than the previous one
 * @param wakeupLatency wakeup-to-run latency
 * @param placementPaths forks and wakeups by the step of {@code select_task_rq()} that chose their
 *     CPU, indexed by {@link PlacementPath} ordinal
 * @param cpuTimes per-CPU busy, overhead and idle time
 * @param wastedCoreNs integral of min(CPUs without a task, waiting tasks) over time (affinity
 *     ignored)
 * @param anyWastedNs time during which some CPU had no task while some task waited
 * @param tasksCreated tasks created
 * @param pluginCounters plugin counters by {@code <plugin id>.<name>}
 * @param workload the workload's own result
 * @param performance the engine's own speed (not deterministic)
 */
public record SimulationResult(
    String machine,
    int nrCpus,
    long seed,
    long simulatedNs,
    int hz,
    List<String> levelNames,
    Schedstat schedstat,
    LbStats lbStats,
    long softirqs,
    long softirqsFromTick,
    long softirqsFromKick,
    IlbStatistics ilb,
    long smtContention,
    long smtContentionSiblingBalancing,
    long smtNoContention,
    Log2Histogram ilbDuration,
    Log2Histogram newidleDuration,
    Log2Histogram rqLockHold,
    long[] migrationsPerLevel,
    long wakeupMigrations,
    LatencySummary wakeupLatency,
    long[] placementPaths,
    List<CpuTime> cpuTimes,
    long wastedCoreNs,
    long anyWastedNs,
    int tasksCreated,
    Map<String, Long> pluginCounters,
    WorkloadResult workload,
    EnginePerformance performance) {

  public SimulationResult {
    levelNames = List.copyOf(levelNames);
    cpuTimes = List.copyOf(cpuTimes);
    migrationsPerLevel = migrationsPerLevel.clone();
    if (placementPaths.length != PlacementPath.ALL.size()) {
      throw new IllegalArgumentException(
          "placementPaths has "
              + placementPaths.length
              + " entries; expected one per PlacementPath ("
              + PlacementPath.ALL.size()
              + ")");
    }
    placementPaths = placementPaths.clone();
    pluginCounters =
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(pluginCounters));
  }

  /**
   * The engine's speed.
   *
   * @param eventsProcessed events fired
   * @param wallNs wall-clock time of the run
   */
  public record EnginePerformance(long eventsProcessed, long wallNs) {

    /** Simulated seconds per wall-clock second. */
    public double simulatedPerWallSecond(long simulatedNs) {
      return wallNs == 0 ? Double.POSITIVE_INFINITY : (double) simulatedNs / wallNs;
    }

    /** Events per wall-clock second. */
    public double eventsPerSecond() {
      return wallNs == 0 ? Double.POSITIVE_INFINITY : eventsProcessed * 1e9 / wallNs;
    }
  }

  @Override
  public long[] migrationsPerLevel() {
    return migrationsPerLevel.clone();
  }

  @Override
  public long[] placementPaths() {
    return placementPaths.clone();
  }

  /** Forks and wakeups whose CPU {@code path} chose. */
  public long placements(PlacementPath path) {
    return placementPaths[path.ordinal()];
  }

  /** Simulated seconds per wall-clock second. */
  public double simulatedPerWallSecond() {
    return performance.simulatedPerWallSecond(simulatedNs);
  }

  /** SCHED_SOFTIRQ runs per simulated second. */
  public double softirqsPerSecond() {
    return softirqs * 1e9 / simulatedNs;
  }

  /** Sum of busy (task + overhead) time over all CPUs. */
  public long totalBusyNs() {
    long sum = 0;
    for (CpuTime t : cpuTimes) {
      sum += t.busyNs();
    }
    return sum;
  }

  /**
   * A text rendering of every deterministic field (everything but {@link #performance()}): two runs
   * with the same configuration and seed give equal strings.
   */
  public String fingerprint() {
    StringBuilder out = new StringBuilder();
    out.append(summary());
    out.append("lb:");
    for (int level = 0; level < lbStats.nrLevels(); level++) {
      for (IdleType idle : IdleType.values()) {
        for (LbField field : LbField.values()) {
          out.append(' ').append(lbStats.lbTotal(level, idle, field));
        }
      }
    }
    out.append(" skips:");
    for (int level = 0; level < lbStats.nrLevels(); level++) {
      for (MigrationSkip reason : MigrationSkip.values()) {
        out.append(' ').append(lbStats.skips(level, reason));
      }
    }
    out.append('\n').append(ilb).append('\n');
    out.append(Arrays.toString(ilb.chosenPerCpu())).append('\n');
    out.append(Arrays.toString(ilbDuration.buckets())).append('\n');
    out.append(Arrays.toString(newidleDuration.buckets())).append('\n');
    out.append(Arrays.toString(rqLockHold.buckets())).append('\n');
    out.append(wakeupLatency).append('\n');
    out.append(Arrays.toString(placementPaths)).append('\n');
    for (CpuTime t : cpuTimes) {
      out.append(t).append('\n');
    }
    out.append(pluginCounters).append('\n');
    out.append(workload).append('\n');
    out.append(schedstat.toProcText());
    return out.toString();
  }

  /** A short human summary. */
  public String summary() {
    double seconds = simulatedNs / 1e9;
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s, %d CPUs, %.3f s simulated, HZ=%d, seed %d%n",
            machine,
            nrCpus,
            seconds,
            hz,
            seed));
    out.append(
        String.format(
            Locale.ROOT,
            "workload: %s = %.6g %s%n",
            workload.metric(),
            workload.value(),
            workload.unit()));
    out.append(
        String.format(
            Locale.ROOT,
            "SCHED_SOFTIRQ: %d (%.1f/s; tick %d, kick %d)%n",
            softirqs,
            softirqsPerSecond(),
            softirqsFromTick,
            softirqsFromKick));
    out.append(
        String.format(
            Locale.ROOT,
            "ILB: %d kick calls, %d IPIs, %d choices (%d with a busy sibling), %d passes%n",
            ilb.kickCalls(),
            ilb.ipis(),
            ilb.choices(),
            ilb.choicesWithBusySibling(),
            ilb.runs()));
    out.append(
        String.format(
            Locale.ROOT,
            "SMT contention: %d with a busy sibling (%d of them only balancing), %d without%n",
            smtContention,
            smtContentionSiblingBalancing,
            smtNoContention));
    out.append("migrations per level:");
    for (int level = 0; level < migrationsPerLevel.length; level++) {
      String name = level < levelNames.size() ? levelNames.get(level) : "level" + level;
      out.append(' ').append(name).append('=').append(migrationsPerLevel[level]);
    }
    out.append(String.format(Locale.ROOT, "; wakeup migrations %d%n", wakeupMigrations));
    out.append(
        String.format(
            Locale.ROOT,
            "wakeup latency: n=%d p50=%d p99=%d max=%d ns%n",
            wakeupLatency.count(),
            wakeupLatency.p50Ns(),
            wakeupLatency.p99Ns(),
            wakeupLatency.maxNs()));
    out.append(
        String.format(
            Locale.ROOT,
            "wasted core: %.6f CPU-s (any: %.6f s)%n",
            wastedCoreNs / 1e9,
            anyWastedNs / 1e9));
    return out.toString();
  }
}
