package dev.schedlab.cli.args;

import dev.schedlab.spi.ParameterSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options that describe what to simulate, shared by {@code compare}, {@code run} and {@code
 * sweep}: machine, workload, duration, seed, HZ and isolation. A picocli mixin; serializable, since
 * a sweep's cells carry it to wherever they run.
 */
public final class ScenarioOptions implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Allowed {@code --duration}: 1 ms to 1 h of simulated time. */
  private static final ParameterSpec DURATION =
      ParameterSpec.ofDuration("duration", "simulated time", "5s", 1_000_000L, 3_600_000_000_000L);

  @Option(
      names = "--machine",
      required = true,
      paramLabel = "ID",
      description = "the machine (see `schedlab machines`)")
  public String machine;

  @Option(names = "-M", paramLabel = "KEY=VALUE", description = "a machine parameter")
  public List<String> machineParameters = new ArrayList<>();

  @Option(
      names = "--workload",
      required = true,
      paramLabel = "ID",
      description = "the workload (see `schedlab workloads`)")
  public String workload;

  @Option(names = "-W", paramLabel = "KEY=VALUE", description = "a workload parameter")
  public List<String> workloadParameters = new ArrayList<>();

  @Option(
      names = "--duration",
      paramLabel = "TIME",
      defaultValue = "5s",
      description = "simulated time per run, e.g. 500ms, 5s (default ${DEFAULT-VALUE})")
  String duration;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "1",
      description = "master seed: same seed and inputs, same results (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--hz",
      paramLabel = "HZ",
      defaultValue = "1000",
      description = "tick rate, CONFIG_HZ: 100, 250, 300 or 1000 (default ${DEFAULT-VALUE})")
  int hz;

  @Option(names = "--nohz-full", paramLabel = "LIST", description = "nohz_full= CPUs")
  public String nohzFull;

  @Option(
      names = "--isolcpus",
      paramLabel = "[FLAGS,]LIST",
      description = "isolcpus= value, e.g. domain,managed_irq,2-5")
  public String isolcpus;

  @Option(
      names = "-E",
      paramLabel = "KEY=VALUE",
      description = "an engine assumption, e.g. -E ipi_latency=5us (list: `schedlab engine`)")
  public List<String> engineSettings = new ArrayList<>();

  @Option(
      names = {"-q", "--quiet"},
      description = "no progress on stderr")
  public boolean quiet;

  @Option(
      names = "--progress",
      description =
          "progress lines on stderr also when it is not a"
              + " terminal (on a terminal progress is shown in place unless --quiet)")
  public boolean progress;

  /** Whether to show progress: on a terminal, or when asked for; never with --quiet. */
  public boolean showProgress(boolean terminal) {
    return !quiet && (terminal || progress);
  }

  /**
   * The options other than the machine, the workload and their parameters, as text: two option sets
   * with the same text and parameters describe the same runs.
   */
  public String canonical() {
    return "duration="
        + duration
        + " seed="
        + seed
        + " hz="
        + hz
        + " nohz_full="
        + nohzFull
        + " isolcpus="
        + isolcpus;
  }

  /** The simulated time in nanoseconds. */
  long durationNs() {
    try {
      return (Long) DURATION.parse(duration);
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--" + e.getMessage(), e);
    }
  }

  /** The tick rate, checked against the kernel's CONFIG_HZ choices. */
  int checkedHz() {
    if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) {
      throw new BadInputException("--hz " + hz + ": allowed 100, 250, 300 or 1000 (CONFIG_HZ)");
    }
    return hz;
  }
}
