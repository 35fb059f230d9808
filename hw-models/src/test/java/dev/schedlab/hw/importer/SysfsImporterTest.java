package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Topology;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sysfs importer builds groups from the kernel's masks (not its id numbers), keeps offline CPUs
 * as offline, reads node distances and capacities, ignores instruction caches, and accepts a
 * gathered dump whose {@code sys/} sits one level down.
 */
final class SysfsImporterTest {

  @TempDir Path dir;

  /** 2 packages × 2 cores × SMT2 (siblings n, n+4), CPU 8 offline, nodes per package. */
  private SysfsTree twoSockets(Path root) {
    SysfsTree tree = new SysfsTree(root);
    for (int cpu = 0; cpu < 8; cpu++) {
      int core = cpu % 4;
      String siblings = core + "," + (core + 4);
      String pkg = core < 2 ? "0-1,4-5" : "2-3,6-7";
      tree.cpu(cpu, siblings, pkg)
          .cache(cpu, 0, 1, "Data", siblings, "32K")
          .cache(cpu, 1, 1, "Instruction", siblings, "32K")
          .cache(cpu, 2, 2, "Unified", siblings, "1024K")
          .cache(cpu, 3, 3, "Unified", pkg, "32768K")
          .write("devices/system/cpu/cpu" + cpu + "/cpu_capacity", core < 2 ? "1024" : "512");
    }
    tree.write("devices/system/cpu/cpu8/online", "0");
    tree.write("devices/system/cpu/online", "0-7");
    tree.node(0, "0-1,4-5", "10 21").node(1, "2-3,6-7", "21 10");
    return tree;
  }

  @Test
  void read_twoSockets_groupsFollowMasks() {
    ImportedTopology t = SysfsImporter.read(twoSockets(dir).root);
    assertThat(t.format()).isEqualTo("sysfs");
    assertThat(t.packageCount()).isEqualTo(2);
    assertThat(t.coreCount()).isEqualTo(4);
    assertThat(t.onlineCount()).isEqualTo(8);
    assertThat(t.threadsPerCore()).containsExactly(Map.entry(2, 4));
    assertThat(t.cacheCount(3)).isEqualTo(2);
    assertThat(t.cacheCount(1)).as("instruction caches are not kept").isEqualTo(4);
    assertThat(t.cpu(1).coreId()).isEqualTo(t.cpu(5).coreId());
    assertThat(t.cpu(1).llcId()).isEqualTo(t.cpu(4).llcId()).isNotEqualTo(t.cpu(2).llcId());
  }

  @Test
  void read_twoSockets_offlineCpuKnownButOffline() {
    ImportedTopology t = SysfsImporter.read(twoSockets(dir).root);
    assertThat(t.nrCpuIds()).isEqualTo(9);
    assertThat(t.cpu(8).online()).isFalse();
    assertThat(t.cpu(8).coreId()).isEqualTo(-1);
  }

  @Test
  void read_twoSockets_nodesDistancesAndCapacity() {
    ImportedTopology t = SysfsImporter.read(twoSockets(dir).root);
    assertThat(t.nodes()).containsExactly(0, 1);
    assertThat(t.cpu(6).node()).isEqualTo(1);
    assertThat(t.distance(1, 0)).isEqualTo(21);
    assertThat(t.cpu(3).capacity()).isEqualTo(512);
    assertThat(t.cpu(0).capacity()).isEqualTo(1024);
  }

  @Test
  void read_gatheredDump_acceptsSysOneLevelDown() {
    twoSockets(dir.resolve("dump/sys"));
    assertThat(SysfsImporter.read(dir.resolve("dump")).onlineCount()).isEqualTo(8);
  }

  @Test
  void read_noCapacityButDifferentMaxFrequency_scalesByFrequency() {
    SysfsTree tree = new SysfsTree(dir);
    for (int cpu = 0; cpu < 4; cpu++) {
      tree.cpu(cpu, Integer.toString(cpu), "0-3")
          .write(
              "devices/system/cpu/cpu" + cpu + "/cpufreq/cpuinfo_max_freq",
              cpu < 2 ? "5000000" : "3900000");
    }
    ImportedTopology t = SysfsImporter.read(tree.root);
    assertThat(t.cpu(2).capacity()).isEqualTo(799); // round(1024 × 3.9 / 5.0)
    assertThat(t.cpu(0).capacity()).isEqualTo(1024);
  }

  @Test
  void read_packageIdMinusOne_packagesStillSeparatedByMask() {
    // POWER LPARs print physical_package_id -1; the masks still tell packages apart
    SysfsTree tree = new SysfsTree(dir);
    for (int cpu = 0; cpu < 8; cpu++) {
      String core = cpu < 4 ? "0-3" : "4-7";
      tree.cpu(cpu, core, core)
          .write("devices/system/cpu/cpu" + cpu + "/topology/physical_package_id", "-1");
    }
    ImportedTopology t = SysfsImporter.read(tree.root);
    assertThat(t.packageCount()).isEqualTo(2);
    assertThat(t.smtWidth()).isEqualTo(4);
  }

  @Test
  void read_hexMapsOnly_areParsed() {
    SysfsTree tree = new SysfsTree(dir);
    for (int cpu = 0; cpu < 2; cpu++) {
      String t = "devices/system/cpu/cpu" + cpu + "/topology/";
      tree.write(t + "thread_siblings", "00000000,00000003");
      tree.write(t + "core_siblings", "00000000,00000003");
    }
    ImportedTopology t = SysfsImporter.read(tree.root);
    assertThat(t.coreCount()).isEqualTo(1);
    assertThat(t.smtWidth()).isEqualTo(2);
  }

  @Test
  void read_noNodeDirectories_assumesNodeZero() {
    SysfsTree tree = new SysfsTree(dir).cpu(0, "0", "0-1").cpu(1, "1", "0-1");
    ImportedTopology t = SysfsImporter.read(tree.root);
    assertThat(t.nodes()).containsExactly(0);
    assertThat(t.notes()).anyMatch(n -> n.contains("node 0 assumed"));
  }

  @Test
  void toTopology_twoSockets_matchesTheMasks() {
    Topology topology = SysfsImporter.read(twoSockets(dir).root).toTopology();
    assertThat(topology.smtSiblings(2).toCpuList()).isEqualTo("2,6");
    // the offline CPU joins the lowest node (ImportedTopology#toTopology)
    assertThat(topology.nodeMask(0).toCpuList()).isEqualTo("0-1,4-5,8");
    assertThat(topology.distance(0, 1)).isEqualTo(21);
    assertThat(topology.isOnline(8)).isFalse();
  }
}
