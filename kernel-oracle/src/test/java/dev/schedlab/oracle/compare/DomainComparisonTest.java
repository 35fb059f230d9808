package dev.schedlab.oracle.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.oracle.KernelOracle;
import dev.schedlab.oracle.guest.TarArchive;
import dev.schedlab.oracle.kernel.DomainView;
import dev.schedlab.oracle.kernel.KernelDomains;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomainOptions;
import dev.schedlab.topology.domain.SchedDomains;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's domains of a captured guest (its own sysfs imported) equal the guest kernel's
 * after the name rules, and a changed span or flag shows up as a difference.
 */
final class DomainComparisonTest {

  @TempDir Path dir;

  private Map<Integer, List<DomainView>> kernel;
  private Map<Integer, List<DomainView>> simulator;

  private void load() throws IOException {
    TarArchive archive;
    try (InputStream in =
        getClass().getResourceAsStream("/dev/schedlab/oracle/ring4-guest.tar.gz")) {
      archive = TarArchive.readGzip(in.readAllBytes());
    }
    archive.extractTo(dir);
    Topology topology = KernelOracle.importTopology(dir, archive);
    kernel = SimulatorDomains.renameKernel(KernelDomains.read(archive).byCpu());
    simulator =
        SimulatorDomains.views(SchedDomains.build(topology, SchedDomainOptions.LINUX_7_1_5));
  }

  @Test
  void compare_ringCapture_everyFieldEqual() throws IOException {
    load();
    DomainComparison comparison = DomainComparison.compare(kernel, simulator);
    assertThat(comparison.differences()).isEmpty();
    assertThat(comparison.cpus()).isEqualTo(8);
    assertThat(comparison.domains()).isEqualTo(24);
  }

  @Test
  void compare_simulatorWithoutOverlapOrOtherSpan_reportsBoth() throws IOException {
    load();
    Map<Integer, List<DomainView>> changed = new TreeMap<>(simulator);
    List<DomainView> chain = new ArrayList<>(changed.get(0));
    DomainView top = chain.get(2);
    java.util.SortedSet<String> flags = new java.util.TreeSet<>(top.flags());
    flags.remove("SD_OVERLAP");
    chain.set(2, new DomainView(0, 2, top.name(), "0-6", flags, top.groups(), top.tunables()));
    changed.put(0, chain);
    DomainComparison comparison = DomainComparison.compare(kernel, changed);
    assertThat(comparison.differences())
        .extracting(DomainComparison.Difference::field)
        .containsExactly("span", "flags");
    assertThat(comparison.differences().get(1).kernel()).isEqualTo("+SD_OVERLAP");
  }

  @Test
  void renameKernel_linux61Names_becomeTheSimulators() {
    DomainView die =
        new DomainView(
            0,
            1,
            "DIE",
            "0-7",
            new java.util.TreeSet<>(List.of("SD_SHARE_PKG_RESOURCES")),
            List.of(),
            Map.of());
    DomainView renamed = SimulatorDomains.renameKernel(Map.of(0, List.of(die))).get(0).get(0);
    assertThat(renamed.name()).isEqualTo("PKG");
    assertThat(renamed.flags()).containsExactly("SD_SHARE_LLC");
    assertThat(Files.exists(dir)).isTrue();
  }
}
