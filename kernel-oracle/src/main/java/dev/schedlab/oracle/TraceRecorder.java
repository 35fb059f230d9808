package dev.schedlab.oracle;

import dev.schedlab.oracle.guest.GuestImage;
import dev.schedlab.oracle.guest.GuestPrograms;
import dev.schedlab.oracle.guest.GuestWorkload;
import dev.schedlab.oracle.guest.HostTools;
import dev.schedlab.oracle.guest.OracleException;
import dev.schedlab.oracle.guest.QemuGuest;
import dev.schedlab.oracle.guest.TarArchive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records a scheduler trace in the guest for trace replay: boots the shape, runs the workload with
 * {@link GuestWorkload#RECORDED_EVENTS} enabled in tracefs (global clock), and writes the guest's
 * {@code /sys/kernel/tracing/trace} text as the kernel printed it, with the guest's sysfs (for
 * {@code hw.import}) extracted beside it. No {@code perf sched record}: the guest has only busybox.
 * The simulator does not run.
 */
public final class TraceRecorder {

  /** An event line's name: {@code <idle>-0 [001] d..2. 12.345678: sched_switch: ...}. */
  private static final Pattern EVENT = Pattern.compile(":\\s+(sched_[a-z_]+):\\s");

  /** A ring-buffer overrun line of {@code per_cpu/cpuN/stats}. */
  private static final Pattern OVERRUN = Pattern.compile("overrun:\\s*(\\d+)");

  private final KernelOracle oracle;
  private final HostTools tools;
  private final Consumer<String> progress;

  /** A recorder booting guests with {@code tools}, reporting progress lines. */
  public TraceRecorder(HostTools tools, Consumer<String> progress) {
    this.oracle = new KernelOracle(tools, progress);
    this.tools = tools;
    this.progress = progress;
  }

  /**
   * What a recording holds.
   *
   * @param trace the trace file written
   * @param bytes its size
   * @param events the count of each event name
   * @param overruns events the guest's ring buffer dropped (0: the trace is complete)
   * @param guestFiles the guest's copied sysfs and debugfs, for {@code --sysfs} import
   */
  public record Recording(
      Path trace, long bytes, Map<String, Long> events, long overruns, Path guestFiles) {

    /** One line per event name and a summary. */
    public String summary() {
      StringBuilder sb = new StringBuilder();
      sb.append("trace ")
          .append(trace)
          .append(": ")
          .append(bytes)
          .append(" bytes, ")
          .append(events.values().stream().mapToLong(Long::longValue).sum())
          .append(" events, ")
          .append(overruns)
          .append(" lost to ring-buffer overruns\n");
      events.forEach((name, n) -> sb.append("  ").append(name).append(' ').append(n).append('\n'));
      sb.append("guest sysfs: ").append(guestFiles).append('\n');
      return sb.toString();
    }
  }

  /**
   * Boots, runs {@code workload} with the recording's events, and writes the trace to {@code out}.
   *
   * @throws OracleException when the guest does not boot or sends no trace (no tracefs)
   */
  public Recording record(KernelOracle.Request request, GuestWorkload workload, Path out) {
    GuestWorkload recording = workload.recording();
    GuestPrograms programs = new GuestPrograms(tools.gcc(), GuestPrograms.defaultCache());
    GuestImage image =
        new GuestImage(tools.busybox())
            .workload(recording.guestCommands())
            .program(recording.program(), programs.binary(recording.program()));
    QemuGuest.Result boot =
        oracle.boot(request, image, (long) Math.ceil(recording.seconds()) * 2 + 30);
    TarArchive archive = boot.archive();
    Path guestFiles = request.workDirectory().resolve("guest");
    archive.extractTo(guestFiles);
    String text = archive.text("trace.txt");
    if (text == null) {
      throw new OracleException(
          "the guest sent no trace (is tracefs in its kernel?); its console"
              + " is in "
              + boot.consoleLog());
    }
    try {
      Path parent = out.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(out, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new OracleException("cannot write " + out + ": " + e.getMessage(), e);
    }
    progress.accept("trace written to " + out);
    return new Recording(
        out,
        text.getBytes(StandardCharsets.UTF_8).length,
        count(text),
        overruns(archive.text("trace.overrun")),
        guestFiles);
  }

  /** The count of each event name in a tracefs text. */
  static Map<String, Long> count(String text) {
    Map<String, Long> counts = new TreeMap<>();
    text.lines()
        .filter(l -> !l.startsWith("#"))
        .forEach(
            l -> {
              Matcher m = EVENT.matcher(l);
              if (m.find()) {
                counts.merge(m.group(1), 1L, Long::sum);
              }
            });
    return counts;
  }

  /** The summed overruns of the guest's {@code per_cpu/cpu* /stats} lines (0 when absent). */
  static long overruns(String stats) {
    if (stats == null) {
      return 0;
    }
    long sum = 0;
    Matcher m = OVERRUN.matcher(stats);
    while (m.find()) {
      sum += Long.parseLong(m.group(1));
    }
    return sum;
  }
}
