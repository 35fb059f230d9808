package dev.schedlab.cli.report;

import dev.schedlab.core.stats.Schedstat;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.workloads.trace.TraceImport;
import dev.schedlab.workloads.trace.TraceModel;
import dev.schedlab.workloads.trace.TraceTask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A replay beside its recording: per-task CPU time (the share of tasks within 5 %), switches in,
 * context switches, wakeups, migrations per sched-domain level, and the tasks with the most CPU
 * time one by one. On the recording's own topology, with the recording's speeds, the CPU times
 * should agree (the work is the recording's) while switches, wakeups and migrations show where the
 * replay's scheduler decided differently from the recorded kernel.
 */
public final class TraceCheckReport {

  /** CPU time within this share of the recording counts as agreeing. */
  static final double CPU_TIME_TOLERANCE = 0.05;

  /** Tasks below this recorded CPU time are counted apart: a few µs make large shares. */
  static final long SMALL_TASK_NS = 1_000_000;

  private TraceCheckReport() {}

  /**
   * The report.
   *
   * @param header what was replayed where, one line or more
   * @param shownTasks how many tasks to list one by one (most recorded CPU time first)
   */
  public static String table(
      String header,
      TraceModel model,
      SimulationResult result,
      ReplayRecording replay,
      SchedDomains domains,
      int shownTasks) {
    StringBuilder out = new StringBuilder(header);
    Map<String, Integer> ids = replay.tasksByName();
    Map<String, Double> extra = result.workload().extra();
    boolean completed = extra.getOrDefault("completed", 0.0) == 1.0;
    out.append(
        completed
            ? String.format(
                Locale.ROOT,
                "replay completed at %.6f s (%.3f x the recording's %.6f" + " s)%n",
                result.workload().value(),
                extra.getOrDefault("replay_over_recorded", 0.0),
                model.durationNs() / 1e9)
            : String.format(
                Locale.ROOT,
                "replay did not complete: %.1f %% of the recorded work done"
                    + " in %.3f s; give a longer --duration%n",
                100 * extra.getOrDefault("work_done_fraction", 0.0),
                result.simulatedNs() / 1e9));
    out.append('\n');

    long recordedCpu = 0;
    long replayCpu = 0;
    long recordedIns = 0;
    long replayIns = 0;
    long recordedWakeups = 0;
    int within = 0;
    int large = 0;
    int largeWithin = 0;
    for (TraceTask task : model.tasks()) {
      TraceTask.Recorded r = task.recorded();
      Integer id = ids.get(task.name());
      long cpu = id == null ? 0 : replay.cpuNs(id);
      recordedCpu += r.cpuNs();
      replayCpu += cpu;
      recordedIns += r.switchIns();
      replayIns += id == null ? 0 : replay.switchIns(id);
      recordedWakeups += r.wakeups();
      boolean agrees = Math.abs(cpu - r.cpuNs()) <= CPU_TIME_TOLERANCE * r.cpuNs();
      within += agrees ? 1 : 0;
      if (r.cpuNs() >= SMALL_TASK_NS) {
        large++;
        largeWithin += agrees ? 1 : 0;
      }
    }
    long ttwu = 0;
    for (Schedstat.CpuEntry cpu : result.schedstat().cpus()) {
      ttwu += cpu.counters().ttwuCount();
    }
    TextTable table = new TextTable(1);
    table.row("figure", "recording", "replay", "replay/recording");
    table.row(
        "CPU time, all tasks (s)",
        seconds(recordedCpu),
        seconds(replayCpu),
        ratio(replayCpu, recordedCpu));
    table.row("tasks whose CPU time is within 5 %", within + " of " + model.tasks().size());
    table.row("  of tasks with at least 1 ms", largeWithin + " of " + large);
    table.row(
        "switches in to a task",
        Long.toString(recordedIns),
        Long.toString(replayIns),
        ratio(replayIns, recordedIns));
    table.row(
        "context switches (sched_switch)",
        Long.toString(model.counts().switches()),
        Long.toString(replay.contextSwitches()),
        ratio(replay.contextSwitches(), model.counts().switches()));
    table.row(
        "wakeups (events; replay: ttwu_count)",
        Long.toString(recordedWakeups),
        Long.toString(ttwu),
        ratio(ttwu, recordedWakeups));
    long edges = model.counts().edges();
    long waited = Math.round(extra.getOrDefault("edge_wakes", 0.0));
    table.row(
        "  wake edges: the wakee waited / was already released",
        Long.toString(edges),
        waited + " / " + (completed ? Long.toString(edges - waited) : "?"));
    table.row(
        "  timed sleeps",
        Long.toString(model.counts().timedWakeups() + model.counts().sleepsWithoutWakeup()),
        Long.toString(Math.round(extra.getOrDefault("timed_sleeps", 0.0))));
    Map<String, Long> recordedLevels = ReplayRecording.byLevel(model.migrations(), domains);
    Map<String, Long> replayLevels = ReplayRecording.byLevel(replay.moves(), domains);
    Set<String> levels = new LinkedHashSet<>(domains.levelNames());
    levels.addAll(recordedLevels.keySet());
    levels.addAll(replayLevels.keySet());
    long recordedMoves = 0;
    long replayMoves = 0;
    for (String level : levels) {
      long a = recordedLevels.getOrDefault(level, 0L);
      long b = replayLevels.getOrDefault(level, 0L);
      recordedMoves += a;
      replayMoves += b;
      if (a > 0 || b > 0) {
        table.row("migrations " + level, Long.toString(a), Long.toString(b), ratio(b, a));
      }
    }
    table.row(
        "migrations, all",
        model.notes().contains(TraceImport.NO_MIGRATIONS)
            ? "not traced"
            : Long.toString(recordedMoves),
        Long.toString(replayMoves),
        ratio(replayMoves, recordedMoves));
    out.append(table.render());

    List<TraceTask> byCpu = new ArrayList<>(model.tasks());
    byCpu.sort(Comparator.comparingLong((TraceTask t) -> t.recorded().cpuNs()).reversed());
    int shown = Math.min(shownTasks, byCpu.size());
    if (shown > 0) {
      out.append(
          String.format(
              Locale.ROOT,
              "%n%d tasks with the most recorded CPU time (of %d)" + "%n",
              shown,
              byCpu.size()));
      TextTable tasks = new TextTable(1);
      tasks.row(
          "task",
          "CPU ms",
          "replay",
          "change",
          "switches in",
          "replay",
          "wakeups",
          "migrations",
          "replay");
      for (TraceTask task : byCpu.subList(0, shown)) {
        TraceTask.Recorded r = task.recorded();
        Integer id = ids.get(task.name());
        long cpu = id == null ? 0 : replay.cpuNs(id);
        tasks.row(
            task.name(),
            millis(r.cpuNs()),
            millis(cpu),
            TextTable.change(r.cpuNs(), cpu),
            Long.toString(r.switchIns()),
            Long.toString(id == null ? 0 : replay.switchIns(id)),
            Long.toString(r.wakeups()),
            Long.toString(r.migrations()),
            Long.toString(id == null ? 0 : replay.migrations(id)));
      }
      out.append(tasks.render());
    }
    for (String note : model.notes()) {
      out.append("note: ").append(note).append('\n');
    }
    return out.toString();
  }

  private static String seconds(long ns) {
    return String.format(Locale.ROOT, "%.4f", ns / 1e9);
  }

  private static String millis(long ns) {
    return String.format(Locale.ROOT, "%.3f", ns / 1e6);
  }

  private static String ratio(double replay, double recorded) {
    return recorded == 0 ? "" : String.format(Locale.ROOT, "%.3f", replay / recorded);
  }
}
