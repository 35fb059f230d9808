package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.args.ScenarioOptions;
import dev.schedlab.cli.args.Variant;
import dev.schedlab.cli.report.ReplayRecording;
import dev.schedlab.cli.report.TraceCheckReport;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.workloads.trace.TraceModel;
import dev.schedlab.workloads.trace.TraceWorkloadProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code schedlab trace check --machine ID --workload wl.trace -W file=TRACE ...}: one replay, as
 * {@code run} makes it, compared with its recording: CPU time per task, switches, wakeups and
 * migrations per sched-domain level ({@link TraceCheckReport}).
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
      "Replay a recorded trace once and compare the replay with the recording: CPU time per",
      "task, switches, wakeups, migrations per sched-domain level. Options as for run, with",
      "--workload wl.trace -W file=TRACE (a trace's text or a trace import program)."
    })
final class TraceCheckCommand implements Callable<Integer> {

  private final Cli cli;

  @Mixin ScenarioOptions scenario;

  @Option(
      names = "--variant",
      paramLabel = "NAME=PROFILE_OR_PLUGIN[+PLUGIN[:k=v;...]]",
      description = "the variant to replay under (default mainline-7.3)")
  String variant = "mainline-7.3=mainline-7.3";

  @Option(
      names = "--tasks",
      paramLabel = "N",
      description = "tasks listed one by one, most recorded CPU time first (default 20)")
  int shownTasks = 20;

  TraceCheckCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    if (!TraceWorkloadProvider.ID.equals(scenario.workload)) {
      throw new BadInputException(
          "trace check: --workload "
              + scenario.workload
              + ": expected "
              + TraceWorkloadProvider.ID
              + " (with -W file=TRACE)");
    }
    if (shownTasks < 0) {
      throw new BadInputException("--tasks " + shownTasks + ": allowed 0 or more");
    }
    PluginRegistry registry = cli.registry();
    Map<String, String> parameters = PluginArguments.keyValues("-W", scenario.workloadParameters);
    Scenario resolved = Scenario.resolve(registry, scenario, parameters);
    Variant parsed = Variant.parseAll(List.of(variant), registry).get(0);
    String file = parameters.getOrDefault("file", "");
    TraceModel model = TraceWorkloadProvider.load(Path.of(file));
    ReplayRecording replay = new ReplayRecording(resolved.hardware().topology().nrCpuIds());
    SimulationResult result =
        Simulations.run(resolved.config(registry, parsed, resolved.seed()), replay);
    replay.finish(result.simulatedNs());
    long asked = resolved.durationNs();
    long spanNs = replaySpanNs(result);
    if (spanNs > 0 && spanNs < asked) {
      // The recording's counts end with its last task; the replay's would go on counting the
      // machine's background (kworkers, timer and device interrupts) and ticks to --duration. The
      // engine is deterministic, so a run that ends where the replay completed is the same run
      // cut there.
      resolved = resolved.withDurationNs(spanNs);
      replay = new ReplayRecording(resolved.hardware().topology().nrCpuIds());
      result = Simulations.run(resolved.config(registry, parsed, resolved.seed()), replay);
      replay.finish(result.simulatedNs());
      if (replaySpanNs(result) != spanNs) {
        throw new IllegalStateException(
            "trace check: the replay cut at its completion ("
                + spanNs
                + " ns) did not complete at the same time");
      }
    }
    String header =
        String.format(
            Locale.ROOT,
            "trace check: %s%n  %s, variant %s, HZ %d, seed" + " %d, %.3f s simulated%s%n",
            model.describe(),
            resolved.describe().replaceFirst(", " + TraceWorkloadProvider.ID + ".*$", ""),
            parsed.definition(),
            result.hz(),
            resolved.seed(),
            result.simulatedNs() / 1e9,
            result.simulatedNs() < asked
                ? String.format(
                    Locale.ROOT,
                    " (to the replay's completion, of the --duration %.3f s: the replay's"
                        + " counts cover the recording's work, not the idle machine after it)",
                    asked / 1e9)
                : "");
    cli.out()
        .print(
            TraceCheckReport.table(
                header,
                model,
                result,
                replay,
                SchedDomains.build(resolved.hardware().topology()),
                shownTasks));
    return 0;
  }

  /**
   * The simulated time up to and including the replay's completion (its last task's end, plus the
   * nanosecond that the run's end excludes), or 0 when the replay did not complete.
   */
  private static long replaySpanNs(SimulationResult result) {
    WorkloadResult workload = result.workload();
    if (workload.extra().getOrDefault("completed", 0.0) != 1.0) {
      return 0;
    }
    return Math.round(workload.value() * 1e9) + 1;
  }
}
