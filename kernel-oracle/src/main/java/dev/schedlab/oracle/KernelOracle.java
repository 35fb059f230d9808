package dev.schedlab.oracle;

import dev.schedlab.core.KernelRules;
import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.balance.BalancerOptions;
import dev.schedlab.core.engine.EngineOptions;
import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.hw.importer.ImportedTopology;
import dev.schedlab.hw.importer.SysfsImporter;
import dev.schedlab.hw.machines.ImportProvider;
import dev.schedlab.oracle.compare.BehaviourComparison;
import dev.schedlab.oracle.compare.DomainComparison;
import dev.schedlab.oracle.compare.NameRule;
import dev.schedlab.oracle.compare.SimulatorDomains;
import dev.schedlab.oracle.guest.Accelerator;
import dev.schedlab.oracle.guest.GuestImage;
import dev.schedlab.oracle.guest.GuestPrograms;
import dev.schedlab.oracle.guest.GuestShape;
import dev.schedlab.oracle.guest.GuestWorkload;
import dev.schedlab.oracle.guest.HostTools;
import dev.schedlab.oracle.guest.OracleException;
import dev.schedlab.oracle.guest.QemuGuest;
import dev.schedlab.oracle.guest.TarArchive;
import dev.schedlab.oracle.kernel.KernelDomains;
import dev.schedlab.oracle.kernel.KernelSchedstat;
import dev.schedlab.oracle.report.OracleReport;
import dev.schedlab.oracle.report.OracleRow;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.topology.Housekeeping;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomainOptions;
import dev.schedlab.topology.domain.SchedDomains;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The oracle's entry point: boots a machine shape in QEMU with kernel arguments (and a guest
 * workload), collects what the guest sends, imports the guest's own sysfs into the simulator's
 * topology model and compares. {@link #domains} does the sched-domain comparison.
 */
public final class KernelOracle {

  /**
   * How long a boot without workload may take on a loaded 2-core host under TCG, before the per-CPU
   * allowance of {@link #bootTimeout}.
   */
  public static final Duration BOOT_TIMEOUT = Duration.ofSeconds(90);

  private final HostTools tools;
  private final Consumer<String> progress;

  /**
   * An oracle using the host's tools.
   *
   * @param tools QEMU, busybox, the default kernel and gcc
   * @param progress receives progress lines (a command prints them on stderr)
   */
  public KernelOracle(HostTools tools, Consumer<String> progress) {
    this.tools = tools;
    this.progress = progress;
  }

  /**
   * What to boot.
   *
   * @param shape the machine
   * @param kernelArguments extra kernel arguments ({@code nohz_full=}, {@code isolcpus=}, ...)
   * @param kernel the kernel image, null for the host's Debian kernel
   * @param accelerator TCG or KVM, null to choose (KVM when {@code /dev/kvm} boots, else TCG)
   * @param workDirectory where the initramfs, the console log and the guest's files go
   */
  public record Request(
      GuestShape shape,
      String kernelArguments,
      Path kernel,
      Accelerator accelerator,
      Path workDirectory) {}

  /**
   * How the simulator side of a behaviour comparison runs.
   *
   * @param hz the simulator's tick rate (Debian's 6.1 kernel: 250)
   * @param engine applies engine settings ({@code -E}) to the run's configuration
   * @param description the settings as the report states them, e.g. {@code the engine's default
   *     rules}
   */
  public record SimulatorSettings(
      int hz, UnaryOperator<SimulationConfig.Builder> engine, String description) {

    /** HZ 250 and the rules of the guest's kernel, {@code -E rules=linux-6.1}. */
    public static final SimulatorSettings DEFAULT = of(KernelRules.LINUX_6_1);

    /** HZ 250 (Debian's) and the engine rule set {@code rules}, nothing else changed. */
    public static SimulatorSettings of(KernelRules rules) {
      return new SimulatorSettings(
          250,
          b ->
              b.engine(rules.engine(EngineOptions.defaults()))
                  .balancer(rules.balancer(BalancerOptions.defaults())),
          "engine rules " + rules.id());
    }
  }

  /**
   * The outcome of a domain comparison.
   *
   * @param request what was booted
   * @param boot the boot's result (accelerator, elapsed time, console log)
   * @param kernelVersion the guest's {@code /proc/version}
   * @param kernelDomains the guest's domains as it named them
   * @param topology the simulator's topology, imported from the guest's sysfs
   * @param comparison the comparison after the {@link NameRule}s
   */
  public record DomainResult(
      Request request,
      QemuGuest.Result boot,
      String kernelVersion,
      KernelDomains kernelDomains,
      Topology topology,
      DomainComparison comparison) {

    /** The report: run facts, one row per level and field summary, one per difference. */
    public OracleReport report() {
      Map<String, String> facts = new LinkedHashMap<>();
      facts.put("shape", request.shape().toString());
      facts.put("kernel arguments", QemuGuest.commandLine(request.kernelArguments()));
      facts.put("kernel", kernelVersion);
      facts.put("accelerator", boot.accelerator().id());
      facts.put("boot", String.format(Locale.ROOT, "%.1f s", boot.elapsed().toMillis() / 1e3));
      facts.put("compared", comparison.cpus() + " CPUs, " + comparison.domains() + " domains");
      facts.put(
          "renames",
          String.join(
              "; ", java.util.Arrays.stream(NameRule.values()).map(NameRule::rule).toList()));
      List<OracleRow> rows = new ArrayList<>();
      Map<String, List<DomainComparison.Difference>> byField = comparison.byField();
      for (String field :
          List.of(
              "levels",
              "name",
              "span",
              "flags",
              "groups",
              "min_interval",
              "max_interval",
              "busy_factor",
              "imbalance_pct",
              "cache_nice_tries")) {
        List<DomainComparison.Difference> d = byField.getOrDefault(field, List.of());
        boolean explained = d.stream().allMatch(DomainComparison.Difference::explained);
        rows.add(
            new OracleRow(
                "domains",
                field,
                d.isEmpty() ? "equal" : d.size() + (explained ? " differ, explained" : " differ"),
                d.isEmpty() ? "equal" : d.get(0).toString(),
                Double.NaN,
                Double.NaN,
                explained));
      }
      for (String error : kernelDomains.errors()) {
        rows.add(new OracleRow("guest", "error", error, "", Double.NaN, Double.NaN, false));
      }
      return new OracleReport(facts, rows);
    }
  }

  /**
   * The outcome of a behaviour comparison.
   *
   * @param domains the domain comparison of the same boot
   * @param workload what ran
   * @param settings how the simulator ran
   * @param guestSeconds the guest's interval between the snapshots
   * @param guestMetric the guest program's own figures ({@code metric NAME VALUE} lines)
   * @param simulation the simulator's run on the guest's topology
   * @param rows the figures, kernel against simulator
   */
  public record BehaviourResult(
      DomainResult domains,
      GuestWorkload workload,
      SimulatorSettings settings,
      double guestSeconds,
      Map<String, String> guestMetric,
      SimulationResult simulation,
      List<OracleRow> rows) {

    /** The report: the domain summary's facts, the workload's metrics and every figure. */
    public OracleReport report() {
      Map<String, String> facts = new LinkedHashMap<>(domains.report().facts());
      facts.put(
          "workload",
          workload.label()
              + " for "
              + workload.seconds()
              + " s; simulator "
              + workload.simulatorWorkload()
              + " "
              + workload.simulatorParameters()
              + ", HZ "
              + settings.hz()
              + ", seed 1, "
              + settings.description());
      facts.put("guest interval", String.format(Locale.ROOT, "%.2f s", guestSeconds));
      facts.put(
          "domains",
          domains.comparison().matches()
              ? "equal"
              : domains.comparison().unexplained().size() + " unexplained differences");
      List<OracleRow> all = new ArrayList<>();
      all.add(
          new OracleRow(
              "workload",
              "own metric",
              guestMetric.toString(),
              simulation.workload().metric()
                  + " "
                  + OracleRow.format(simulation.workload().value())
                  + " "
                  + simulation.workload().unit(),
              Double.NaN,
              Double.NaN,
              true));
      all.addAll(rows);
      return new OracleReport(facts, all);
    }
  }

  /**
   * Boots the shape, runs the workload between two schedstat and softirq snapshots, and runs the
   * simulator with the same workload on the guest's own sysfs topology at HZ 250 with the guest
   * kernel's rules ({@link SimulatorSettings#DEFAULT}).
   *
   * @throws OracleException when the guest does not boot, the program does not build, or the
   *     guest's data cannot be read
   */
  public BehaviourResult behaviour(Request request, GuestWorkload workload) {
    return behaviour(request, workload, SimulatorSettings.DEFAULT);
  }

  /**
   * Boots the shape, runs the workload between two schedstat and softirq snapshots, and runs the
   * simulator with the same workload on the guest's own sysfs topology as {@code settings} say.
   *
   * @throws OracleException when the guest does not boot, the program does not build, or the
   *     guest's data cannot be read
   */
  public BehaviourResult behaviour(
      Request request, GuestWorkload workload, SimulatorSettings settings) {
    if (!workload.simulated()) {
      throw new OracleException(
          workload.label()
              + " has no simulator counterpart: record it"
              + " (TraceRecorder) instead");
    }
    GuestPrograms programs = new GuestPrograms(tools.gcc(), GuestPrograms.defaultCache());
    GuestImage image =
        new GuestImage(tools.busybox())
            .workload(workload.guestCommands())
            .program(workload.program(), programs.binary(workload.program()));
    QemuGuest.Result boot = boot(request, image, (long) Math.ceil(workload.seconds()) * 2 + 30);
    DomainResult domains = domainResult(request, boot);
    TarArchive archive = boot.archive();
    String before = archive.text("schedstat.before");
    String after = archive.text("schedstat.after");
    if (before == null || after == null) {
      throw new OracleException(
          "the guest sent no schedstat snapshots; its console is in " + boot.consoleLog());
    }
    double seconds = uptime(archive.text("uptime.after")) - uptime(archive.text("uptime.before"));
    long softirqs =
        KernelSchedstat.schedSoftirqs(archive.text("softirqs.after"))
            - KernelSchedstat.schedSoftirqs(archive.text("softirqs.before"));
    Map<Integer, List<String>> names = new java.util.TreeMap<>();
    SimulatorDomains.renameKernel(domains.kernelDomains().byCpu())
        .forEach(
            (cpu, chain) ->
                names.put(
                    cpu, chain.stream().map(dev.schedlab.oracle.kernel.DomainView::name).toList()));
    progress.accept(
        "simulating "
            + workload.simulatorWorkload()
            + " for "
            + workload.seconds()
            + " s on the guest's topology");
    SimulationResult sim = simulate(request.workDirectory().resolve("guest"), workload, settings);
    KernelSchedstat schedBefore = KernelSchedstat.parse(before);
    KernelSchedstat schedAfter = KernelSchedstat.parse(after);
    List<OracleRow> rows =
        new ArrayList<>(
            BehaviourComparison.rows(schedBefore, schedAfter, names, softirqs, seconds, sim));
    String traceText = archive.text("trace.txt");
    if (traceText != null) {
      rows.addAll(BehaviourComparison.traceRows(trace(traceText, domains, workload), sim));
    }
    rows.addAll(
        dev.schedlab.oracle.kernel.GuestDiagnosis.rows(
            archive.text("interrupts.before"),
            archive.text("interrupts.after"),
            archive.text("softirqs.before"),
            archive.text("softirqs.after"),
            schedBefore,
            schedAfter,
            seconds));
    return new BehaviourResult(
        domains, workload, settings, seconds, metrics(archive.text("workload.out")), sim, rows);
  }

  /** The simulator's run of {@code workload} on the sysfs tree under {@code guestFiles}. */
  static SimulationResult simulate(
      Path guestFiles, GuestWorkload workload, SimulatorSettings settings) {
    ImportProvider machines = new ImportProvider();
    HardwareModel hardware =
        machines.create(
            machines
                .descriptor()
                .resolve(Map.of("path", guestFiles.toString(), "format", "sysfs")));
    WorkloadProvider provider =
        java.util.ServiceLoader.load(WorkloadProvider.class).stream()
            .map(java.util.ServiceLoader.Provider::get)
            .filter(p -> p.descriptor().id().equals(workload.simulatorWorkload()))
            .findFirst()
            .orElseThrow(
                () -> new OracleException("no simulator workload " + workload.simulatorWorkload()));
    PolicyBinding<WorkloadProvider> binding =
        new PolicyBinding<>(
            provider, provider.descriptor().resolve(workload.simulatorParameters()));
    SimulationConfig.Builder builder =
        SimulationConfig.builder(hardware, binding)
            .seed(1)
            .durationNs((long) (workload.seconds() * 1e9))
            .hz(settings.hz());
    SimulationConfig config = settings.engine().apply(builder).build();
    return Simulations.run(config);
  }

  /** The guest's trace read with its own SMT siblings and domain spans. */
  private static dev.schedlab.oracle.kernel.KernelTrace trace(
      String text, DomainResult domains, GuestWorkload workload) {
    Map<Integer, List<Map.Entry<String, java.util.BitSet>>> levels = new java.util.TreeMap<>();
    SimulatorDomains.renameKernel(domains.kernelDomains().byCpu())
        .forEach(
            (cpu, chain) -> {
              List<String> keys =
                  BehaviourComparison.keys(
                      chain.stream().map(dev.schedlab.oracle.kernel.DomainView::name).toList());
              List<Map.Entry<String, java.util.BitSet>> spans = new ArrayList<>();
              for (int i = 0; i < chain.size(); i++) {
                spans.add(
                    Map.entry(
                        keys.get(i),
                        dev.schedlab.oracle.kernel.CpuList.parse(chain.get(i).span())));
              }
              levels.put(cpu, spans);
            });
    Topology topology = domains.topology();
    return dev.schedlab.oracle.kernel.KernelTrace.read(
        text,
        cpu ->
            cpu < topology.nrCpuIds()
                ? dev.schedlab.oracle.kernel.CpuList.parse(topology.smtSiblings(cpu).toCpuList())
                : new java.util.BitSet(),
        levels,
        workload.program());
  }

  private static double uptime(String text) {
    if (text == null) {
      throw new OracleException("the guest sent no /proc/uptime snapshot");
    }
    return Double.parseDouble(text.trim().split("\\s+")[0]);
  }

  private static Map<String, String> metrics(String output) {
    Map<String, String> out = new LinkedHashMap<>();
    if (output != null) {
      output
          .lines()
          .filter(l -> l.startsWith("metric "))
          .forEach(
              l -> {
                String[] f = l.split("\\s+");
                if (f.length >= 3) {
                  out.put(f[1], f[2]);
                }
              });
    }
    return out;
  }

  /**
   * Boots the shape without a workload and compares every CPU's sched domains.
   *
   * @throws OracleException when the guest does not boot or its sysfs cannot be imported
   */
  public DomainResult domains(Request request) {
    return domainResult(request, boot(request, new GuestImage(tools.busybox()), 0));
  }

  private DomainResult domainResult(Request request, QemuGuest.Result boot) {
    TarArchive archive = boot.archive();
    Path guestFiles = request.workDirectory().resolve("guest");
    archive.extractTo(guestFiles);
    Topology topology = importTopology(guestFiles, archive);
    SchedDomains simulated = SchedDomains.build(topology, SchedDomainOptions.LINUX_7_1_5);
    KernelDomains kernel = KernelDomains.read(archive);
    boolean partial = !simulated.cpuMap().contentEquals(topology.onlineMask());
    DomainComparison comparison =
        DomainComparison.compare(
            SimulatorDomains.renameKernel(kernel.byCpu()),
            SimulatorDomains.views(simulated),
            partial);
    String version = archive.text("proc/version");
    return new DomainResult(
        request, boot, version == null ? "?" : version.trim(), kernel, topology, comparison);
  }

  /**
   * The simulator's topology of the guest: its sysfs through {@link SysfsImporter}, with the
   * guest's own {@code nohz_full=}/{@code isolcpus=} from {@code /proc/cmdline}.
   */
  public static Topology importTopology(Path guestFiles, TarArchive archive) {
    try {
      ImportedTopology imported = SysfsImporter.read(guestFiles);
      Topology topology = imported.toTopology();
      String cmdline = archive.text("proc/cmdline");
      return cmdline == null
          ? topology
          : topology.withHousekeeping(Housekeeping.parse(cmdline, topology.nrCpuIds()));
    } catch (IllegalArgumentException e) {
      throw new OracleException("the guest's sysfs does not import: " + e.getMessage(), e);
    }
  }

  /** Boots once, choosing the accelerator when the request leaves it open. */
  QemuGuest.Result boot(Request request, GuestImage image, long extraSeconds) {
    Path kernel = request.kernel() != null ? request.kernel() : tools.defaultKernel();
    if (!Files.isReadable(kernel)) {
      throw new OracleException("kernel image " + kernel + " is not a readable file");
    }
    byte[] initramfs = image.build();
    Accelerator accel = request.accelerator();
    if (accel == null && kvmUsable()) {
      progress.accept("trying KVM (falls back to TCG if the guest does not boot in 60 s)");
      try {
        return QemuGuest.run(
            boot(request, kernel, initramfs, Accelerator.KVM, Duration.ofSeconds(60)));
      } catch (OracleException e) {
        progress.accept("KVM did not boot (" + e.getMessage() + "); using TCG");
      }
    }
    Accelerator chosen = accel == null ? Accelerator.TCG : accel;
    progress.accept(
        "booting "
            + request.shape()
            + " ("
            + request.shape().cpus()
            + " CPUs, "
            + request.shape().nodes()
            + " nodes) under "
            + chosen.id()
            + " with "
            + kernel);
    Duration timeout = bootTimeout(request.shape(), extraSeconds);
    try {
      return QemuGuest.run(boot(request, kernel, initramfs, chosen, timeout));
    } catch (OracleException e) {
      if (!e.getMessage().contains("did not finish")) {
        throw e;
      }
      // A TCG guest on an overcommitted host now and then stalls early in boot; one more try
      // tells a stall from a guest that never boots. The first console is kept beside.
      moveAside(
          request.workDirectory().resolve("console.log"),
          request.workDirectory().resolve("console-first-try.log"));
      progress.accept("no result within " + timeout.toSeconds() + " s; booting once more");
      return QemuGuest.run(boot(request, kernel, initramfs, chosen, timeout));
    }
  }

  /** The boot timeout of a shape: a base plus 3 s per CPU, plus the workload's duration. */
  public static Duration bootTimeout(GuestShape shape, long extraSeconds) {
    return BOOT_TIMEOUT.plusSeconds(3L * shape.cpus() + extraSeconds);
  }

  private static void moveAside(Path from, Path to) {
    try {
      Files.move(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (java.io.IOException e) {
      // Keeping the first console is a courtesy; the second try writes its own.
    }
  }

  private QemuGuest.Boot boot(
      Request request, Path kernel, byte[] initramfs, Accelerator accel, Duration timeout) {
    return new QemuGuest.Boot(
        tools.qemu(),
        kernel,
        initramfs,
        request.shape(),
        request.kernelArguments(),
        accel,
        timeout,
        request.workDirectory(),
        progress);
  }

  private static boolean kvmUsable() {
    Path kvm = Path.of("/dev/kvm");
    return Files.exists(kvm) && Files.isReadable(kvm) && Files.isWritable(kvm);
  }
}
