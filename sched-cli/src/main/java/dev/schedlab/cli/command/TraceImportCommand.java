package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.report.ReportFiles;
import dev.schedlab.cli.report.ReportTarget;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.workloads.trace.RecordingMachine;
import dev.schedlab.workloads.trace.TraceImport;
import dev.schedlab.workloads.trace.TraceModel;
import dev.schedlab.workloads.trace.TraceProgramFile;
import dev.schedlab.workloads.trace.TraceTask;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code schedlab trace import TRACE [-o PROGRAM.json] [--recorded-on hw.x -M k=v]}: reads a
 * recorded trace, prints what it holds and how fast it was read, and writes its compact program
 * form. With {@code --recorded-on} each burst is scaled by that machine's CPU capacity and SMT
 * co-running (its performance model) instead of counting as CPU time on a 1024-capacity CPU.
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
      "Import a recorded trace into the program file wl.trace replays (-W file=PROGRAM.json).",
      "TRACE: perf script output of perf sched record (perf script -i perf.data > TRACE), or",
      "ftrace text: /sys/kernel/tracing/trace or trace-cmd report, with the events",
      "sched_switch, sched_waking (or sched_wakeup), sched_wakeup_new, sched_process_fork,",
      "sched_process_exec, sched_process_exit and sched_migrate_task; sched_switch is required."
    })
final class TraceImportCommand implements Callable<Integer> {

  private final Cli cli;

  @Parameters(index = "0", paramLabel = "TRACE", description = "the trace's text")
  String file;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "PROGRAM.json",
      description = "write the program file (JSON) here")
  String output;

  @Option(
      names = "--recorded-on",
      paramLabel = "ID",
      description =
          "the machine the trace was recorded on (see `schedlab machines`): bursts"
              + " become work at its CPUs' capacity and SMT co-running; default: CPU time")
  String recordedOn;

  @Option(
      names = "-M",
      paramLabel = "KEY=VALUE",
      description = "a parameter of the --recorded-on machine")
  List<String> machineParameters = new ArrayList<>();

  TraceImportCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    ReportTarget out = output == null ? null : ReportFiles.checkFile("-o", output);
    if (out != null) {
      ReportFiles.checkDistinct(List.of(out), Map.of("TRACE", file));
    }
    RecordingMachine machine = recordingMachine();
    long start = System.nanoTime();
    TraceModel model = TraceImport.read(Path.of(file), machine);
    long wallNs = System.nanoTime() - start;
    // With -o - the program goes to stdout, so the summary goes to stderr.
    boolean programOnStdout = out != null && out.kind() == ReportTarget.Kind.STDOUT;
    summary(programOnStdout ? cli.err() : cli.out(), model, wallNs);
    if (out != null) {
      try (ReportFiles.Batch batch = new ReportFiles.Batch(cli.out())) {
        batch.stage(out, writer -> TraceProgramFile.write(model, writer));
        batch.commit();
      }
      if (!programOnStdout) {
        cli.out().println("wrote " + output);
      }
    }
    return 0;
  }

  private RecordingMachine recordingMachine() {
    Map<String, String> overrides = PluginArguments.keyValues("-M", machineParameters);
    if (recordedOn == null) {
      if (!overrides.isEmpty()) {
        throw new BadInputException(
            "-M "
                + machineParameters.get(0)
                + ": a machine parameter"
                + " needs --recorded-on ID (the machine the trace was recorded on)");
      }
      return null;
    }
    HardwareModelProvider provider =
        PluginArguments.require(cli.registry(), recordedOn, HardwareModelProvider.class);
    HardwareModel model = provider.create(provider.descriptor().resolve(overrides));
    String label =
        recordedOn
            + (overrides.isEmpty()
                ? ""
                : " " + String.join(" ", machineParameters.stream().map(m -> "-M " + m).toList()));
    return RecordingMachine.of(label, model);
  }

  /** What the import found, for people. */
  static void summary(PrintStream out, TraceModel model, long wallNs) {
    TraceModel.Counts c = model.counts();
    int initial = 0;
    int realTime = 0;
    int pinned = 0;
    for (TraceTask task : model.tasks()) {
      initial += task.initial() ? 1 : 0;
      realTime += task.realTime() ? 1 : 0;
      pinned += task.pinnedCpu() >= 0 ? 1 : 0;
    }
    out.printf(
        Locale.ROOT,
        "%s: %s, recorded on %s, %d CPUs, %.3f s%n",
        model.source(),
        model.format(),
        model.recordedOn(),
        model.cpus(),
        model.durationNs() / 1e9);
    double seconds = wallNs / 1e9;
    out.printf(
        Locale.ROOT,
        "  events  %d scheduler events, read in %.2f s (%.0f events/s)%n",
        c.events(),
        seconds,
        seconds > 0 ? c.events() / seconds : 0);
    out.printf(
        Locale.ROOT,
        "  tasks   %d (%d at the start, %d forked, %d exited; %d per-CPU"
            + " kernel threads, %d real-time)%n",
        model.tasks().size(),
        initial,
        model.tasks().size() - initial,
        c.exits(),
        pinned,
        realTime);
    out.printf(
        Locale.ROOT,
        "  steps   %d bursts (%.6f s of work), %d wake edges, %d timed"
            + " wakeups, %d sleeps without a wakeup event, %d forks, %d execs, %d"
            + " preemptions%n",
        c.bursts(),
        model.totalWork() / 1e9,
        c.edges(),
        c.timedWakeups(),
        c.sleepsWithoutWakeup(),
        c.forks(),
        c.execs(),
        c.preemptions());
    for (String note : model.notes()) {
      out.println("  note    " + note);
    }
  }
}
