package dev.schedlab.cli.report;

import dev.schedlab.core.balance.LbField;
import dev.schedlab.core.balance.MigrationSkip;
import dev.schedlab.core.stats.CpuTime;
import dev.schedlab.core.stats.PlacementPath;
import dev.schedlab.core.stats.SimulationResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures every report shows for one run, by their JSON key: the workload's own metric, the
 * statistics the kernel threads argued with (SMT contention, ILB kicks, SCHED_SOFTIRQ, balancing
 * attempts, migrations), the wasted-core oracle and the engine's speed.
 */
public final class Metrics {

  /**
   * A metric as the comparison table shows it.
   *
   * @param key the JSON key
   * @param label the row label
   * @param higherIsBetter direction of improvement, null when neither (engine speed aside)
   */
  record Row(String key, String label, Boolean higherIsBetter) {}

  /** The table rows after the workload's metric, in order. */
  static final List<Row> ROWS = List.of(
      new Row("smt_contention", "SMT contention (idle->task, sibling busy)", false),
      new Row("smt_no_contention", "SMT no contention (sibling idle)", null),
      new Row("ilb_kicks", "ILB kicks (IPIs sent)", null),
      new Row("ilb_kicks_pending", "ILB kicks found already pending (no IPI)", null),
      new Row("ilb_busy_sibling_choices", "ILB choices next to a busy sibling", false),
      new Row("ilb_runs", "ILB passes run", null),
      new Row("ilb_duration_mean_us", "ILB pass mean duration (us)", null),
      new Row("softirq_per_s", "SCHED_SOFTIRQ per second", null),
      new Row("lb_attempts_per_s", "load-balance attempts per second", null),
      new Row("lb_gained", "tasks moved by balancing (lb_gained)", null),
      new Row("migrations", "migrations by balancing", null),
      new Row("wakeup_migrations", "wakeup migrations", null),
      new Row("wakeup_latency_p99_us", "wakeup latency p99 (us)", false),
      new Row("rq_lock_hold_mean_us", "rq-lock hold in balancing, mean (us)", false),
      new Row("wasted_core_ms", "wasted core: CPU idle while a task waits (ms)", false),
      new Row("busy_pct", "CPU busy (%)", null),
      new Row("overhead_pct", "balancing overhead (% of CPU time)", false),
      new Row("sim_seconds_per_wall_second", "engine: simulated s per wall s", null));

  /** Keys of a workload's own figures start with this. */
  static final String WORKLOAD_PREFIX = "workload_";

  /** Keys of plugin counters start with this. */
  static final String PLUGIN_PREFIX = "plugin_";

  /** Keys of the tasks balancing passed over ({@link MigrationSkip}) start with this. */
  static final String SKIP_PREFIX = "lb_skip_";

  /** Keys of placement counts ({@link PlacementPath}) start with this. */
  public static final String PLACEMENT_PREFIX = "placement_";

  /** The numeric keys of {@link #of} other than the workload's and plugins' own, in order. */
  public static final List<String> NUMBERS = numbers();

  private static List<String> numbers() {
    List<String> keys = new ArrayList<>(List.of(
        "throughput", "smt_contention", "smt_no_contention", "ilb_kicks", "ilb_kick_calls",
        "ilb_kicks_pending", "ilb_no_idle_cpu", "ilb_busy_sibling_choices", "ilb_cpus_examined",
        "ilb_runs", "ilb_duration_mean_us", "softirq", "softirq_per_s", "lb_attempts",
        "lb_attempts_per_s", "lb_balanced", "lb_failed", "lb_gained"));
    for (MigrationSkip reason : MigrationSkip.values()) {
      keys.add(skipKey(reason));
    }
    keys.addAll(List.of("migrations", "wakeup_migrations", "wakeup_latency_p50_us",
        "wakeup_latency_p99_us"));
    for (PlacementPath path : PlacementPath.ALL) {
      keys.add(PLACEMENT_PREFIX + path.key());
    }
    keys.addAll(List.of("rq_lock_hold_mean_us", "wasted_core_ms", "busy_pct", "overhead_pct",
        "tasks", "events", "events_per_s", "sim_seconds_per_wall_second"));
    return List.copyOf(keys);
  }

  private Metrics() {}

  /** The metric key of the tasks passed over for {@code reason}. */
  static String skipKey(MigrationSkip reason) {
    return SKIP_PREFIX + reason.key();
  }

  /** Whether {@code key} names a workload figure or plugin counter ({@code workload_x}, ...). */
  public static boolean isPrefixed(String key) {
    return key.startsWith(WORKLOAD_PREFIX) && key.length() > WORKLOAD_PREFIX.length()
        || key.startsWith(PLUGIN_PREFIX) && key.length() > PLUGIN_PREFIX.length();
  }

  /** Every metric of {@code r}, keyed as in the JSON report. */
  public static Map<String, Object> of(SimulationResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    double seconds = r.simulatedNs() / 1e9;
    m.put("throughput", r.workload().value());
    m.put("throughput_unit", r.workload().unit());
    m.put("throughput_metric", r.workload().metric());
    m.put("higher_is_better", r.workload().higherIsBetter());
    m.put("smt_contention", r.smtContention());
    m.put("smt_no_contention", r.smtNoContention());
    m.put("ilb_kicks", r.ilb().ipis());
    m.put("ilb_kick_calls", r.ilb().kickCalls());
    m.put("ilb_kicks_pending", r.ilb().alreadyPending());
    m.put("ilb_no_idle_cpu", r.ilb().noIlb());
    m.put("ilb_busy_sibling_choices", r.ilb().choicesWithBusySibling());
    m.put("ilb_cpus_examined", r.ilb().cpusExamined());
    m.put("ilb_runs", r.ilb().runs());
    m.put("ilb_duration_mean_us", r.ilbDuration().meanNs() / 1e3);
    m.put("softirq", r.softirqs());
    m.put("softirq_per_s", r.softirqs() / seconds);
    long attempts = r.lbStats().lbTotal(LbField.COUNT);
    m.put("lb_attempts", attempts);
    m.put("lb_attempts_per_s", attempts / seconds);
    m.put("lb_balanced", r.lbStats().lbTotal(LbField.BALANCED));
    m.put("lb_failed", r.lbStats().lbTotal(LbField.FAILED));
    m.put("lb_gained", r.lbStats().lbTotal(LbField.GAINED));
    for (MigrationSkip reason : MigrationSkip.values()) {
      m.put(skipKey(reason), r.lbStats().skips(reason));
    }
    long migrations = 0;
    for (long n : r.migrationsPerLevel()) {
      migrations += n;
    }
    m.put("migrations", migrations);
    Map<String, Object> perLevel = new LinkedHashMap<>();
    long[] levels = r.migrationsPerLevel();
    for (int level = 0; level < levels.length; level++) {
      perLevel.put(levelName(r, level), levels[level]);
    }
    m.put("migrations_per_level", perLevel);
    m.put("wakeup_migrations", r.wakeupMigrations());
    m.put("wakeup_latency_p50_us", r.wakeupLatency().p50Ns() / 1e3);
    m.put("wakeup_latency_p99_us", r.wakeupLatency().p99Ns() / 1e3);
    for (PlacementPath path : PlacementPath.ALL) {
      m.put(PLACEMENT_PREFIX + path.key(), r.placements(path));
    }
    m.put("rq_lock_hold_mean_us", r.rqLockHold().meanNs() / 1e3);
    m.put("wasted_core_ms", r.wastedCoreNs() / 1e6);
    long busy = 0;
    long overhead = 0;
    for (CpuTime t : r.cpuTimes()) {
      busy += t.busyNs();
      overhead += t.overheadNs();
    }
    double cpuNs = (double) r.nrCpus() * r.simulatedNs();
    m.put("busy_pct", cpuNs == 0 ? 0 : 100.0 * busy / cpuNs);
    m.put("overhead_pct", cpuNs == 0 ? 0 : 100.0 * overhead / cpuNs);
    m.put("tasks", r.tasksCreated());
    for (Map.Entry<String, Double> e : r.workload().extra().entrySet()) {
      m.put(WORKLOAD_PREFIX + e.getKey(), e.getValue());
    }
    for (Map.Entry<String, Long> e : r.pluginCounters().entrySet()) {
      m.put(PLUGIN_PREFIX + e.getKey(), e.getValue());
    }
    m.put("events", r.performance().eventsProcessed());
    m.put("events_per_s", r.performance().eventsPerSecond());
    m.put("sim_seconds_per_wall_second", r.simulatedPerWallSecond());
    return m;
  }

  /** The name of domain level {@code level}, as the run's deepest CPU names it. */
  static String levelName(SimulationResult r, int level) {
    return level < r.levelNames().size() ? r.levelNames().get(level) : "level" + level;
  }

  /** A metric's numeric value, or NaN when it is not a number. */
  /**
   * The table label of the workload's own metric in the figures {@code run}: its name, unit and
   * direction, {@code time (s, lower is better)}.
   */
  public static String workloadLabel(Map<String, Object> run) {
    boolean higher = Boolean.TRUE.equals(run.get("higher_is_better"));
    return run.get("throughput_metric") + " (" + run.get("throughput_unit") + ", "
        + (higher ? "higher" : "lower") + " is better)";
  }

  /** The table label of {@code key}: {@link #ROWS}' label, or the key itself. */
  public static String label(String key) {
    for (Row row : ROWS) {
      if (row.key().equals(key)) {
        return row.label();
      }
    }
    return key;
  }

  public static double number(Map<String, Object> metrics, String key) {
    Object v = metrics.get(key);
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  /** Keys whose value is deterministic per configuration and seed (engine speed excluded). */
  public static boolean deterministic(String key) {
    return !key.equals("events_per_s") && !key.equals("sim_seconds_per_wall_second");
  }
}
