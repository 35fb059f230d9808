package dev.schedlab.workloads.trace;

import dev.schedlab.workloads.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The compact form of an imported trace ({@code schedlab trace import -o program.json}): a JSON
 * document with the recording's facts, the import's counts and notes, the recorded migrations and
 * one object per task with its program as text ({@code r1200 w3 b4 s500 f2 x}: run work units, wake
 * block 3, block at block 4, sleep 500 ns, fork task 2, exit; {@code p} parks the task for good).
 * {@code wl.trace -W file=} reads it back as it reads a trace.
 */
public final class TraceProgramFile {

  /** The value of the document's {@code "schedlab"} key. */
  static final String KIND = "trace program";

  /** The version written and read. */
  static final long VERSION = 1;

  private TraceProgramFile() {}

  /** Writes {@code model} as JSON. */
  public static void write(TraceModel model, Appendable out) throws IOException {
    out.append("{\n");
    out.append("  \"schedlab\": ").append(quote(KIND)).append(",\n");
    out.append("  \"version\": ").append(Long.toString(VERSION)).append(",\n");
    out.append("  \"source\": ").append(quote(model.source())).append(",\n");
    out.append("  \"format\": ").append(quote(model.format())).append(",\n");
    out.append("  \"recorded_on\": ").append(quote(model.recordedOn())).append(",\n");
    out.append("  \"cpus\": ").append(Integer.toString(model.cpus())).append(",\n");
    out.append("  \"duration_ns\": ").append(Long.toString(model.durationNs())).append(",\n");
    TraceModel.Counts c = model.counts();
    out.append("  \"counts\": {\"events\": ")
        .append(Long.toString(c.events()))
        .append(", \"switches\": ")
        .append(Long.toString(c.switches()))
        .append(", \"bursts\": ")
        .append(Long.toString(c.bursts()))
        .append(", \"edges\": ")
        .append(Long.toString(c.edges()))
        .append(", \"timed_wakeups\": ")
        .append(Long.toString(c.timedWakeups()))
        .append(", \"sleeps_without_wakeup\": ")
        .append(Long.toString(c.sleepsWithoutWakeup()))
        .append(", \"forks\": ")
        .append(Long.toString(c.forks()))
        .append(", \"exits\": ")
        .append(Long.toString(c.exits()))
        .append(", \"execs\": ")
        .append(Long.toString(c.execs()))
        .append(", \"preemptions\": ")
        .append(Long.toString(c.preemptions()))
        .append(", \"pid_reuses\": ")
        .append(Long.toString(c.pidReuses()))
        .append(", \"inconsistencies\": ")
        .append(Long.toString(c.inconsistencies()))
        .append(", \"gaps\": ")
        .append(Long.toString(c.gaps()))
        .append("},\n");
    out.append("  \"notes\": [");
    for (int i = 0; i < model.notes().size(); i++) {
      out.append(i == 0 ? "" : ", ").append(quote(model.notes().get(i)));
    }
    out.append("],\n");
    out.append("  \"migrations\": [");
    long[] m = model.migrations();
    for (int i = 0; i < m.length; i += 3) {
      out.append(i == 0 ? "" : ", ")
          .append('[')
          .append(Long.toString(m[i]))
          .append(", ")
          .append(Long.toString(m[i + 1]))
          .append(", ")
          .append(Long.toString(m[i + 2]))
          .append(']');
    }
    out.append("],\n");
    out.append("  \"tasks\": [");
    List<TraceTask> tasks = model.tasks();
    for (int i = 0; i < tasks.size(); i++) {
      TraceTask t = tasks.get(i);
      TraceTask.Recorded r = t.recorded();
      out.append(i == 0 ? "\n" : ",\n");
      out.append("    {\"name\": ")
          .append(quote(t.name()))
          .append(", \"pid\": ")
          .append(Integer.toString(t.pid()))
          .append(", \"comm\": ")
          .append(quote(t.comm()))
          .append(", \"prio\": ")
          .append(Integer.toString(t.prio()))
          .append(", \"pinned_cpu\": ")
          .append(Integer.toString(t.pinnedCpu()))
          .append(", \"initial\": ")
          .append(Boolean.toString(t.initial()))
          .append(",\n     \"recorded\": {\"cpu_ns\": ")
          .append(Long.toString(r.cpuNs()))
          .append(", \"switch_ins\": ")
          .append(Long.toString(r.switchIns()))
          .append(", \"blocked\": ")
          .append(Long.toString(r.blocked()))
          .append(", \"preempted\": ")
          .append(Long.toString(r.preempted()))
          .append(", \"wakeups\": ")
          .append(Long.toString(r.wakeups()))
          .append(", \"migrations\": ")
          .append(Long.toString(r.migrations()))
          .append("},\n")
          .append("     \"ops\": ")
          .append(quote(TraceOps.format(t.ops())))
          .append('}');
    }
    out.append("\n  ]\n}\n");
  }

  /**
   * Reads a document {@link #write} wrote.
   *
   * @throws IllegalArgumentException naming what is missing or wrong
   */
  static TraceModel read(String json) {
    Object document = Json.parse(json);
    if (!(document instanceof Map<?, ?> root) || !KIND.equals(root.get("schedlab"))) {
      throw new IllegalArgumentException(
          "not a schedlab trace program (expected \"schedlab\":"
              + " \""
              + KIND
              + "\" as written by schedlab trace import -o)");
    }
    long version = number(root, "version");
    if (version != VERSION) {
      throw new IllegalArgumentException(
          "trace program version " + version + ": this schedlab" + " reads version " + VERSION);
    }
    Map<?, ?> c = object(root, "counts");
    TraceModel.Counts counts =
        new TraceModel.Counts(
            number(c, "events"),
            number(c, "switches"),
            number(c, "bursts"),
            number(c, "edges"),
            number(c, "timed_wakeups"),
            number(c, "sleeps_without_wakeup"),
            number(c, "forks"),
            number(c, "exits"),
            number(c, "execs"),
            number(c, "preemptions"),
            number(c, "pid_reuses"),
            number(c, "inconsistencies"),
            number(c, "gaps"));
    List<String> notes = new ArrayList<>();
    for (Object note : list(root, "notes")) {
      notes.add(String.valueOf(note));
    }
    List<?> migrationList = list(root, "migrations");
    long[] migrations = new long[migrationList.size() * 3];
    for (int i = 0; i < migrationList.size(); i++) {
      if (!(migrationList.get(i) instanceof List<?> triple) || triple.size() != 3) {
        throw new IllegalArgumentException("migrations[" + i + "]: expected [from, to, count]");
      }
      for (int k = 0; k < 3; k++) {
        if (!(triple.get(k) instanceof Long value) || value < 0) {
          throw new IllegalArgumentException("migrations[" + i + "]: expected three counts");
        }
        migrations[i * 3 + k] = value;
      }
    }
    List<TraceTask> tasks = new ArrayList<>();
    List<?> taskList = list(root, "tasks");
    for (int i = 0; i < taskList.size(); i++) {
      if (!(taskList.get(i) instanceof Map<?, ?> t)) {
        throw new IllegalArgumentException("tasks[" + i + "]: expected an object");
      }
      String name = string(t, "name");
      Map<?, ?> r = object(t, "recorded");
      long[] ops;
      try {
        ops = TraceOps.parse(string(t, "ops"));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("task " + name + ": ops: " + e.getMessage(), e);
      }
      int prio = (int) number(t, "prio");
      if (prio < -1 || prio > 139) {
        throw new IllegalArgumentException("task " + name + ": prio " + prio + ": allowed -1..139");
      }
      tasks.add(
          new TraceTask(
              name,
              (int) number(t, "pid"),
              string(t, "comm"),
              prio,
              (int) number(t, "pinned_cpu"),
              Boolean.TRUE.equals(t.get("initial")),
              ops,
              new TraceTask.Recorded(
                  number(r, "cpu_ns"),
                  number(r, "switch_ins"),
                  number(r, "blocked"),
                  number(r, "preempted"),
                  number(r, "wakeups"),
                  number(r, "migrations"))));
    }
    return new TraceModel(
        string(root, "source"),
        string(root, "format"),
        string(root, "recorded_on"),
        (int) number(root, "cpus"),
        number(root, "duration_ns"),
        tasks,
        counts,
        notes,
        migrations);
  }

  private static long number(Map<?, ?> object, String key) {
    if (!(object.get(key) instanceof Long value)) {
      throw new IllegalArgumentException("\"" + key + "\": expected an integer");
    }
    return value;
  }

  private static String string(Map<?, ?> object, String key) {
    if (!(object.get(key) instanceof String value)) {
      throw new IllegalArgumentException("\"" + key + "\": expected a string");
    }
    return value;
  }

  private static Map<?, ?> object(Map<?, ?> object, String key) {
    if (!(object.get(key) instanceof Map<?, ?> value)) {
      throw new IllegalArgumentException("\"" + key + "\": expected an object");
    }
    return value;
  }

  private static List<?> list(Map<?, ?> object, String key) {
    if (!(object.get(key) instanceof List<?> value)) {
      throw new IllegalArgumentException("\"" + key + "\": expected an array");
    }
    return value;
  }

  private static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> {
          if (ch < 0x20) {
            out.append(String.format("\\u%04x", (int) ch));
          } else {
            out.append(ch);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
