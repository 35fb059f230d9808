package dev.schedlab.cli.report;

import dev.schedlab.cli.report.Metric.Better;
import dev.schedlab.cli.report.Metric.Use;
import dev.schedlab.core.balance.LbField;
import dev.schedlab.core.balance.MigrationSkip;
import dev.schedlab.core.stats.CpuTime;
import dev.schedlab.core.stats.PlacementPath;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.LostWork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The catalogue of report figures: every metric of {@code run}, {@code compare} and {@code sweep}
 * declared once, in the order of the JSON report ({@link #CATALOGUE}), and what is derived from it:
 * the comparison table's rows ({@link #ROWS}), the numeric keys of JSON and CSV ({@link #NUMBERS}),
 * sweep's default metrics ({@link #SWEEP_DEFAULTS}), the HTML page's bar charts ({@link #CHART})
 * and the metric tables of {@code docs/reports.md} (rendered by a test that fails when the page and
 * the catalogue disagree). Adding a figure takes its entry here and the site in the engine that
 * counts it.
 *
 * <p>The catalogue lives in the command line, not in sched-core's statistics: the engine's {@link
 * SimulationResult} keeps the raw counts under its public accessors, and which of them a report
 * shows, under which name, unit and direction, is the report's decision (the engine is also
 * restructured separately, and its accessors are the stable surface).
 */
public final class Metrics {

  /** A figure or a family of figures of the catalogue. */
  public sealed interface Entry permits Metric, Family {
    /** Puts the figures of {@code result} this entry declares into {@code into}. */
    void put(SimulationResult result, Map<String, Object> into);
  }

  /**
   * Figures whose names only a run knows (a workload's own figures, plugin counters), keyed by a
   * prefix and the run's name for each.
   *
   * @param patterns the key patterns, for messages and docs ({@code workload_<name>}); a key starts
   *     with the part of one before its {@code <}
   * @param counts what they count, in the words of {@code docs/reports.md}
   * @param kernel their kernel counterpart, or {@code —}
   * @param put puts a run's figures of the family into a report
   */
  public record Family(
      List<String> patterns,
      String counts,
      String kernel,
      BiConsumer<SimulationResult, Map<String, Object>> put)
      implements Entry {

    public Family {
      patterns = List.copyOf(patterns);
    }

    /** The prefixes the family's keys start with. */
    public List<String> prefixes() {
      return patterns.stream().map(p -> p.substring(0, p.indexOf('<'))).toList();
    }

    @Override
    public void put(SimulationResult result, Map<String, Object> into) {
      put.accept(result, into);
    }

    /** Whether {@code key} names a figure of this family: {@code workload_x}, not a prefix. */
    public boolean contains(String key) {
      for (String prefix : prefixes()) {
        if (key.startsWith(prefix) && key.length() > prefix.length()) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * A metric as the comparison table shows it.
   *
   * @param key the JSON key
   * @param label the row label
   * @param better direction of improvement
   */
  public record Row(String key, String label, Better better) {}

  /** Keys of a workload's own figures start with this. */
  public static final String WORKLOAD_PREFIX = "workload_";

  /** Keys of plugin counters start with this. */
  public static final String PLUGIN_PREFIX = "plugin_";

  /** Keys of the engine's own counters ({@code engine.<name>} in the run) start with this. */
  public static final String ENGINE_PREFIX = "engine_";

  /** Keys of the tasks balancing passed over ({@link MigrationSkip}) start with this. */
  public static final String SKIP_PREFIX = "lb_skip_";

  /** Keys of placement counts ({@link PlacementPath}) start with this. */
  public static final String PLACEMENT_PREFIX = "placement_";

  /** The engine registers its own counters under this prefix, as if it were a plugin. */
  private static final String ENGINE_COUNTER = "engine.";

  /** Every figure of a run, in the order of the JSON report. */
  public static final List<Entry> CATALOGUE = catalogue();

  /** The single figures of {@link #CATALOGUE} (families of open names left out), in order. */
  public static final List<Metric> METRICS =
      CATALOGUE.stream().filter(Metric.class::isInstance).map(Metric.class::cast).toList();

  /** The families of open names of {@link #CATALOGUE}, in order. */
  public static final List<Family> FAMILIES =
      CATALOGUE.stream().filter(Family.class::isInstance).map(Family.class::cast).toList();

  /** The table rows after the workload's metric, in order. */
  public static final List<Row> ROWS =
      METRICS.stream()
          .filter(m -> m.is(Use.TABLE))
          .map(m -> new Row(m.key(), m.label(), m.better()))
          .toList();

  /** The numeric keys of {@link #of} other than those of a family of open names, in order. */
  public static final List<String> NUMBERS = keys(Use.NUMBER);

  /** The metrics {@code sweep} summarises unless asked for more. */
  public static final List<String> SWEEP_DEFAULTS = keys(Use.SWEEP);

  /** The metrics the HTML page draws as bars. */
  public static final List<String> CHART = keys(Use.CHART);

  private Metrics() {}

  private static List<Entry> catalogue() {
    List<Entry> c = new ArrayList<>();
    c.add(
        Metric.of("throughput", r -> r.workload().value())
            .withBetter(Better.WORKLOAD)
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "the workload's own metric, by its own name and unit (the table's first row:"
                    + " `throughput (FLOP/s, higher is better)`, `time (s, lower is better)`, ...)",
                "the benchmark's own figure"));
    c.add(
        Metric.of("throughput_unit", r -> r.workload().unit())
            .notANumber()
            .withDoc("the unit of `throughput`", "—"));
    c.add(
        Metric.of("throughput_metric", r -> r.workload().metric())
            .notANumber()
            .withDoc("the name of the workload's metric (`throughput`, `time`, ...)", "—"));
    c.add(
        Metric.of("higher_is_better", r -> r.workload().higherIsBetter())
            .notANumber()
            .withDoc("whether a higher `throughput` is better", "—"));
    c.add(
        Metric.of("smt_contention", r -> r.smtContention())
            .withLabel("SMT contention (idle->task, sibling busy)")
            .withBetter(Better.LOWER)
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "switches of a CPU from idle to a task while an SMT sibling was busy (running a"
                    + " task, or balancing)",
                "the thread's bpftrace \"SMT contention\""));
    c.add(
        Metric.of("smt_no_contention", r -> r.smtNoContention())
            .withLabel("SMT no contention (sibling idle)")
            .withUse(Use.SWEEP)
            .withDoc("the same switches with every sibling idle", "—"));
    c.add(
        Metric.of("ilb_kicks", r -> r.ilb().ipis())
            .withLabel("ILB kicks (IPIs sent)")
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "`kick_ilb()` calls that sent the NOHZ IPI",
                "`smp_call_function_single_async()` in `kick_ilb()`"));
    c.add(
        Metric.of("ilb_kick_calls", r -> r.ilb().kickCalls())
            .withName("kick_ilb() calls (with or without an IPI)")
            .withDoc("`kick_ilb()` calls, whether they sent an IPI or not", "`kick_ilb()`"));
    c.add(
        Metric.of("ilb_kicks_pending", r -> r.ilb().alreadyPending())
            .withLabel("ILB kicks found already pending (no IPI)")
            .withDoc(
                "kicks that found the chosen ILB's `nohz_flags` already set, so sent nothing",
                "the early return of `kick_ilb()`"));
    c.add(
        Metric.of("ilb_no_idle_cpu", r -> r.ilb().noIlb())
            .withName("ILB kicks that found no idle CPU")
            .withDoc(
                "kicks for which `find_new_ilb()` found no CPU",
                "`find_new_ilb()` returning `nr_cpu_ids`"));
    c.add(
        Metric.of("ilb_busy_sibling_choices", r -> r.ilb().choicesWithBusySibling())
            .withLabel("ILB choices next to a busy sibling")
            .withBetter(Better.LOWER)
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "`find_new_ilb()` results whose SMT sibling ran a task",
                "what the 7.3 idle-core rule avoids"));
    c.add(
        Metric.of("ilb_cpus_examined", r -> r.ilb().cpusExamined())
            .withName("CPUs examined by ILB selection")
            .withDoc("CPUs `find_new_ilb()` examined, over all kicks", "—"));
    c.add(
        Metric.of("ilb_runs", r -> r.ilb().runs())
            .withLabel("ILB passes run")
            .withDoc("`_nohz_idle_balance()` passes", "SCHED_SOFTIRQ raised by `nohz_csd_func()`"));
    c.add(
        Metric.of("ilb_duration_mean_us", r -> r.ilbDuration().meanNs() / 1e3)
            .withLabel("ILB pass mean duration (us)")
            .withUnit("us")
            .withDoc(
                "mean of one pass over `nohz.idle_cpus_mask`, costed by the engine's balance"
                    + " cost model",
                "the thread's ILB-duration histogram"));
    c.add(
        Metric.of("softirq", r -> r.softirqs())
            .withName("SCHED_SOFTIRQ raised")
            .withDoc(
                "SCHED_SOFTIRQ runs, from ticks and from kicks", "`/proc/softirqs` SCHED row"));
    c.add(
        Metric.of("softirq_per_s", r -> r.softirqs() / seconds(r))
            .withLabel("SCHED_SOFTIRQ per second")
            .withUnit("1/s")
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "softirqs from ticks (`sched_balance_trigger()`) plus from kicks",
                "`/proc/softirqs` SCHED row"));
    c.add(
        Metric.of("lb_attempts", r -> r.lbStats().lbTotal(LbField.COUNT))
            .withName("load-balance attempts")
            .withDoc(
                "`lb_count` summed over CPUs, domains and idle types", "schedstat v17 `lb_count`"));
    c.add(
        Metric.of("lb_attempts_per_s", r -> r.lbStats().lbTotal(LbField.COUNT) / seconds(r))
            .withLabel("load-balance attempts per second")
            .withUnit("1/s")
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "`lb_count` summed over CPUs, domains and idle types, per simulated second",
                "schedstat v17 `lb_count`"));
    c.add(
        Metric.of("lb_balanced", r -> r.lbStats().lbTotal(LbField.BALANCED))
            .withName("load-balance attempts found balanced")
            .withDoc("`lb_balanced` summed", "schedstat v17"));
    c.add(
        Metric.of("lb_failed", r -> r.lbStats().lbTotal(LbField.FAILED))
            .withName("load-balance attempts failed")
            .withDoc("`lb_failed` summed", "schedstat v17"));
    c.add(
        Metric.of("lb_gained", r -> r.lbStats().lbTotal(LbField.GAINED))
            .withLabel("tasks moved by balancing (lb_gained)")
            .withDoc("`lb_gained` summed", "schedstat v17"));
    for (MigrationSkip reason : MigrationSkip.values()) {
      c.add(
          Metric.of(skipKey(reason), r -> r.lbStats().skips(reason))
              .withName("tasks passed over: " + reason.label())
              .inFamily(SKIP_PREFIX + "<reason>")
              .withDoc(
                  "tasks `detach_tasks()` passed over, by reason (below)",
                  "`nr_failed_migrations_affine/_running/_hot`, and two reasons of the model's own"));
    }
    c.add(
        Metric.of("migrations", Metrics::migrations)
            .withLabel("migrations by balancing")
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "every balancer move: periodic, newidle, ILB, active balance and plugin pushes",
                "—"));
    c.add(
        Metric.of("migrations_per_level", Metrics::migrationsPerLevel)
            .notANumber()
            .withDoc("the same per domain level, by the level's name", "—"));
    c.add(
        Metric.of("wakeup_migrations", r -> r.wakeupMigrations())
            .withLabel("wakeup migrations")
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "wakeups placed on another CPU than the task's previous one",
                "`se.statistics.nr_wakeups_migrate` summed"));
    c.add(
        Metric.of("wakeup_latency_p50_us", r -> r.wakeupLatency().p50Ns() / 1e3)
            .withName("wakeup latency p50, all woken tasks (us)")
            .withUnit("us")
            .withDoc(
                "the median of the time from a wakeup to the task running", "the `runqlat` view"));
    c.add(
        Metric.of("wakeup_latency_p99_us", r -> r.wakeupLatency().p99Ns() / 1e3)
            .withLabel("wakeup latency p99, all woken tasks (us)")
            .withUnit("us")
            .withBetter(Better.LOWER)
            .withUse(Use.SWEEP)
            .withDoc(
                "from a wakeup to the task running, over all woken tasks", "the `runqlat` view"));
    for (PlacementPath path : PlacementPath.ALL) {
      c.add(
          Metric.of(PLACEMENT_PREFIX + path.key(), r -> r.placements(path))
              .withName("placed by " + path.label())
              .inFamily(PLACEMENT_PREFIX + "<path>")
              .withDoc(
                  "forks and wakeups by the step of `select_task_rq()` that placed them (below)",
                  "the steps of `select_task_rq_fair()`"));
    }
    c.add(
        Metric.of("rq_lock_hold_mean_us", r -> r.rqLockHold().meanNs() / 1e3)
            .withLabel("rq-lock hold in balancing, mean (us)")
            .withUnit("us")
            .withBetter(Better.LOWER)
            .withDoc(
                "how long balancing holds a runqueue lock: `detach_tasks()` on the source"
                    + " runqueue, `sched_balance_update_blocked_averages()` (its cost, `-E"
                    + " blocked_load_update_cost`), the ILB's `update_rq_clock()` per CPU it balances"
                    + " (`-E ilb_visit_cost`)",
                "the thread's lock-hold histogram"));
    c.add(
        Metric.of("wasted_core_ms", r -> r.wastedCoreNs() / 1e6)
            .withLabel("wasted core: CPU idle while a task waits (ms)")
            .withUnit("ms")
            .withBetter(Better.LOWER)
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc(
                "∫ min(CPUs with nothing to run, tasks waiting behind a running task) dt,"
                    + " affinity ignored",
                "the \"wasted cores\" measure of Lozi et al. (EuroSys 2016)"));
    c.add(
        Metric.of("busy_pct", r -> percentOfCpuTime(r, busyNs(r)))
            .withLabel("CPU busy (%)")
            .withUnit("%")
            .withUse(Use.CHART)
            .withUse(Use.SWEEP)
            .withDoc("task plus balancing time over all CPUs", "—"));
    c.add(
        Metric.of("overhead_pct", r -> percentOfCpuTime(r, overheadNs(r)))
            .withLabel("balancing overhead (% of CPU time)")
            .withUnit("%")
            .withBetter(Better.LOWER)
            .withDoc("time spent balancing (ILB passes, newidle, periodic)", "—"));
    c.add(
        Metric.of("tasks", r -> r.tasksCreated())
            .withName("tasks created")
            .withDoc("tasks created", "—"));
    c.add(
        new Family(
            List.of(WORKLOAD_PREFIX + "<name>"),
            "the workload's own figures, for example `workload_wakeup_p999_us` of `wl.schbench`,"
                + " `workload_as_wake_to_run_us_mean` of `wl.build`; `wl.gemm`'s"
                + " `workload_critical_lost_pct`, the share of its critical path (each panel"
                + " k-step's last thread) lost to interference, and `workload_critical_lost_<cause>_pct`"
                + " by cause: "
                + causeList()
                + " (the comparison table \"critical path\" shows them)",
            "—",
            (r, m) -> {
              for (Map.Entry<String, Double> e : r.workload().extra().entrySet()) {
                m.put(WORKLOAD_PREFIX + e.getKey(), e.getValue());
              }
            }));
    c.add(
        new Family(
            List.of(PLUGIN_PREFIX + "<plugin id>.<name>", ENGINE_PREFIX + "<name>"),
            "plugin counters, and the engine's own: `engine_ilb_aborts`, ILB passes cut short by a"
                + " wakeup, `engine_deep_idle_exits`, IPIs that woke a core from the deep idle state of"
                + " `-E deep_idle_exit`, `engine_memory_home_us` and `engine_memory_remote_us`,"
                + " memory-bound CPU time at and away from the home node",
            "—",
            (r, m) -> {
              for (Map.Entry<String, Long> e : r.pluginCounters().entrySet()) {
                m.put(counterKey(e.getKey()), e.getValue());
              }
            }));
    c.add(
        Metric.of("events", r -> r.performance().eventsProcessed())
            .withName("engine: events processed")
            .withDoc("events the engine processed", "—"));
    c.add(
        Metric.of("events_per_s", r -> r.performance().eventsPerSecond())
            .withName("engine: events per wall s")
            .withUnit("1/s")
            .withUse(Use.WALL_CLOCK)
            .withDoc("events per wall-clock second; not deterministic", "—"));
    c.add(
        Metric.of("sim_seconds_per_wall_second", r -> r.simulatedPerWallSecond())
            .withLabel("engine: simulated s per wall s")
            .withUse(Use.SWEEP)
            .withUse(Use.WALL_CLOCK)
            .withDoc("simulated seconds per wall-clock second; not deterministic", "—"));
    return List.copyOf(c);
  }

  private static List<String> keys(Use use) {
    return METRICS.stream().filter(m -> m.is(use)).map(Metric::key).toList();
  }

  private static double seconds(SimulationResult r) {
    return r.simulatedNs() / 1e9;
  }

  private static long migrations(SimulationResult r) {
    long migrations = 0;
    for (long n : r.migrationsPerLevel()) {
      migrations += n;
    }
    return migrations;
  }

  private static Map<String, Object> migrationsPerLevel(SimulationResult r) {
    Map<String, Object> perLevel = new LinkedHashMap<>();
    long[] levels = r.migrationsPerLevel();
    for (int level = 0; level < levels.length; level++) {
      perLevel.put(levelName(r, level), levels[level]);
    }
    return perLevel;
  }

  private static long busyNs(SimulationResult r) {
    long busy = 0;
    for (CpuTime t : r.cpuTimes()) {
      busy += t.busyNs();
    }
    return busy;
  }

  private static long overheadNs(SimulationResult r) {
    long overhead = 0;
    for (CpuTime t : r.cpuTimes()) {
      overhead += t.overheadNs();
    }
    return overhead;
  }

  private static double percentOfCpuTime(SimulationResult r, long ns) {
    double cpuNs = (double) r.nrCpus() * r.simulatedNs();
    return cpuNs == 0 ? 0 : 100.0 * ns / cpuNs;
  }

  /**
   * The report key of a run's counter: {@code engine_<name>} for the engine's own {@code
   * engine.<name>}, {@code plugin_<plugin id>.<name>} for a plugin's.
   */
  static String counterKey(String counter) {
    return counter.startsWith(ENGINE_COUNTER)
        ? ENGINE_PREFIX + counter.substring(ENGINE_COUNTER.length())
        : PLUGIN_PREFIX + counter;
  }

  /** The metric key of the tasks passed over for {@code reason}. */
  public static String skipKey(MigrationSkip reason) {
    return SKIP_PREFIX + reason.key();
  }

  /** Whether {@code key} names a figure of a family of open names ({@code workload_x}, ...). */
  public static boolean isPrefixed(String key) {
    for (Family family : FAMILIES) {
      if (family.contains(key)) {
        return true;
      }
    }
    return false;
  }

  /** Every metric of {@code r}, keyed as in the JSON report. */
  public static Map<String, Object> of(SimulationResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Entry entry : CATALOGUE) {
      entry.put(r, m);
    }
    return m;
  }

  /**
   * The name of domain level {@code level}, as the run's deepest CPU names it; a name the kernel
   * gives several levels (the NUMA levels of {@code sched_init_numa()}, one per distance) gets its
   * rank among them, bottom-up: {@code NUMA-1}, {@code NUMA-2}.
   */
  public static String levelName(SimulationResult r, int level) {
    List<String> names = r.levelNames();
    if (level >= names.size()) {
      return "level" + level;
    }
    String name = names.get(level);
    int rank = 0;
    int count = 0;
    for (int l = 0; l < names.size(); l++) {
      if (names.get(l).equals(name)) {
        count++;
        if (l <= level) {
          rank++;
        }
      }
    }
    return count > 1 ? name + "-" + rank : name;
  }

  /**
   * The table label of the workload's own metric in the figures {@code run}: its name, unit and
   * direction, {@code time (s, lower is better)}.
   */
  public static String workloadLabel(Map<String, Object> run) {
    boolean higher = Boolean.TRUE.equals(run.get("higher_is_better"));
    return workloadName(run)
        + " ("
        + run.get("throughput_unit")
        + ", "
        + (higher ? "higher" : "lower")
        + " is better)";
  }

  /**
   * The workload's metric in words, as tables and readings name it: {@code throughput}, {@code
   * time}, {@code best rate}, {@code p99 wakeup latency} ({@code p99_wakeup_latency} in JSON).
   */
  public static String workloadName(Map<String, Object> run) {
    return String.valueOf(run.get("throughput_metric")).replace('_', ' ');
  }

  /**
   * The table label of {@code key}: its catalogue label, or for a figure of a family of open names
   * its name in words ({@code workload_wakeup_p99_us}: {@code workload: wakeup p99 (us)}); the key
   * itself only for a key the catalogue does not know.
   */
  public static String label(String key) {
    for (Metric metric : METRICS) {
      if (metric.key().equals(key) && metric.label() != null) {
        return metric.label();
      }
    }
    if (key.startsWith(WORKLOAD_PREFIX) && key.length() > WORKLOAD_PREFIX.length()) {
      return "workload: " + words(key.substring(WORKLOAD_PREFIX.length()));
    }
    if (key.startsWith(PLUGIN_PREFIX) && key.length() > PLUGIN_PREFIX.length()) {
      return "plugin counter: " + key.substring(PLUGIN_PREFIX.length());
    }
    if (key.startsWith(ENGINE_PREFIX) && key.length() > ENGINE_PREFIX.length()) {
      return "engine counter: " + key.substring(ENGINE_PREFIX.length());
    }
    return key;
  }

  /**
   * A figure's name in words: underscores become spaces and a unit at the end goes in brackets
   * ({@code wakeup_p99_us}: {@code wakeup p99 (us)}, {@code requests_per_s}: {@code requests (/s)},
   * {@code critical_lost_pct}: {@code critical lost (%)}).
   */
  public static String words(String name) {
    String unit = null;
    String rest = name;
    for (String[] suffix : UNIT_SUFFIXES) {
      if (name.endsWith(suffix[0]) && name.length() > suffix[0].length()) {
        unit = suffix[1];
        rest = name.substring(0, name.length() - suffix[0].length());
        break;
      }
    }
    String text = rest.replace('_', ' ').trim();
    return unit == null ? text : text + " (" + unit + ")";
  }

  /** Key endings that name a unit, and the unit: the longest first. */
  private static final String[][] UNIT_SUFFIXES = {
    {"_per_s", "/s"}, {"_pct", "%"}, {"_us", "us"}, {"_ms", "ms"}, {"_ns", "ns"}, {"_s", "s"}
  };

  /** A metric's numeric value, or NaN when it is not a number. */
  /**
   * The key of the critical path's total lost work, a figure of the workloads that report it
   * ({@code wl.gemm}: {@code critical_lost_pct}).
   */
  public static final String CRITICAL_LOST = WORKLOAD_PREFIX + "critical_lost_pct";

  /** The key of the critical path's lost work of {@code cause}. */
  public static String criticalLostKey(LostWork cause) {
    return WORKLOAD_PREFIX + "critical_lost_" + cause.key() + "_pct";
  }

  private static String causeList() {
    StringBuilder out = new StringBuilder();
    for (LostWork cause : LostWork.ALL) {
      out.append(out.length() == 0 ? "" : "; ")
          .append('`')
          .append(cause.key())
          .append("`, ")
          .append(cause.description());
    }
    return out.toString();
  }

  public static double number(Map<String, Object> metrics, String key) {
    Object v = metrics.get(key);
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /** Keys whose value is deterministic per configuration and seed (engine speed excluded). */
  public static boolean deterministic(String key) {
    for (Metric metric : METRICS) {
      if (metric.key().equals(key)) {
        return !metric.is(Use.WALL_CLOCK);
      }
    }
    return true;
  }
}
