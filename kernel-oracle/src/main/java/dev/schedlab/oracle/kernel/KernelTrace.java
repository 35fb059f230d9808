package dev.schedlab.oracle.kernel;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Figures from the guest's {@code sched_switch} and {@code sched_migrate_task} trace (tracefs
 * {@code trace}, text form) over the workload: idle-to-task switches split by whether an SMT
 * sibling was running a task at that moment (each CPU's current task followed from its switches),
 * task migrations by the lowest sched-domain level of the source CPU that holds the destination,
 * and the CPU time of the workload's tasks (by command name).
 *
 * @param seconds the traced interval (first to last event)
 * @param idleToTaskBusySibling idle-to-task switches with a sibling running a task
 * @param idleToTaskIdleSiblings idle-to-task switches with every sibling idle
 * @param migrationsPerLevel migrations by level name ({@code NUMA2} for a second NUMA level)
 * @param taskCpuSeconds CPU seconds per workload task (pid)
 * @param events events read
 */
public record KernelTrace(
    double seconds,
    long idleToTaskBusySibling,
    long idleToTaskIdleSiblings,
    Map<String, Long> migrationsPerLevel,
    Map<Integer, Double> taskCpuSeconds,
    long events) {

  private static final Pattern LINE =
      Pattern.compile(
          "\\[(\\d+)\\]\\s+\\S+\\s+(\\d+\\.\\d+): (sched_switch|sched_migrate_task): (.*)$");
  private static final Pattern SWITCH =
      Pattern.compile("prev_comm=(.*?) prev_pid=(\\d+) .* ==> next_comm=(.*?) next_pid=(\\d+)");
  private static final Pattern MIGRATE =
      Pattern.compile("comm=(.*?) pid=(\\d+) .*orig_cpu=(\\d+) dest_cpu=(\\d+)");

  /**
   * Reads a trace.
   *
   * @param text the {@code trace} file
   * @param smtSiblings a CPU's SMT siblings, itself included
   * @param levels a CPU's domains bottom-up: level keys and spans as CPU lists
   * @param workloadComm the command name of the workload's tasks
   */
  public static KernelTrace read(
      String text,
      IntFunction<BitSet> smtSiblings,
      Map<Integer, List<Map.Entry<String, BitSet>>> levels,
      String workloadComm) {
    Map<Integer, Integer> current = new HashMap<>();
    Map<Integer, Double> since = new HashMap<>();
    Map<Integer, Double> cpuSeconds = new HashMap<>();
    Map<Integer, Integer> runningWorkload = new HashMap<>();
    Map<String, Long> migrations = new java.util.LinkedHashMap<>();
    long busy = 0;
    long idle = 0;
    long events = 0;
    double first = Double.NaN;
    double last = Double.NaN;
    for (String line : text.split("\n")) {
      Matcher m = LINE.matcher(line);
      if (!m.find()) {
        continue;
      }
      events++;
      int cpu = Integer.parseInt(m.group(1));
      double t = Double.parseDouble(m.group(2));
      first = Double.isNaN(first) ? t : first;
      last = t;
      if (m.group(3).equals("sched_switch")) {
        Matcher s = SWITCH.matcher(m.group(4));
        if (!s.find()) {
          continue;
        }
        int prev = Integer.parseInt(s.group(2));
        int next = Integer.parseInt(s.group(4));
        Integer running = runningWorkload.remove(cpu);
        if (running != null && since.containsKey(cpu)) {
          cpuSeconds.merge(running, t - since.get(cpu), Double::sum);
        }
        if (prev == 0 && next != 0) {
          boolean siblingBusy = false;
          BitSet siblings = smtSiblings.apply(cpu);
          for (int sib = siblings.nextSetBit(0); sib >= 0; sib = siblings.nextSetBit(sib + 1)) {
            if (sib != cpu && current.getOrDefault(sib, 0) != 0) {
              siblingBusy = true;
            }
          }
          if (siblingBusy) {
            busy++;
          } else {
            idle++;
          }
        }
        current.put(cpu, next);
        since.put(cpu, t);
        if (s.group(3).equals(workloadComm)) {
          runningWorkload.put(cpu, next);
          cpuSeconds.putIfAbsent(next, 0.0);
        }
      } else {
        Matcher g = MIGRATE.matcher(m.group(4));
        if (!g.find()) {
          continue;
        }
        int from = Integer.parseInt(g.group(3));
        int to = Integer.parseInt(g.group(4));
        String level = "none";
        for (Map.Entry<String, BitSet> l : levels.getOrDefault(from, List.of())) {
          if (l.getValue().get(to)) {
            level = l.getKey();
            break;
          }
        }
        migrations.merge(level, 1L, Long::sum);
      }
    }
    for (Map.Entry<Integer, Integer> r : runningWorkload.entrySet()) {
      if (since.containsKey(r.getKey())) {
        cpuSeconds.merge(r.getValue(), last - since.get(r.getKey()), Double::sum);
      }
    }
    double seconds = Double.isNaN(first) ? 0 : last - first;
    return new KernelTrace(seconds, busy, idle, migrations, cpuSeconds, events);
  }
}
