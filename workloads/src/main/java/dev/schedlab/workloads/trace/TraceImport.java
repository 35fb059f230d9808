package dev.schedlab.workloads.trace;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns a recorded trace, or a program file {@code schedlab trace import} wrote, into a {@link
 * TraceModel}. A trace must hold {@code sched_switch}; without {@code sched_waking} or {@code
 * sched_wakeup} every sleep is timed, without {@code sched_process_fork} tasks that appear later
 * start as sleepers, and each such gap is one of the model's notes.
 */
public final class TraceImport {

  /** The note of a trace without {@code sched_migrate_task} events. */
  public static final String NO_MIGRATIONS =
      "no sched_migrate_task events: the recording's migrations are not known";

  private TraceImport() {}

  /**
   * Reads {@code file}: a program file (a JSON document) or a trace's text.
   *
   * @param machine the recording machine, or null when it is not known (work = CPU time; a program
   *     file keeps the machine it was imported with)
   * @throws IllegalArgumentException with one line naming the file and the problem
   */
  public static TraceModel read(Path file, RecordingMachine machine) {
    String name = file.toString();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      in.mark(64);
      int first;
      do {
        first = in.read();
      } while (first == ' ' || first == '\n' || first == '\r' || first == '\t');
      in.reset();
      if (first == '{') {
        try {
          return TraceProgramFile.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
      }
      return text(in, name, machine);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(name + ": no such file", e);
    } catch (IOException e) {
      throw new IllegalArgumentException(name + ": cannot read it: " + e.getMessage(), e);
    }
  }

  /**
   * Reads a trace's text.
   *
   * @param name the file's name, for the model and the messages
   * @param machine the recording machine, or null when it is not known
   * @throws IllegalArgumentException naming the file and the problem
   */
  public static TraceModel text(InputStream in, String name, RecordingMachine machine)
      throws IOException {
    TraceFacts facts = new TraceFacts();
    RecordingMachine recording = machine != null ? machine : RecordingMachine.unknown("unknown");
    TraceModelBuilder builder = new TraceModelBuilder(recording, facts);
    try {
      SchedTraceParser.parse(in, name, builder, facts);
    } catch (IllegalArgumentException e) {
      throw e.getMessage().startsWith(name)
          ? e
          : new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
    if (facts.schedEvents == 0) {
      throw new IllegalArgumentException(
          name
              + " has no scheduler events (sched_switch,"
              + " sched_waking, sched_wakeup, sched_wakeup_new, sched_process_fork/exec/exit,"
              + " sched_migrate_task) among its "
              + facts.otherEvents
              + " events: record them with"
              + " perf sched record and convert with perf script, or enable events/sched in"
              + " tracefs");
    }
    if (facts.count("sched_switch") == 0) {
      throw new IllegalArgumentException(
          name
              + " lacks sched_switch events, which give the"
              + " CPU bursts (it has "
              + present(facts)
              + "): record sched:sched_switch too (perf"
              + " sched record does)");
    }
    String format =
        facts.perfColumns
            ? "perf script"
            : facts.pluginFields || facts.declaredCpus > 0 && !facts.ftraceColumns
                ? "trace-cmd report"
                : "ftrace text";
    int cpus = Math.max(facts.declaredCpus, facts.maxCpu + 1);
    String recordedOn = machine != null ? machine.name() : unknownMachine(facts);
    return builder.finish(name, format, recordedOn, cpus, facts.lastNs, notes(facts));
  }

  private static String unknownMachine(TraceFacts facts) {
    List<String> parts = new ArrayList<>();
    if (!facts.hostname.isEmpty()) {
      parts.add(facts.hostname);
    }
    if (!facts.cpuDescription.isEmpty()) {
      parts.add(facts.cpuDescription);
    }
    if (!facts.osRelease.isEmpty()) {
      parts.add("Linux " + facts.osRelease);
    }
    String known = parts.isEmpty() ? "an unnamed machine" : String.join(", ", parts);
    return known + " (capacity and SMT not known: work = CPU time)";
  }

  private static String present(TraceFacts facts) {
    List<String> present = new ArrayList<>();
    for (String event : TraceFacts.EVENT_NAMES) {
      if (facts.count(event) > 0) {
        present.add(event + " " + facts.count(event));
      }
    }
    return String.join(", ", present);
  }

  private static List<String> notes(TraceFacts facts) {
    List<String> notes = new ArrayList<>();
    if (facts.count("sched_waking") == 0 && facts.count("sched_wakeup") == 0) {
      notes.add(
          "no sched_waking or sched_wakeup events: every sleep is replayed as a timed"
              + " sleep of its recorded length (no wake edges)");
    } else if (facts.count("sched_waking") == 0) {
      notes.add(
          "no sched_waking events: wakers are read from sched_wakeup, which newer"
              + " kernels may log on the woken task's CPU; wakeups logged there from interrupt"
              + " context are timed sleeps");
    }
    if (facts.count("sched_process_fork") == 0) {
      notes.add(
          "no sched_process_fork events: tasks that appear during the trace start as"
              + " sleepers until their first sight");
    }
    if (facts.count("sched_process_exit") == 0 && facts.count("sched_process_fork") > 0) {
      notes.add("no sched_process_exit events: exits are read from the last switch (X or Z)");
    }
    if (facts.count("sched_migrate_task") == 0) {
      notes.add(NO_MIGRATIONS);
    }
    if (facts.wrapped()) {
      notes.add(
          String.format(
              Locale.ROOT,
              "the ring buffer overwrote older events (%d of %d"
                  + " entries kept): each CPU's state is read from its first event on",
              facts.entriesInBuffer,
              facts.entriesWritten));
    }
    if (facts.lostEvents > 0 || facts.gaps > 0) {
      notes.add(
          facts.gaps
              + " gaps in the trace ("
              + facts.lostEvents
              + " lost events): the"
              + " task running across a gap is not accounted there");
    }
    if (facts.otherEvents > 0) {
      notes.add(facts.otherEvents + " events other than the scheduler's were passed over");
    }
    return notes;
  }
}
