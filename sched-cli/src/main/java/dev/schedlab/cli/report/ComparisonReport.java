package dev.schedlab.cli.report;

import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.core.balance.LbField;
import dev.schedlab.core.balance.LbStats;
import dev.schedlab.core.balance.MigrationSkip;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.stats.Log2Histogram;
import dev.schedlab.core.stats.PlacementPath;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.LostWork;
import dev.schedlab.spi.view.IdleType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report of a comparison: variants side by side with the relative change from the first
 * variant, as the kernel threads tabulate their results; the schedstat breakdown per domain level
 * and idle type; bpftrace-style log2 histograms of ILB pass duration and rq-lock hold. Also the
 * same figures as JSON and CSV for tools.
 */
public final class ComparisonReport {

  /** Idle types in the order schedstat prints them, with the kernel's names. */
  private static final String[] IDLE_NAMES = {"CPU_NOT_IDLE", "CPU_IDLE", "CPU_NEWLY_IDLE"};

  /** The lb_* fields shown in the breakdown (the rest are in --schedstat and JSON). */
  private static final LbField[] SHOWN_FIELDS = {
    LbField.COUNT, LbField.BALANCED, LbField.FAILED, LbField.IMBALANCE_LOAD,
    LbField.IMBALANCE_UTIL, LbField.IMBALANCE_TASK, LbField.IMBALANCE_MISFIT, LbField.GAINED
  };

  private final Scenario scenario;
  private final ScenarioRecord record;
  private final List<RunOutcome> outcomes;
  private final List<Map<String, Object>> metrics = new ArrayList<>();
  private final List<Map<String, Object>> engine = new ArrayList<>();

  /**
   * @param scenario what was simulated
   * @param record how the report describes it, and the command line that runs it again
   * @param outcomes one run per variant, in variant order
   */
  public ComparisonReport(Scenario scenario, ScenarioRecord record, List<RunOutcome> outcomes) {
    this.scenario = scenario;
    this.record = record;
    this.outcomes = outcomes;
    for (RunOutcome o : outcomes) {
      // Wall-clock figures go to the engine section: they are no result of the scenario.
      Map<String, Object> results = new LinkedHashMap<>();
      Map<String, Object> speed = new LinkedHashMap<>();
      speed.put("name", o.spec().variant().name());
      speed.put("wall_s", o.result().performance().wallNs() / 1e9);
      Metrics.of(o.result())
          .forEach((key, value) -> (Metrics.deterministic(key) ? results : speed).put(key, value));
      metrics.add(results);
      engine.add(speed);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Table

  /** The report for people. */
  public String table() {
    StringBuilder out = new StringBuilder();
    SimulationResult first = outcomes.get(0).result();
    out.append(
        String.format(
            Locale.ROOT,
            "%s; %s s simulated, seed %d, HZ %d%n",
            scenario.describe(),
            TextTable.number(first.simulatedNs() / 1e9),
            scenario.seed(),
            first.hz()));
    if (!record.settings().isEmpty()) {
      out.append("  settings not at their defaults: ")
          .append(String.join(", ", record.settings()))
          .append('\n');
    }
    for (RunOutcome o : outcomes) {
      out.append("  ").append(o.spec().variant().definition()).append('\n');
    }
    out.append(rulesAndAssumptions());
    out.append(reading());
    out.append('\n')
        .append(
            "figures per second (/s) are per simulated second of the whole run ("
                + TextTable.number(first.simulatedNs() / 1e9)
                + " s), also where the workload ended"
                + " sooner\n");
    out.append(metricTable());
    out.append(criticalPathTable());
    out.append('\n').append(schedstatTable());
    out.append('\n').append(placementTable());
    out.append('\n').append(histograms());
    return out.toString();
  }

  /**
   * Which kernel rules every variant runs (the engine's, whatever the variant's name says) and
   * every setting changed from its default.
   */
  private String rulesAndAssumptions() {
    StringBuilder out = new StringBuilder();
    out.append(
        scenario.engineSettings().mainlineDeltas()
            ? "kernel rules: every variant runs the engine's post-7.1 mainline balancing and wakeup"
                + " rules (7.2's SMT-aware select_idle_capacity(); -E mainline_deltas=false gives"
                + " 7.1.5's); the variants differ only in the plugins above\n"
            : "kernel rules: every variant runs Linux 7.1.5's balancing and wakeup rules"
                + " (-E mainline_deltas=false); the variants differ only in the plugins above\n");
    List<String> changed = new ArrayList<>();
    scenario.engineSettings().given().forEach((k, v) -> changed.add("-E " + k + "=" + v));
    new java.util.TreeMap<>(scenario.workloadOverrides())
        .forEach((k, v) -> changed.add("-W " + k + "=" + v));
    EngineOptions engine = scenario.engineSettings().engineOptions();
    out.append(
        engine.hasBackground()
            ? String.format(
                Locale.ROOT,
                "machine background: %s timer expiries per CPU per second"
                    + " (%s each), %s device interrupts per second on the boot CPU (%s each), each"
                    + " CPU's kworker woken %s times a second (%s of work); -E idle_timer_rate=0"
                    + " device_irq_rate=0 kworker_rate=0 gives a quiet machine%n",
                TextTable.number(engine.idleTimerRateHz()),
                us(engine.timerIrqNs()),
                TextTable.number(engine.deviceIrqRateHz()),
                us(engine.deviceIrqNs()),
                TextTable.number(engine.kworkerRateHz()),
                us(engine.kworkerRunNs()))
            : "machine background: none (no timer expiries, device interrupts or kworkers)\n");
    out.append("assumptions changed from their defaults: ")
        .append(
            changed.isEmpty()
                ? "none (see `schedlab engine`, `machines`, `workloads`)"
                : String.join(", ", changed))
        .append('\n');
    return out.toString();
  }

  /**
   * A one-line reading of a two-variant comparison: the ILB choices beside busy threads each
   * variant made and the throughput change.
   */
  private String reading() {
    if (outcomes.size() != 2) {
      return "";
    }
    String a = outcomes.get(0).spec().variant().name();
    String b = outcomes.get(1).spec().variant().name();
    long busyA = outcomes.get(0).result().ilb().choicesWithBusySibling();
    long busyB = outcomes.get(1).result().ilb().choicesWithBusySibling();
    double va = Metrics.number(metrics.get(0), "throughput");
    double vb = Metrics.number(metrics.get(1), "throughput");
    String line =
        String.format(
            Locale.ROOT,
            "reading: %s chose %s next to a busy sibling, %s %d (%d avoided); %s %s against"
                + " %s",
            a,
            TextTable.count(busyA, "ILB"),
            b,
            busyB,
            busyA - busyB,
            Metrics.workloadName(metrics.get(0)),
            TextTable.change(va, vb),
            a);
    double lostA = Metrics.number(metrics.get(0), Metrics.CRITICAL_LOST);
    if (!Double.isNaN(lostA)) {
      line +=
          String.format(
              Locale.ROOT,
              "; the critical path lost %s %% to interference under %s (%s %% to the ILB on a"
                  + " sibling and its qualification interval), %s %% under %s (%s %%)",
              TextTable.number(lostA),
              a,
              TextTable.number(ilbShare(metrics.get(0))),
              TextTable.number(Metrics.number(metrics.get(1), Metrics.CRITICAL_LOST)),
              b,
              TextTable.number(ilbShare(metrics.get(1))));
    }
    return line + "\n";
  }

  /** The critical path's share lost to an ILB on a sibling, during and after the pass. */
  private static double ilbShare(Map<String, Object> m) {
    return Metrics.number(m, Metrics.criticalLostKey(LostWork.SIBLING_ILB))
        + Metrics.number(m, Metrics.criticalLostKey(LostWork.SIBLING_ILB_QUALIFICATION));
  }

  private static String us(long ns) {
    return TextTable.number(ns / 1e3) + " us";
  }

  private String metricTable() {
    TextTable table = new TextTable(1);
    table.row(header("metric"));
    table.row(values(Metrics.workloadLabel(metrics.get(0)), "throughput"));
    for (Metrics.Row row : Metrics.ROWS) {
      // Wall-clock figures are no result: they get their own line, without a change.
      if (Metrics.deterministic(row.key())) {
        table.row(values(row.label(), row.key()));
      }
    }
    StringBuilder speed = new StringBuilder("engine (wall clock, differs from run to run):");
    for (int i = 0; i < engine.size(); i++) {
      Map<String, Object> e = engine.get(i);
      SimulationResult result = outcomes.get(i).result();
      // The engine's work per CPU and simulated second (not wall clock): what wide machines cost.
      double perCpuSecond =
          result.performance().eventsProcessed()
              / (double) result.nrCpus()
              / (result.simulatedNs() / 1e9);
      speed
          .append(engine.size() > 1 ? "\n  " + e.get("name") + ": " : " ")
          .append(
              String.format(
                  Locale.ROOT,
                  "%s simulated s per wall s, %s s, %s events per wall s (%s per CPU per simulated"
                      + " s)",
                  TextTable.number(Metrics.number(e, "sim_seconds_per_wall_second")),
                  TextTable.number(Metrics.number(e, "wall_s")),
                  TextTable.number(Metrics.number(e, "events_per_s")),
                  TextTable.number(perCpuSecond)));
    }
    return table.render() + speed + '\n';
  }

  /**
   * Where the critical path's time went, by {@link LostWork} cause, when the workload reports it
   * ({@code wl.gemm}); empty otherwise.
   */
  private String criticalPathTable() {
    if (Double.isNaN(Metrics.number(metrics.get(0), Metrics.CRITICAL_LOST))) {
      return "";
    }
    TextTable table = new TextTable(1);
    table.row(header("critical path: lost work (% of its time)"));
    for (LostWork cause : LostWork.ALL) {
      table.row(values(cause.description(), Metrics.criticalLostKey(cause)));
    }
    table.row(values("all causes", Metrics.CRITICAL_LOST));
    return '\n' + table.render();
  }

  private String[] header(String label) {
    List<String> cells = new ArrayList<>();
    cells.add(label);
    for (int i = 0; i < outcomes.size(); i++) {
      cells.add(outcomes.get(i).spec().variant().name());
      if (i > 0) {
        cells.add(
            outcomes.size() > 2
                ? "change vs " + outcomes.get(0).spec().variant().name()
                : "change");
      }
    }
    return cells.toArray(String[]::new);
  }

  private String[] values(String label, String key) {
    List<String> cells = new ArrayList<>();
    cells.add(label);
    double base = Metrics.number(metrics.get(0), key);
    for (int i = 0; i < metrics.size(); i++) {
      double v = Metrics.number(metrics.get(i), key);
      cells.add(TextTable.number(v));
      if (i > 0) {
        cells.add(TextTable.change(base, v));
      }
    }
    return cells.toArray(String[]::new);
  }

  private String schedstatTable() {
    StringBuilder out = new StringBuilder();
    out.append(
        "load balancing per domain and idle type, per simulated second"
            + " (schedstat v17 lb_* fields, all CPUs)\n");
    List<String> levels = levelNames();
    TextTable summary = new TextTable(1);
    summary.row(header("lb_count/s by domain"));
    for (int level = 0; level < levels.size(); level++) {
      List<String> cells = new ArrayList<>();
      cells.add(levels.get(level));
      double base = lbRate(outcomes.get(0).result(), level, null, LbField.COUNT);
      for (int i = 0; i < outcomes.size(); i++) {
        double v = lbRate(outcomes.get(i).result(), level, null, LbField.COUNT);
        cells.add(TextTable.number(v));
        if (i > 0) {
          cells.add(TextTable.change(base, v));
        }
      }
      summary.row(cells.toArray(String[]::new));
    }
    out.append(summary.render());
    TextTable skips = new TextTable(1);
    skips.row(header("tasks passed over by detach_tasks(), counts"));
    for (MigrationSkip reason : MigrationSkip.values()) {
      skips.row(values(reason.label(), Metrics.skipKey(reason)));
    }
    out.append('\n').append(skips.render());
    for (RunOutcome o : outcomes) {
      SimulationResult r = o.result();
      out.append('\n').append(o.spec().variant().name()).append(":\n");
      TextTable table = new TextTable(2);
      List<String> head = new ArrayList<>(List.of("domain", "idle type"));
      for (LbField field : SHOWN_FIELDS) {
        head.add(field.kernelName().replace("lb_imbalance_", "imb_").replace("lb_", ""));
      }
      table.row(head.toArray(String[]::new));
      for (int level = 0; level < r.lbStats().nrLevels(); level++) {
        for (IdleType idle : IdleType.values()) {
          List<String> cells = new ArrayList<>();
          cells.add(idle.ordinal() == 0 ? Metrics.levelName(r, level) : "");
          cells.add(IDLE_NAMES[idle.ordinal()]);
          for (LbField field : SHOWN_FIELDS) {
            cells.add(TextTable.number(lbRate(r, level, idle, field)));
          }
          table.row(cells.toArray(String[]::new));
        }
      }
      out.append(table.render());
    }
    return out.toString();
  }

  /**
   * Forks and wakeups by the step of {@code select_task_rq()} that chose their CPU, as counts in
   * the run; paths no variant took are left out.
   */
  private String placementTable() {
    TextTable table = new TextTable(1);
    table.row(header("task placement by path (forks and wakeups)"));
    for (PlacementPath path : PlacementPath.ALL) {
      String key = Metrics.PLACEMENT_PREFIX + path.key();
      boolean taken = false;
      for (Map<String, Object> m : metrics) {
        taken |= Metrics.number(m, key) != 0;
      }
      if (taken) {
        table.row(values(path.label(), key));
      }
    }
    return table.render();
  }

  private List<String> levelNames() {
    List<String> names = new ArrayList<>();
    int levels = 0;
    for (RunOutcome o : outcomes) {
      levels = Math.max(levels, o.result().lbStats().nrLevels());
    }
    for (int level = 0; level < levels; level++) {
      names.add(Metrics.levelName(outcomes.get(0).result(), level));
    }
    return names;
  }

  /** {@code field} per simulated second at {@code level}, for one idle type or all (null). */
  private static double lbRate(SimulationResult r, int level, IdleType idle, LbField field) {
    LbStats lb = r.lbStats();
    if (level >= lb.nrLevels()) {
      return 0;
    }
    long total = 0;
    for (IdleType t : IdleType.values()) {
      if (idle == null || idle == t) {
        total += lb.lbTotal(level, t, field);
      }
    }
    return total * 1e9 / r.simulatedNs();
  }

  private String histograms() {
    StringBuilder out = new StringBuilder();
    for (RunOutcome o : outcomes) {
      String name = o.spec().variant().name();
      out.append("@ilb_duration_us[")
          .append(name)
          .append("]:\n")
          .append(o.result().ilbDuration().render())
          .append('\n');
      out.append("@rq_lock_hold_us[")
          .append(name)
          .append("]:\n")
          .append(o.result().rqLockHold().render())
          .append('\n');
    }
    return out.toString();
  }

  // ---------------------------------------------------------------------------------------
  // JSON and CSV

  /**
   * The report as a JSON tree: {@code schedlab} (version, commit), {@code scenario} (everything
   * that produced it, {@link ScenarioRecord}), then the agreed shape {@code machine, workload,
   * seed, duration_s, variants: [{name, plugins, metrics}]}, and last {@code engine}, the
   * wall-clock figures of each run. Figures beyond the agreed metrics (HZ, CPUs, the schedstat
   * breakdown, histograms) live inside {@code metrics} so the shape stays as agreed. Everything
   * before {@code engine} is a function of the scenario and the build: {@code schedlab rerun}
   * reproduces it byte for byte.
   */
  public Map<String, Object> json() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("schedlab", ScenarioRecord.build());
    root.put("scenario", record.scenario());
    root.put("machine", scenario.machineId());
    root.put("workload", scenario.workload().id());
    root.put("seed", scenario.seed());
    root.put("duration_s", scenario.durationNs() / 1e9);
    List<Object> variants = new ArrayList<>();
    for (int i = 0; i < outcomes.size(); i++) {
      RunOutcome o = outcomes.get(i);
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("name", o.spec().variant().name());
      v.put("plugins", o.spec().variant().pluginNames());
      Map<String, Object> m = new LinkedHashMap<>(metrics.get(i));
      m.put("hz", o.result().hz());
      m.put("cpus", o.result().nrCpus());
      m.put("lb", lbJson(o.result()));
      Map<String, Object> histograms = new LinkedHashMap<>();
      histograms.put("ilb_duration_us", histogramJson(o.result().ilbDuration()));
      histograms.put("rq_lock_hold_us", histogramJson(o.result().rqLockHold()));
      m.put("histograms", histograms);
      v.put("metrics", m);
      variants.add(v);
    }
    root.put("variants", variants);
    Map<String, Object> speed = new LinkedHashMap<>();
    speed.put(
        "about",
        "wall-clock figures of this run on this machine: they differ from run to"
            + " run and are no result of the scenario");
    speed.put("variants", engine);
    root.put("engine", speed);
    return root;
  }

  private static List<Object> lbJson(SimulationResult r) {
    List<Object> rows = new ArrayList<>();
    for (int level = 0; level < r.lbStats().nrLevels(); level++) {
      for (IdleType idle : IdleType.values()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("level", level);
        row.put("domain", Metrics.levelName(r, level));
        row.put("idle", IDLE_NAMES[idle.ordinal()]);
        for (LbField field : LbField.values()) {
          row.put(field.kernelName(), r.lbStats().lbTotal(level, idle, field));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  static List<Object> histogramJson(Log2Histogram h) {
    List<Object> buckets = new ArrayList<>();
    for (int b = 0; b < Log2Histogram.BUCKETS; b++) {
      if (h.bucket(b) != 0) {
        Map<String, Object> bucket = new LinkedHashMap<>();
        bucket.put("from_us", Log2Histogram.lowerBoundUs(b));
        bucket.put("to_us", Log2Histogram.upperBoundUs(b));
        bucket.put("count", h.bucket(b));
        buckets.add(bucket);
      }
    }
    return buckets;
  }

  /**
   * One CSV row per variant, one column per scalar metric (wall-clock figures left out: they are in
   * the JSON report's engine section), then HZ, the build and the command line that runs the
   * scenario again.
   */
  public String csv() {
    List<String> keys = new ArrayList<>();
    for (Map<String, Object> m : metrics) {
      for (Map.Entry<String, Object> e : m.entrySet()) {
        boolean scalar = !(e.getValue() instanceof Map) && !(e.getValue() instanceof List);
        if (scalar && !keys.contains(e.getKey())) {
          keys.add(e.getKey());
        }
      }
    }
    StringBuilder out = new StringBuilder();
    List<String> header =
        new ArrayList<>(List.of("variant", "plugins", "machine", "workload", "seed", "duration_s"));
    header.addAll(keys);
    header.addAll(List.of("hz", "schedlab_version", "schedlab_commit", "command_line"));
    out.append(Csv.line(header));
    String commandLine = commandLine();
    for (int i = 0; i < outcomes.size(); i++) {
      Variant v = outcomes.get(i).spec().variant();
      List<String> cells =
          new ArrayList<>(
              List.of(
                  v.name(),
                  String.join("+", v.pluginNames()),
                  scenario.machineId(),
                  scenario.workload().id(),
                  Long.toString(scenario.seed()),
                  Csv.value(scenario.durationNs() / 1e9)));
      for (String key : keys) {
        cells.add(Csv.value(metrics.get(i).get(key)));
      }
      cells.addAll(
          List.of(
              Integer.toString(scenario.hz()),
              BuildInfo.CURRENT.version(),
              BuildInfo.CURRENT.commitLabel(),
              commandLine));
      out.append(Csv.line(cells));
    }
    return out.toString();
  }

  /** {@code schedlab compare --machine ...}: the scenario as a shell command line. */
  public String commandLine() {
    StringBuilder line = new StringBuilder("schedlab ").append(record.command());
    for (String arg : record.arguments()) {
      line.append(' ')
          .append(
              arg.matches("[A-Za-z0-9_./:=,+@%-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
    }
    return line.toString();
  }

  /** The metrics of each variant, in variant order (wall-clock figures left out). */
  List<Map<String, Object>> metrics() {
    return metrics;
  }

  List<RunOutcome> outcomes() {
    return outcomes;
  }

  Scenario scenario() {
    return scenario;
  }
}
