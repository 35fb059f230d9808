package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.EngineSettings;
import dev.schedlab.cli.args.PluginArguments;
import dev.schedlab.cli.report.Json;
import dev.schedlab.cli.report.KernelReport;
import dev.schedlab.oracle.DomainSuite;
import dev.schedlab.oracle.KernelOracle;
import dev.schedlab.oracle.guest.Accelerator;
import dev.schedlab.oracle.guest.GuestShape;
import dev.schedlab.oracle.guest.GuestWorkload;
import dev.schedlab.oracle.guest.HostTools;
import dev.schedlab.oracle.guest.MachineShape;
import dev.schedlab.oracle.guest.OracleException;
import dev.schedlab.oracle.guest.RandomShapes;
import dev.schedlab.oracle.guest.WorkloadMapping;
import dev.schedlab.oracle.report.OracleReport;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.WorkloadProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code schedlab kernel}: the kernel oracle. Boots a machine shape in QEMU with a Linux kernel
 * (Debian's 6.1 by default, {@code --kernel} for one's own build), compares every CPU's sched
 * domains with the simulator's built from the guest's own sysfs, and with {@code --workload} runs
 * the matching guest program and the simulator side by side (schedstat, softirqs, trace). Every
 * option is checked before QEMU starts; a guest that does not boot or panics is one line naming the
 * console log it left, exit 2. Exit 1 when a domain comparison finds an unexplained difference.
 */
@Command(
    name = "kernel",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
      "Run the same scenario on a real Linux kernel in QEMU and compare with the" + " simulator.",
      "Without --workload: every CPU's sched domains. With it: balancing, wakeups and softirqs"
          + " per second, kernel and simulator side by side."
    })
public final class KernelCommand implements Callable<Integer> {

  /** Allowed {@code --duration}: 1 s to 10 min of guest (wall) time. */
  private static final ParameterSpec DURATION =
      ParameterSpec.ofDuration(
          "duration",
          "workload time in the guest and the simulator",
          "10s",
          1_000_000_000L,
          600_000_000_000L);

  /** Output formats on stdout. */
  enum Format {
    table,
    json,
    csv
  }

  /** The machine: a guest shape or a built-in machine QEMU can express. */
  static final class Machine {
    @Option(
        names = "--shape",
        paramLabel = "SHAPE",
        description = "a guest shape: " + GuestShape.GRAMMAR)
    String shape;

    @Option(
        names = "--machine",
        paramLabel = "ID",
        description = "a built-in machine QEMU can express (see `schedlab machines`)")
    String machine;
  }

  private final Cli cli;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  Machine machine;

  @Option(names = "-M", paramLabel = "KEY=VALUE", description = "a machine parameter")
  List<String> machineParameters = new ArrayList<>();

  @Option(
      names = "--append",
      paramLabel = "ARGS",
      defaultValue = "",
      description = "kernel arguments, e.g. \"nohz_full=4-7 isolcpus=domain,2-3\"")
  String append;

  @Option(
      names = "--kernel",
      paramLabel = "BZIMAGE",
      description = "the kernel image to boot (default: the host's Debian kernel)")
  Path kernel;

  @Option(
      names = "--accel",
      paramLabel = "auto|tcg|kvm",
      defaultValue = "auto",
      description =
          "QEMU accelerator; auto tries KVM when /dev/kvm is usable (default"
              + " ${DEFAULT-VALUE})")
  String accel;

  @Option(
      names = "--workload",
      paramLabel = "ID",
      description =
          "a workload with a guest program: wl.gemm, wl.hackbench, wl.schbench or wl.rtapp (a"
              + " file that is one periodic team)")
  String workload;

  @Option(names = "-W", paramLabel = "KEY=VALUE", description = "a workload parameter")
  List<String> workloadParameters = new ArrayList<>();

  @Option(
      names = "--duration",
      paramLabel = "TIME",
      defaultValue = "10s",
      description = "workload time in the guest and the simulator (default ${DEFAULT-VALUE})")
  String duration;

  @Option(
      names = "--hz",
      paramLabel = "HZ",
      defaultValue = "250",
      description = "the simulator's HZ (default ${DEFAULT-VALUE}, Debian's CONFIG_HZ)")
  int hz;

  @Option(
      names = "-E",
      paramLabel = "KEY=VALUE",
      description =
          "an engine setting for the simulator's run (list: `schedlab engine`);"
              + " rules=linux-6.1 unless given")
  List<String> engineSettings = new ArrayList<>();

  @Option(names = "--no-trace", description = "no sched_switch/sched_migrate_task trace")
  boolean noTrace;

  @Option(
      names = "--format",
      paramLabel = "table|json|csv",
      description = "stdout format (default table)")
  Format format = Format.table;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "where the guest's files and console.log go (default: a new temporary" + " directory)")
  Path out;

  @Option(
      names = "--random",
      paramLabel = "N",
      description = "the random domain suite: boot N random shapes, write DIR/shapes.tsv")
  int random;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "seed of --random (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--max-cpus",
      paramLabel = "C",
      defaultValue = "32",
      description = "largest random shape (default ${DEFAULT-VALUE})")
  int maxCpus;

  @Option(
      names = {"-q", "--quiet"},
      description = "no progress on stderr")
  boolean quiet;

  public KernelCommand(Cli cli) {
    this.cli = cli;
  }

  @Override
  public Integer call() {
    Consumer<String> progress =
        quiet ? line -> {} : line -> cli.err().println("schedlab kernel: " + line);
    if (random > 0) {
      return randomSuite(progress);
    }
    Plan plan = plan();
    Path work = workDirectory();
    HostTools tools = tools(progress);
    KernelOracle oracle = new KernelOracle(tools, progress);
    KernelOracle.Request request =
        new KernelOracle.Request(plan.shape(), append, kernel, plan.accelerator(), work);
    try {
      if (plan.workload() == null) {
        KernelOracle.DomainResult result = oracle.domains(request);
        print(
            result.report(),
            result.comparison().differences().stream().limit(40).map(Object::toString).toList());
        return result.comparison().matches() ? 0 : 1;
      }
      KernelOracle.BehaviourResult result =
          oracle.behaviour(request, plan.workload(), plan.settings());
      print(result.report(), List.of());
      return 0;
    } catch (OracleException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }

  /** Everything checked, before anything boots. */
  record Plan(
      GuestShape shape,
      Accelerator accelerator,
      GuestWorkload workload,
      KernelOracle.SimulatorSettings settings) {}

  /**
   * The checked options.
   *
   * @throws BadInputException naming the first bad option and what is allowed
   */
  Plan plan() {
    if (machine == null) {
      throw new BadInputException(
          "give --shape "
              + GuestShape.GRAMMAR
              + " or --machine ID (a built-in machine QEMU can express), or --random N");
    }
    if (!machineParameters.isEmpty() && machine.machine == null) {
      throw new BadInputException("-M sets a parameter of --machine; it needs --machine ID");
    }
    GuestShape shape = shape();
    Accelerator accelerator =
        switch (accel) {
          case "auto" -> null;
          case "tcg" -> Accelerator.TCG;
          case "kvm" -> Accelerator.KVM;
          default -> throw new BadInputException("--accel " + accel + ": allowed auto, tcg, kvm");
        };
    if (kernel != null && !(Files.isRegularFile(kernel) && Files.isReadable(kernel))) {
      throw new BadInputException(
          "--kernel "
              + kernel
              + " is not a readable file (give a"
              + " bzImage, e.g. arch/x86/boot/bzImage of a kernel build)");
    }
    if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) {
      throw new BadInputException("--hz " + hz + ": allowed 100, 250, 300 or 1000 (CONFIG_HZ)");
    }
    if (workload == null) {
      if (!workloadParameters.isEmpty() || !engineSettings.isEmpty() || noTrace) {
        throw new BadInputException(
            "-W, -E and --no-trace apply to a workload run; give"
                + " --workload "
                + String.join("|", WorkloadMapping.SUPPORTED));
      }
      return new Plan(shape, accelerator, null, null);
    }
    double seconds;
    try {
      seconds = (Long) DURATION.parse(duration) / 1e9;
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--" + e.getMessage(), e);
    }
    WorkloadProvider provider =
        PluginArguments.require(cli.registry(), workload, WorkloadProvider.class);
    Map<String, String> overrides = PluginArguments.keyValues("-W", workloadParameters);
    GuestWorkload guest;
    try {
      Parameters resolved = provider.descriptor().resolve(overrides);
      guest = WorkloadMapping.of(workload, resolved, overrides, seconds, shape);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    if (noTrace) {
      guest = guest.withoutTrace();
    }
    // The guest's kernel is 6.1 unless the user says otherwise (-E rules=mainline).
    List<String> items = new ArrayList<>();
    if (engineSettings.stream().noneMatch(item -> item.trim().startsWith("rules="))) {
      items.add("rules=linux-6.1");
    }
    items.addAll(engineSettings);
    EngineSettings settings = EngineSettings.parse(items);
    String description = settings.toString();
    return new Plan(
        shape,
        accelerator,
        guest,
        new KernelOracle.SimulatorSettings(hz, settings::applyTo, description));
  }

  private GuestShape shape() {
    try {
      if (machine.shape != null) {
        return GuestShape.parse(machine.shape);
      }
      HardwareModelProvider provider =
          PluginArguments.require(cli.registry(), machine.machine, HardwareModelProvider.class);
      return MachineShape.of(
          machine.machine,
          provider
              .create(
                  provider.descriptor().resolve(PluginArguments.keyValues("-M", machineParameters)))
              .topology());
    } catch (BadInputException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }

  private Path workDirectory() {
    try {
      if (out == null) {
        return Files.createTempDirectory("schedlab-kernel");
      }
      Files.createDirectories(out);
      if (!Files.isWritable(out)) {
        throw new BadInputException("--out " + out + " is not a writable directory");
      }
      return out;
    } catch (IOException e) {
      throw new BadInputException(
          "--out "
              + (out == null ? "(temporary directory)" : out)
              + ": cannot create it: "
              + e.getMessage(),
          e);
    }
  }

  private static HostTools tools(Consumer<String> progress) {
    try {
      return HostTools.find(true, progress);
    } catch (OracleException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }

  private int randomSuite(Consumer<String> progress) {
    if (machine != null || workload != null) {
      throw new BadInputException(
          "--random boots its own shapes; it takes no --shape, --machine" + " or --workload");
    }
    if (maxCpus < 1 || maxCpus > GuestShape.MAX_CPUS) {
      throw new BadInputException("--max-cpus " + maxCpus + ": allowed 1-" + GuestShape.MAX_CPUS);
    }
    Path work = workDirectory();
    KernelOracle oracle = new KernelOracle(tools(progress), line -> {});
    try {
      Path tsv = work.resolve("shapes.tsv");
      String summary =
          new DomainSuite(oracle, work)
              .run(RandomShapes.draw(seed, random, maxCpus), tsv, quiet ? nullStream() : cli.err());
      cli.out().println(summary);
      cli.out().println("per shape: " + tsv);
      return 0;
    } catch (OracleException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }

  private static java.io.PrintStream nullStream() {
    return new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
  }

  private void print(OracleReport report, List<String> differences) {
    Map<String, String> facts = new LinkedHashMap<>();
    if (machine.machine != null) {
      facts.put(
          "machine",
          machine.machine
              + (machineParameters.isEmpty() ? "" : " " + String.join(" ", machineParameters))
              + ", booted as the shape below (the guest"
              + " numbers CPUs thread-innermost)");
    }
    facts.putAll(report.facts());
    KernelReport kernelReport =
        new KernelReport(new OracleReport(facts, report.rows()), differences);
    switch (format) {
      case json -> cli.out().print(Json.pretty(kernelReport.json()));
      case csv -> cli.out().print(kernelReport.csv());
      default -> cli.out().print(kernelReport.table());
    }
  }
}
