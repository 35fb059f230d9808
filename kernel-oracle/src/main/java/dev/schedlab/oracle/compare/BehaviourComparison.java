package dev.schedlab.oracle.compare;

import dev.schedlab.core.stats.DomainSchedstat;
import dev.schedlab.core.stats.Schedstat;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.oracle.kernel.KernelSchedstat;
import dev.schedlab.oracle.kernel.KernelSchedstat.IdleType;
import dev.schedlab.oracle.kernel.KernelSchedstat.LbField;
import dev.schedlab.oracle.report.OracleRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Guest kernel against simulator, per second of the workload: load-balance attempts and outcomes
 * per domain level and idle type from {@code /proc/schedstat} (the guest's version 15 snapshots
 * before and after; the simulator's version 17 counters), the cpu lines' {@code sched_goidle},
 * {@code ttwu_count} and {@code ttwu_local} summed over CPUs, and SCHED softirqs. Levels are keyed
 * by name, a second NUMA level as {@code NUMA2}; figures agree within a factor of {@value
 * #TOLERANCE}.
 */
public final class BehaviourComparison {

  /** The factor within which a figure counts as agreeing. */
  public static final double TOLERANCE = 2.0;

  private static final String[] FIELD_NAMES = {
    "lb_count", "lb_balanced", "lb_failed", "lb_imbalance", "lb_gained"
  };

  private BehaviourComparison() {}

  /**
   * The rows.
   *
   * @param before the guest's schedstat before the workload
   * @param after ... after it
   * @param levelNames the guest's level name per CPU and domain index (after the 6.1 renames)
   * @param softirqs SCHED softirqs the guest ran during the workload
   * @param seconds the guest's interval between the snapshots
   * @param sim the simulator's run of the same workload on the guest's topology
   */
  public static List<OracleRow> rows(
      KernelSchedstat before,
      KernelSchedstat after,
      Map<Integer, List<String>> levelNames,
      long softirqs,
      double seconds,
      SimulationResult sim) {
    double simSeconds = sim.simulatedNs() / 1e9;
    Map<String, double[]> kernel = new LinkedHashMap<>();
    double[] kernelCpu = new double[3];
    for (KernelSchedstat.Cpu a : after.cpus()) {
      KernelSchedstat.Cpu b =
          before.cpus().stream().filter(c -> c.cpu() == a.cpu()).findFirst().orElse(null);
      if (b == null) {
        continue;
      }
      kernelCpu[0] += a.schedGoidle() - b.schedGoidle();
      kernelCpu[1] += a.ttwuCount() - b.ttwuCount();
      kernelCpu[2] += a.ttwuLocal() - b.ttwuLocal();
      List<String> names = keys(levelNames.getOrDefault(a.cpu(), List.of()));
      for (int k = 0; k < a.domains().size() && k < b.domains().size() && k < names.size(); k++) {
        double[] sums = kernel.computeIfAbsent(names.get(k), n -> new double[15]);
        for (IdleType t : IdleType.values()) {
          for (LbField f : LbField.values()) {
            sums[t.ordinal() * 5 + f.ordinal()] +=
                a.domains().get(k).lb(t, f) - b.domains().get(k).lb(t, f);
          }
        }
      }
    }
    Map<String, double[]> simulated = new LinkedHashMap<>();
    double[] simCpu = new double[3];
    for (Schedstat.CpuEntry e : sim.schedstat().cpus()) {
      simCpu[0] += e.counters().schedGoidle();
      simCpu[1] += e.counters().ttwuCount();
      simCpu[2] += e.counters().ttwuLocal();
      List<String> names = keys(e.domains().stream().map(DomainSchedstat::name).toList());
      for (int k = 0; k < e.domains().size(); k++) {
        double[] sums = simulated.computeIfAbsent(names.get(k), n -> new double[15]);
        long[] lb = e.domains().get(k).lb();
        for (IdleType t : IdleType.values()) {
          int block =
              switch (t) {
                case BUSY -> 0;
                case IDLE -> 1;
                case NEWLY_IDLE -> 2;
              };
          int base = block * 11;
          sums[t.ordinal() * 5] += lb[base];
          sums[t.ordinal() * 5 + 1] += lb[base + 1];
          sums[t.ordinal() * 5 + 2] += lb[base + 2];
          sums[t.ordinal() * 5 + 3] += lb[base + 3] + lb[base + 4] + lb[base + 5] + lb[base + 6];
          sums[t.ordinal() * 5 + 4] += lb[base + 7];
        }
      }
    }
    List<OracleRow> rows = new ArrayList<>();
    List<String> levels = new ArrayList<>(kernel.keySet());
    simulated.keySet().stream().filter(k -> !levels.contains(k)).forEach(levels::add);
    for (String level : levels) {
      double[] k = kernel.getOrDefault(level, new double[15]);
      double[] s = simulated.getOrDefault(level, new double[15]);
      for (IdleType t : List.of(IdleType.BUSY, IdleType.IDLE, IdleType.NEWLY_IDLE)) {
        for (int f = 0; f < 5; f++) {
          int at = t.ordinal() * 5 + f;
          rows.add(
              OracleRow.figure(
                  "balancing per s",
                  level + " " + idleName(t) + " " + FIELD_NAMES[f],
                  k[at] / seconds,
                  s[at] / simSeconds,
                  TOLERANCE));
        }
      }
    }
    String[] cpuNames = {"sched_goidle", "ttwu_count", "ttwu_local"};
    for (int i = 0; i < 3; i++) {
      rows.add(
          OracleRow.figure(
              "cpu lines per s",
              cpuNames[i],
              kernelCpu[i] / seconds,
              simCpu[i] / simSeconds,
              TOLERANCE));
    }
    rows.add(
        OracleRow.figure(
            "softirqs per s", "SCHED", softirqs / seconds, sim.softirqs() / simSeconds, TOLERANCE));
    return rows;
  }

  /**
   * The trace's figures against the simulator's: idle-to-task switches with a busy or with only
   * idle SMT siblings ({@code smtContention}, {@code smtNoContention}), migrations per level (the
   * simulator counts balancing moves per level and wakeup moves apart, so the per-level rows
   * compare balancing only and the total compares everything), and the kernel's per-task CPU time
   * of the workload (min, mean, max, CPU seconds per second).
   */
  public static List<OracleRow> traceRows(
      dev.schedlab.oracle.kernel.KernelTrace trace, SimulationResult sim) {
    List<OracleRow> rows = new ArrayList<>();
    if (trace.events() == 0 || trace.seconds() <= 0) {
      return rows;
    }
    double seconds = trace.seconds();
    double simSeconds = sim.simulatedNs() / 1e9;
    String section = "trace per s";
    rows.add(
        OracleRow.figure(
            section,
            "idle->task, busy SMT sibling",
            trace.idleToTaskBusySibling() / seconds,
            sim.smtContention() / simSeconds,
            TOLERANCE));
    rows.add(
        OracleRow.figure(
            section,
            "idle->task, idle SMT siblings",
            trace.idleToTaskIdleSiblings() / seconds,
            sim.smtNoContention() / simSeconds,
            TOLERANCE));
    List<String> simLevels = keys(sim.levelNames());
    long[] simMigrations = sim.migrationsPerLevel();
    long kernelTotal = 0;
    for (long n : trace.migrationsPerLevel().values()) {
      kernelTotal += n;
    }
    long simTotal = sim.wakeupMigrations();
    for (long n : simMigrations) {
      simTotal += n;
    }
    List<String> levels = new ArrayList<>(simLevels);
    trace.migrationsPerLevel().keySet().stream()
        .filter(k -> !levels.contains(k))
        .forEach(levels::add);
    for (String level : levels) {
      int at = simLevels.indexOf(level);
      double simValue = at >= 0 && at < simMigrations.length ? simMigrations[at] : 0;
      rows.add(
          OracleRow.figure(
              section,
              "migrations " + level + " (sim: balancing)",
              trace.migrationsPerLevel().getOrDefault(level, 0L) / seconds,
              simValue / simSeconds,
              TOLERANCE));
    }
    rows.add(
        OracleRow.figure(
            section,
            "migrations, all (sim: balancing + wakeup)",
            kernelTotal / seconds,
            simTotal / simSeconds,
            TOLERANCE));
    java.util.DoubleSummaryStatistics cpu =
        trace.taskCpuSeconds().values().stream().mapToDouble(v -> v / seconds).summaryStatistics();
    if (cpu.getCount() > 0) {
      String text =
          String.format(
              java.util.Locale.ROOT,
              "%.2f / %.2f / %.2f (%d tasks)",
              cpu.getMin(),
              cpu.getAverage(),
              cpu.getMax(),
              cpu.getCount());
      rows.add(
          new OracleRow(
              section,
              "workload task CPU s/s min/mean/max",
              text,
              "-",
              cpu.getAverage(),
              Double.NaN,
              true));
    }
    return rows;
  }

  private static String idleName(IdleType t) {
    return switch (t) {
      case BUSY -> "busy";
      case IDLE -> "idle";
      case NEWLY_IDLE -> "newidle";
    };
  }

  /** Level names made unique bottom-up: the second NUMA level is {@code NUMA2}, and so on. */
  public static List<String> keys(List<String> names) {
    Map<String, Integer> seen = new LinkedHashMap<>();
    List<String> out = new ArrayList<>();
    for (String n : names) {
      int count = seen.merge(n, 1, Integer::sum);
      out.add(count == 1 ? n : n + count);
    }
    return out;
  }
}
