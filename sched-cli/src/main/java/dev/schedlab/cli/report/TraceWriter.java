package dev.schedlab.cli.report;

import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.Topology;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Writes recorded runs as Chrome trace-event JSON, which Perfetto (ui.perfetto.dev) and {@code
 * chrome://tracing} open: one process per variant, one thread track per CPU with task, balancing
 * and ILB-pass slices, instant events for ILB kicks (on the kicking CPU) and migrations (on the
 * source CPU), and counter tracks for each CPU's {@code nr_running} and the weight of {@code
 * nohz.idle_cpus_mask}. Timestamps are microseconds with nanosecond decimals.
 */
public final class TraceWriter {

  private TraceWriter() {}

  /** Writes the trace of {@code outcomes} (each with a recording) to {@code out}. */
  public static void write(Writer out, Scenario scenario, List<RunOutcome> outcomes)
      throws IOException {
    Topology topology = scenario.hardware().topology();
    out.write("{\"displayTimeUnit\":\"ns\",\"otherData\":");
    StringBuilder meta = new StringBuilder();
    meta.append("{\"machine\":");
    Json.string(meta, scenario.describe());
    meta.append(",\"seed\":").append(scenario.seed());
    meta.append(",\"duration_s\":");
    Json.number(meta, scenario.durationNs() / 1e9);
    for (RunOutcome o : outcomes) {
      long truncated = o.recording().truncatedAtNs();
      if (truncated >= 0) {
        meta.append(",\"truncated_").append(o.spec().variant().name()).append("\":");
        Json.string(
            meta,
            "event log full ("
                + o.recording().maxEvents()
                + " events) at "
                + micros(truncated)
                + " us; later events are missing");
      }
    }
    meta.append('}');
    out.write(meta.toString());
    out.write(",\"traceEvents\":[\n");
    Events events = new Events(out);
    for (int p = 0; p < outcomes.size(); p++) {
      RunOutcome o = outcomes.get(p);
      int pid = p + 1;
      events.metadata(pid, -1, "process_name", "name", "variant " + o.spec().variant().name());
      events.metadata(pid, -1, "process_sort_index", "sort_index", pid);
      CpuMask online = topology.onlineMask();
      for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
        events.metadata(pid, cpu, "thread_name", "name", "CPU " + cpu);
        events.metadata(pid, cpu, "thread_sort_index", "sort_index", cpu);
      }
      Recording r = o.recording();
      for (int i = 0; i < r.size(); i++) {
        events.event(pid, r, i);
      }
    }
    out.write("\n]}\n");
  }

  /** Writes events separated by commas, one per line. */
  private static final class Events {
    private final Writer out;
    private final StringBuilder line = new StringBuilder(160);
    private boolean first = true;

    Events(Writer out) {
      this.out = out;
    }

    void metadata(int pid, int tid, String name, String key, Object value) throws IOException {
      begin();
      line.append("{\"name\":\"").append(name).append("\",\"ph\":\"M\",\"pid\":").append(pid);
      if (tid >= 0) {
        line.append(",\"tid\":").append(tid);
      }
      line.append(",\"args\":{\"").append(key).append("\":");
      if (value instanceof String s) {
        Json.string(line, s);
      } else {
        line.append(value);
      }
      line.append("}}");
      flush();
    }

    void event(int pid, Recording r, int i) throws IOException {
      begin();
      int cpu = r.cpu(i);
      switch (r.kind(i)) {
        case Recording.SLICE_TASK ->
            slice(
                pid, r, i, "task " + r.value(i), "task", ",\"args\":{\"task\":" + r.value(i) + "}");
        case Recording.SLICE_BALANCE -> slice(pid, r, i, "balance", "balance", "");
        case Recording.SLICE_ILB -> slice(pid, r, i, "ILB", "ilb", "");
        case Recording.KICK -> {
          instant(
              pid, cpu, r.time(i), r.value(i) < 0 ? "ILB kick (no idle CPU)" : "ILB kick", "kick");
          line.append(",\"args\":{\"ilb_cpu\":")
              .append(r.value(i) < 0 ? "null" : Integer.toString(r.value(i)))
              .append("}}");
        }
        case Recording.MIGRATION -> {
          instant(pid, cpu, r.time(i), "migrate", "migration");
          line.append(",\"args\":{\"task\":")
              .append(r.other(i))
              .append(",\"from\":")
              .append(cpu)
              .append(",\"to\":")
              .append(r.value(i))
              .append("}}");
        }
        case Recording.NR_RUNNING ->
            counter(pid, r.time(i), "nr_running CPU " + cpu, "nr_running", r.value(i));
        case Recording.NOHZ_WEIGHT ->
            counter(pid, r.time(i), "nohz.idle_cpus_mask weight", "cpus", r.value(i));
        default -> throw new IllegalStateException("unknown event kind " + r.kind(i));
      }
      flush();
    }

    private void slice(int pid, Recording r, int i, String name, String category, String args) {
      line.append("{\"name\":\"")
          .append(name)
          .append("\",\"cat\":\"")
          .append(category)
          .append("\",\"ph\":\"X\",\"pid\":")
          .append(pid)
          .append(",\"tid\":")
          .append(r.cpu(i))
          .append(",\"ts\":");
      appendMicros(line, r.time(i)).append(",\"dur\":");
      appendMicros(line, r.end(i) - r.time(i)).append(args).append('}');
    }

    private void instant(int pid, int tid, long ns, String name, String category) {
      line.append("{\"name\":\"")
          .append(name)
          .append("\",\"cat\":\"")
          .append(category)
          .append("\",\"ph\":\"i\",\"s\":\"t\",\"pid\":")
          .append(pid)
          .append(",\"tid\":")
          .append(tid)
          .append(",\"ts\":");
      appendMicros(line, ns);
    }

    private void counter(int pid, long ns, String name, String series, int value) {
      line.append("{\"name\":\"")
          .append(name)
          .append("\",\"ph\":\"C\",\"pid\":")
          .append(pid)
          .append(",\"ts\":");
      appendMicros(line, ns)
          .append(",\"args\":{\"")
          .append(series)
          .append("\":")
          .append(value)
          .append("}}");
    }

    private void begin() throws IOException {
      if (!first) {
        out.write(",\n");
      }
      first = false;
      line.setLength(0);
    }

    private void flush() throws IOException {
      out.write(line.toString());
    }
  }

  /** Nanoseconds as microseconds with three decimals. */
  public static String micros(long ns) {
    return appendMicros(new StringBuilder(), ns).toString();
  }

  private static StringBuilder appendMicros(StringBuilder out, long ns) {
    long fraction = ns % 1000;
    out.append(ns / 1000).append('.');
    if (fraction < 100) {
      out.append('0');
    }
    if (fraction < 10) {
      out.append('0');
    }
    return out.append(fraction);
  }
}
