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
    String header =
        String.format(
            Locale.ROOT,
            "trace check: %s%n  %s, variant %s, HZ %d, seed" + " %d, %.3f s simulated%n",
            model.describe(),
            resolved.describe().replaceFirst(", " + TraceWorkloadProvider.ID + ".*$", ""),
            parsed.definition(),
            result.hz(),
            resolved.seed(),
            result.simulatedNs() / 1e9);
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
}
