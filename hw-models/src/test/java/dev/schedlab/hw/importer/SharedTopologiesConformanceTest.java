package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomainLevel;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SchedGroup;
import dev.schedlab.topology.domain.SdFlags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file of {@code ../shared/topologies/hwloc} and {@code hwloc-derived} imports (hwloc XML
 * v1/v2, sysfs tarballs unpacked with the system {@code tar}) and gives exactly the package, NUMA
 * node, L3, core and PU counts and SMT widths of that directory's README table; the lstopo text
 * files ({@code *.output}) are checked against the same rows through their {@code depth N: count
 * Type} summary. The sched domains built from each import are sane: every CPU's spans contain it
 * and nest up to the whole cpu map, groups of a domain cover its span (disjointly below NUMA), NUMA
 * levels follow the distinct node distances, the Kunpeng dump has 4-CPU CLS domains, and exactly
 * the hybrid, GB10 and Strix Point files have asymmetric capacity. A file without a README row
 * fails, so the table and the directory cannot drift apart.
 */
final class SharedTopologiesConformanceTest {

  /** One README row: counts, threads per core → cores, and the first online CPU's siblings. */
  record Row(
      int packages,
      int nodes,
      int l3,
      int cores,
      int pus,
      Map<Integer, Integer> smt,
      String firstSiblings) {}

  static final Map<String, Row> ROWS = new HashMap<>();

  static {
    ROWS.put("32em64t-2n8c2t-pci-noio", new Row(2, 2, 2, 16, 32, Map.of(2, 16), "0,16"));
    ROWS.put("AMD-17h-Zen-2xEpyc-7451", new Row(2, 8, 16, 48, 96, Map.of(2, 48), "0,48"));
    ROWS.put("AMD-19h-Zen4-2xEpyc-9654", new Row(2, 2, 24, 192, 384, Map.of(2, 192), "0,192"));
    ROWS.put("epyc-corona", new Row(2, 8, 16, 48, 96, Map.of(2, 48), "0,48"));
    ROWS.put("128arm-2pa2n8cluster4co", new Row(2, 4, 4, 128, 128, Map.of(1, 128), "0"));
    ROWS.put("arm64-ulna-hwloc1", new Row(2, 2, 2, 64, 256, Map.of(4, 64), "0,32,64,96"));
    ROWS.put("coral-lassen", new Row(2, 2, 20, 40, 160, Map.of(4, 40), "8-11"));
    ROWS.put("256ppc-8n8s4t", new Row(64, 8, 64, 64, 256, Map.of(4, 64), "0-3"));
    ROWS.put("Intel-RaptorLake-Corei7-1370P", new Row(1, 1, 1, 14, 20, Map.of(2, 6, 1, 8), "0-1"));
    ROWS.put("20em64t-hybrid-1p6c2t+2ca4co1t", new Row(1, 1, 1, 14, 20, Map.of(2, 6, 1, 8), "0-1"));
    ROWS.put("nvidia-dgx-gb10", new Row(1, 1, 2, 20, 20, Map.of(1, 20), "0"));
    ROWS.put(
        "AMD-1Ah-Zen5StrixPoint-RyzenAI9HX370", new Row(1, 1, 2, 12, 24, Map.of(2, 12), "0,12"));
    ROWS.put("192em64t-24n8c2t", new Row(24, 24, 24, 192, 384, Map.of(2, 192), "0,192"));
    ROWS.put("16em64t-4s2c2t-offlines", new Row(4, 1, 4, 7, 12, Map.of(2, 5, 1, 2), "0,8"));
    ROWS.put("offline-cpu0-node0", new Row(2, 1, 2, 17, 17, Map.of(1, 17), "4"));
    ROWS.put("64intel64-3g2n+2n-irregulargroups+pci", new Row(8, 8, 8, 64, 64, Map.of(1, 64), "0"));
    ROWS.put(
        "Intel-KnightsLanding-XeonPhi-7210",
        new Row(1, 1, 0, 64, 256, Map.of(4, 64), "0,64,128,192"));
    ROWS.put("16em64t-4s2c2t", new Row(4, 1, 4, 8, 16, Map.of(2, 8), "0,8"));
    ROWS.put("Intel-Core-2xXeon-E5345", new Row(2, 1, 0, 8, 8, Map.of(1, 8), "0"));
    ROWS.put("96em64t-4n4d3ca2co", new Row(16, 4, 16, 96, 96, Map.of(1, 96), "0"));
  }

  /** Files whose README row says the capacities differ (cpukinds or cpufreq). */
  static final Set<String> ASYMMETRIC =
      Set.of(
          "Intel-RaptorLake-Corei7-1370P",
          "20em64t-hybrid-1p6c2t+2ca4co1t",
          "nvidia-dgx-gb10",
          "AMD-1Ah-Zen5StrixPoint-RyzenAI9HX370");

  @TempDir static Path unpacked;

  /** The README row a file belongs to. */
  static String machineOf(String fileName) {
    String base =
        fileName
            .replace(".tar.bz2", "")
            .replace(".console.output", "")
            .replace(".output", "")
            .replace(".xml", "");
    switch (base) {
      case "16em64t-4s2c2t-offlines-xml":
        return "16em64t-4s2c2t-offlines";
      case "16em64t-4s2c2t-xml":
        return "16em64t-4s2c2t";
      case "96em64t-4n4d3ca2co-pci":
        return "96em64t-4n4d3ca2co";
      default:
        return base;
    }
  }

  private static final String ABSENT =
      "../shared/topologies not found (system property"
          + " schedlab.shared.dir unset or wrong, and no ../shared): skipping the conformance tests";

  @Test
  void sharedTopologies_directory_everyFileHasARowAndEveryRowAFile() throws IOException {
    Optional<Path> dir = SharedTopologies.directory();
    assumeTrue(dir.isPresent(), ABSENT);
    Set<String> covered = new TreeSet<>();
    for (String sub : List.of("hwloc", "hwloc-derived")) {
      for (Path file : SharedTopologies.files(dir.get(), sub)) {
        String machine = machineOf(file.getFileName().toString());
        assertThat(ROWS).as(sub + "/" + file.getFileName()).containsKey(machine);
        covered.add(machine);
      }
    }
    assertThat(covered).containsExactlyInAnyOrderElementsOf(ROWS.keySet());
  }

  @TestFactory
  Stream<DynamicTest> sharedTopologies_everyFile_matchesReadmeTableAndBuildsSaneDomains()
      throws IOException {
    Optional<Path> dir = SharedTopologies.directory();
    assumeTrue(dir.isPresent(), ABSENT);
    List<DynamicTest> tests = new ArrayList<>();
    for (String sub : List.of("hwloc", "hwloc-derived")) {
      for (Path file : SharedTopologies.files(dir.get(), sub)) {
        tests.add(DynamicTest.dynamicTest(sub + "/" + file.getFileName(), () -> check(file)));
      }
    }
    assertThat(tests).hasSizeGreaterThanOrEqualTo(ROWS.size());
    return tests.stream();
  }

  private static void check(Path file) throws IOException {
    String name = file.getFileName().toString();
    String machine = machineOf(name);
    Row row = ROWS.get(machine);
    if (row == null) {
      fail(name + " has no row in the README table of this test; add one");
    }
    if (name.endsWith(".output")) {
      checkSummary(file, row);
      return;
    }
    ImportedTopology imported;
    if (name.endsWith(".xml")) {
      imported = HwlocXmlImporter.read(file);
    } else if (name.endsWith(".tar.bz2")) {
      Optional<Path> root = SharedTopologies.unpack(file, unpacked.resolve(machine));
      assumeTrue(root.isPresent(), "cannot unpack " + name + " (system tar/bzip2 missing?)");
      imported = SysfsImporter.read(root.get());
    } else {
      fail("unexpected file " + name);
      return;
    }
    checkCounts(imported, row);
    Topology topology = imported.toTopology();
    SchedDomains domains = SchedDomains.build(topology);
    checkDomains(machine, topology, domains);
  }

  // --- counts -----------------------------------------------------------------------------------

  private static void checkCounts(ImportedTopology t, Row row) {
    assertThat(t.packageCount()).as("packages").isEqualTo(row.packages());
    assertThat(t.nodeCount()).as("NUMA nodes").isEqualTo(row.nodes());
    assertThat(t.cacheCount(3)).as("L3 caches").isEqualTo(row.l3());
    assertThat(t.coreCount()).as("cores").isEqualTo(row.cores());
    assertThat(t.onlineCount()).as("PUs").isEqualTo(row.pus());
    assertThat(t.threadsPerCore()).as("threads per core -> cores").isEqualTo(row.smt());
    Topology topology = t.toTopology();
    int first = topology.onlineMask().first();
    MutableCpuMask siblings = topology.smtSiblings(first).mutableCopy();
    siblings.andWith(topology.onlineMask());
    assertThat(siblings.toCpuList()).as("siblings of CPU " + first).isEqualTo(row.firstSiblings());
    // the Topology agrees with the importer on the online groups
    assertThat(distinctOnline(topology, topology::packageId)).isEqualTo(row.packages());
    assertThat(distinctOnline(topology, topology::coreId)).isEqualTo(row.cores());
    assertThat(topology.cpuCount()).isEqualTo(row.pus());
  }

  private static int distinctOnline(Topology t, java.util.function.IntUnaryOperator id) {
    Set<Integer> ids = new TreeSet<>();
    ImmutableCpuMask online = t.onlineMask();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      ids.add(id.applyAsInt(cpu));
    }
    return ids.size();
  }

  private static final Pattern DEPTH =
      Pattern.compile("^\\s*(?:Special )?depth -?\\d+:\\s+(\\d+) (\\w+) \\(type #\\d+\\)");

  private static void checkSummary(Path file, Row row) throws IOException {
    Map<String, Integer> count = new HashMap<>();
    for (String line : Files.readAllLines(file)) {
      Matcher m = DEPTH.matcher(line);
      if (m.find()) {
        count.merge(m.group(2), Integer.parseInt(m.group(1)), Integer::sum);
      }
    }
    assertThat(count).as("lstopo summary of " + file.getFileName()).containsKey("PU");
    assertThat(count.getOrDefault("Package", 0)).as("packages").isEqualTo(row.packages());
    assertThat(count.getOrDefault("NUMANode", 0)).as("NUMA nodes").isEqualTo(row.nodes());
    assertThat(count.getOrDefault("L3Cache", 0)).as("L3 caches").isEqualTo(row.l3());
    assertThat(count.getOrDefault("Core", 0)).as("cores").isEqualTo(row.cores());
    assertThat(count.get("PU")).as("PUs").isEqualTo(row.pus());
  }

  // --- domains ----------------------------------------------------------------------------------

  private static void checkDomains(String machine, Topology topology, SchedDomains sd) {
    ImmutableCpuMask cpuMap = sd.cpuMap();
    assertThat(cpuMap.weight()).isEqualTo(topology.cpuCount());
    int[] distinct = distinctDistances(topology);
    assertThat(sd.numaDistances()).as("NUMA distances").containsExactly(distinct);
    for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
      List<SchedDomain> chain = sd.domains(cpu);
      assertThat(chain).as("domains of CPU " + cpu).isNotEmpty();
      int numaLevels = 0;
      for (SchedDomain d : chain) {
        checkDomain(topology, cpuMap, cpu, d);
        if (d.levelKind() == SchedDomainLevel.NUMA) {
          numaLevels++;
        }
      }
      assertThat(numaLevels).isLessThanOrEqualTo(Math.max(0, distinct.length - 1));
      assertThat(chain.get(chain.size() - 1).span()).as("top span of CPU " + cpu).isEqualTo(cpuMap);
    }
    assertThat(sd.hasAsymCpuCapacity())
        .as("asymmetric capacity")
        .isEqualTo(ASYMMETRIC.contains(machine));
    if (machine.equals("nvidia-dgx-gb10")) {
      for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
        assertThat(sd.sdLlc(cpu).hasFlag(SdFlags.SD_ASYM_CPUCAPACITY))
            .as("GB10 LLCs mix big and little cores")
            .isTrue();
      }
    }
    if (machine.equals("128arm-2pa2n8cluster4co")) {
      assertThat(sd.hasClusterDomains()).isTrue();
      for (int cpu = cpuMap.first(); cpu != CpuMask.NO_CPU; cpu = cpuMap.next(cpu)) {
        SchedDomain cls = sd.domains(cpu).get(0);
        assertThat(cls.levelKind()).isEqualTo(SchedDomainLevel.CLS);
        assertThat(cls.spanWeight()).isEqualTo(4);
        assertThat(sd.llcSize(cpu)).isEqualTo(32);
      }
    }
  }

  private static void checkDomain(Topology t, ImmutableCpuMask cpuMap, int cpu, SchedDomain d) {
    String where = "CPU " + cpu + " " + d.name() + " (domain" + d.level() + ")";
    assertThat(d.span().test(cpu)).as(where + " contains its CPU").isTrue();
    assertThat(d.span().isSubsetOf(cpuMap)).as(where + " inside the cpu map").isTrue();
    if (d.child() != null) {
      assertThat(d.child().span().isSubsetOf(d.span())).as(where + " contains its child").isTrue();
    }
    MutableCpuMask union = CpuMasks.mutable(t.nrCpuIds());
    for (SchedGroup g : d.groups()) {
      assertThat(g.span().isSubsetOf(d.span())).as(where + " group inside span").isTrue();
      if (!d.hasOverlappingGroups()) {
        assertThat(union.intersects(g.span())).as(where + " groups disjoint").isFalse();
      }
      union.orWith(g.span());
    }
    assertThat(union.contentEquals(d.span())).as(where + " groups cover the span").isTrue();
    assertThat(d.localGroup().span().test(cpu)).as(where + " local group").isTrue();
    if (d.levelKind() == SchedDomainLevel.NUMA || d.levelKind() == SchedDomainLevel.NODE) {
      MutableCpuMask expected = CpuMasks.mutable(t.nrCpuIds());
      int node = t.nodeOf(cpu);
      for (int c = cpuMap.first(); c != CpuMask.NO_CPU; c = cpuMap.next(c)) {
        if (t.distance(node, t.nodeOf(c)) <= d.distance()) {
          expected.set(c);
        }
      }
      assertThat(d.span().toCpuList())
          .as(where + " = nodes within distance " + d.distance())
          .isEqualTo(expected.toCpuList());
    }
  }

  /** Sorted distinct distances between nodes that have online CPUs. */
  private static int[] distinctDistances(Topology t) {
    Set<Integer> nodes = new TreeSet<>();
    ImmutableCpuMask online = t.onlineMask();
    for (int cpu = online.first(); cpu != CpuMask.NO_CPU; cpu = online.next(cpu)) {
      nodes.add(t.nodeOf(cpu));
    }
    TreeSet<Integer> distances = new TreeSet<>();
    for (int a : nodes) {
      for (int b : nodes) {
        distances.add(t.distance(a, b));
      }
    }
    return distances.stream().mapToInt(Integer::intValue).toArray();
  }
}
