package dev.schedlab.hw.machines;

import com.google.auto.service.AutoService;
import dev.schedlab.hw.importer.HwlocXmlImporter;
import dev.schedlab.hw.importer.ImportedTopology;
import dev.schedlab.hw.importer.LscpuImporter;
import dev.schedlab.hw.importer.SysfsImporter;
import dev.schedlab.hw.importer.TopologyImportException;
import dev.schedlab.spi.FileProblems;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.topology.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code hw.import}: a machine read from an hwloc XML file, a Linux sysfs tree (the live machine by
 * default: {@code path=/sys}) or {@code lscpu -p}/{@code -e} output, with the generic performance
 * assumptions of {@code hw.shape}. {@code format=auto} picks sysfs for a directory, hwloc for a
 * file starting with {@code <}, lscpu otherwise.
 */
@AutoService(HardwareModelProvider.class)
public final class ImportProvider implements HardwareModelProvider {

  private static final Assumptions.Defaults DEFAULTS =
      new Assumptions.Defaults(
          2.5,
          16,
          100,
          15,
          0.6,
          0.9,
          new String[] {
            "generic assumption",
            "generic assumption",
            "generic assumption",
            "generic assumption",
            "generic assumption",
            "generic assumption"
          });

  private static final PluginDescriptor DESCRIPTOR = buildDescriptor();

  private static PluginDescriptor buildDescriptor() {
    PluginDescriptor.Builder b =
        PluginDescriptor.builder("hw.import", PluginKind.HARDWARE_MODEL)
            .description("a machine imported from hwloc XML, a sysfs tree or lscpu output")
            .source("the imported file; performance numbers are generic assumptions");
    b.parameter(
        ParameterSpec.ofString(
            "path",
            "hwloc XML file, sysfs root directory, or lscpu -p/-e output file",
            SysfsImporter.DEFAULT_ROOT.toString()));
    b.parameter(
        ParameterSpec.ofChoice(
            "format",
            "input format; auto guesses from the path",
            "auto",
            "auto",
            "hwloc",
            "sysfs",
            "lscpu"));
    b.parameter(
        ParameterSpec.ofDouble(
            "efficiency_kind_capacity",
            "hwloc: assumed capacity ratio per cpukind efficiency rank when the file gives neither"
                + " LinuxCapacity nor FrequencyMaxMHz (0.75 = i7-1370P E/P max clocks)",
            HwlocXmlImporter.DEFAULT_EFFICIENCY_KIND_CAPACITY,
            0.05,
            1));
    Assumptions.addParameters(b, DEFAULTS, true, "NUMA node");
    return b.build();
  }

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public HardwareModel create(Parameters p) {
    Assumptions.checkFor(DESCRIPTOR, p);
    ImportedTopology imported =
        read(
            Path.of(p.getString("path")),
            p.getString("format"),
            p.getDouble("efficiency_kind_capacity"));
    Topology topology = imported.toTopology();
    double bandwidth = p.getDouble(Assumptions.MEMORY);
    return Assumptions.machine(
        topology,
        p,
        bandwidth,
        "Imported from "
            + imported.source()
            + " ("
            + imported.format()
            + ")"
            + (imported.notes().isEmpty() ? "" : "; " + String.join("; ", imported.notes()))
            + "; performance numbers are generic"
            + " assumptions.");
  }

  /** Reads {@code path} in {@code format} ({@code auto} guesses). */
  static ImportedTopology read(Path path, String format, double efficiencyKindCapacity) {
    String chosen = format.equals("auto") ? guess(path) : format;
    switch (chosen) {
      case "sysfs":
        return SysfsImporter.read(path);
      case "hwloc":
        return HwlocXmlImporter.read(path, efficiencyKindCapacity);
      default:
        return LscpuImporter.read(path);
    }
  }

  private static String guess(Path path) {
    if (Files.isDirectory(path)) {
      return "sysfs";
    }
    try (InputStream in = Files.newInputStream(path)) {
      int c;
      do {
        c = in.read();
      } while (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0xEF || c == 0xBB
          || c == 0xBF);
      return c == '<' ? "hwloc" : "lscpu";
    } catch (IOException e) {
      throw new TopologyImportException(
          path.toString(), "cannot read: " + FileProblems.describe(e), e);
    }
  }
}
