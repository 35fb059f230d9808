package dev.schedlab.cli.args;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.hw.importer.HwlocXmlImporter;
import dev.schedlab.hw.importer.ImportedTopology;
import dev.schedlab.hw.importer.LscpuImporter;
import dev.schedlab.hw.importer.SysfsImporter;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.topology.Housekeeping;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * Where a command gets its machine: a built-in model ({@code --machine ID [-M key=value]...}), an
 * import ({@code --hwloc}, {@code --sysfs}, {@code --lscpu}) or a shape string ({@code --shape
 * 2n4l8c2t [--siblings split|adjacent]}), plus the isolation boot options {@code --nohz-full} and
 * {@code --isolcpus}. A picocli mixin.
 */
public final class TopologySource {

  /** The most standard input {@code --lscpu -} reads. */
  private static final int MAX_STDIN_BYTES = 16 << 20;

  /** Exactly one of the machine sources. */
  static final class Choice {
    @Option(
        names = "--machine",
        paramLabel = "ID",
        description = "a built-in machine (see `schedlab machines`)")
    String machine;

    @Option(
        names = "--hwloc",
        paramLabel = "FILE",
        description = "an hwloc XML export (lstopo --of xml)")
    Path hwloc;

    @Option(
        names = "--sysfs",
        paramLabel = "DIR",
        description = "a Linux sysfs tree (/sys for this machine)")
    Path sysfs;

    @Option(
        names = "--lscpu",
        paramLabel = "FILE",
        description = "lscpu -p or lscpu -e output; - for standard input")
    Path lscpu;

    @Option(
        names = "--shape",
        paramLabel = "SHAPE",
        description = "a shape string: " + Shape.GRAMMAR)
    String shape;
  }

  /** Sibling numbering of {@code --shape}. */
  enum Siblings {
    split,
    adjacent
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Choice choice;

  @Option(
      names = "-M",
      paramLabel = "KEY=VALUE",
      description = "a machine parameter (with --machine)")
  List<String> machineParameters = new ArrayList<>();

  @Option(
      names = "--siblings",
      paramLabel = "split|adjacent",
      description = "SMT sibling numbering for --shape (default split: CPU n and n+cores)")
  Siblings siblings;

  @Option(names = "--nohz-full", paramLabel = "LIST", description = "nohz_full= CPUs")
  String nohzFull;

  @Option(
      names = "--isolcpus",
      paramLabel = "[FLAGS,]LIST",
      description = "isolcpus= value, e.g. domain,managed_irq,2-5")
  String isolcpus;

  /**
   * The machine's topology with the isolation options applied.
   *
   * @param registry the plugins, asked for only with {@code --machine}
   * @throws IllegalArgumentException for an unknown machine, a bad parameter, an unreadable or
   *     malformed file, a bad shape or cpulist
   */
  public Topology topology(Supplier<PluginRegistry> registry) {
    if (!machineParameters.isEmpty() && choice.machine == null) {
      throw new BadInputException("-M sets a parameter of --machine; it needs --machine ID");
    }
    if (siblings != null && choice.shape == null) {
      throw new BadInputException("--siblings applies to --shape only");
    }
    Topology topology;
    if (choice.machine != null) {
      topology =
          PluginArguments.machine(
                  registry.get(),
                  choice.machine,
                  PluginArguments.keyValues("-M", machineParameters))
              .topology();
    } else if (choice.shape != null) {
      SiblingNumbering numbering =
          SiblingNumbering.valueOf(
              (siblings == null ? Siblings.split : siblings).name().toUpperCase(Locale.ROOT));
      topology = Shape.parse(choice.shape).toTopology(numbering);
    } else {
      topology = imported().toTopology();
    }
    return withIsolation(topology, nohzFull, isolcpus);
  }

  /** What the user named, for report headers: {@code hw.vera}, {@code shape 2n4l8c2t}. */
  public String label() {
    if (choice.machine != null) {
      return choice.machine;
    }
    if (choice.shape != null) {
      return "shape " + choice.shape;
    }
    Path file =
        choice.hwloc != null ? choice.hwloc : choice.sysfs != null ? choice.sysfs : choice.lscpu;
    return file.toString();
  }

  private ImportedTopology imported() {
    if (choice.hwloc != null) {
      return HwlocXmlImporter.read(choice.hwloc);
    }
    if (choice.sysfs != null) {
      return SysfsImporter.read(choice.sysfs);
    }
    if (choice.lscpu.toString().equals("-")) {
      return LscpuImporter.parse(standardInput(), "standard input");
    }
    return LscpuImporter.read(choice.lscpu);
  }

  /** Standard input as UTF-8 text, at most 16 MiB (lscpu output of 100,000 CPUs is 5 MiB). */
  private static String standardInput() {
    try {
      byte[] bytes = System.in.readNBytes(MAX_STDIN_BYTES + 1);
      if (bytes.length > MAX_STDIN_BYTES) {
        throw new BadInputException(
            "--lscpu -: standard input is longer than 16 MiB;"
                + " expected lscpu -p or lscpu -e output");
      }
      return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new BadInputException(
          "--lscpu -: cannot read standard input: " + dev.schedlab.spi.FileProblems.describe(e), e);
    }
  }

  /**
   * {@code topology} with the {@code nohz_full=} and {@code isolcpus=} boot options (either may be
   * null).
   */
  static Topology withIsolation(Topology topology, String nohzFull, String isolcpus) {
    if (nohzFull == null && isolcpus == null) {
      return topology;
    }
    String bootArgs =
        (nohzFull == null ? "" : "nohz_full=" + nohzFull.trim())
            + (isolcpus == null ? "" : " isolcpus=" + isolcpus.trim());
    return topology.withHousekeeping(Housekeeping.parse(bootArgs, topology.nrCpuIds()));
  }

  /**
   * Parses a cpulist given to {@code option} for a machine of {@code nrCpuIds} CPUs.
   *
   * @throws BadInputException naming the option, the problem and the allowed CPUs
   */
  public static ImmutableCpuMask cpuList(String option, String text, int nrCpuIds) {
    try {
      return CpuMasks.parseCpuList(text, nrCpuIds);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new BadInputException(
          option
              + " "
              + text
              + ": "
              + e.getMessage()
              + "; this machine has CPUs 0-"
              + (nrCpuIds - 1),
          e);
    }
  }
}
