package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ImmutableCpuMask;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.hw.importer.SharedTopologies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real-topology conformance through the command line's own code path (issue 8): every hwloc XML of
 * {@code ../shared/topologies/hwloc} and {@code hwloc-derived}, and every sysfs dump there
 * (unpacked with the system {@code tar}), goes through {@code schedlab topology --hwloc FILE} or
 * {@code --sysfs DIR --format json} exactly as a user runs it ({@code Main.run} through {@link
 * Invocation}). The printed counts must equal the directory README's table, which this test parses
 * (so a file without a row, or a row the CLI disagrees with, fails), and the printed sched domains
 * must be sane: every span lies in the cpu map, spans of a level below NUMA are disjoint and cover
 * the CPUs having the level, each span lies inside a span of the next level up, the top level
 * covers the cpu map, the shown domain's groups cover its span, and capacity asymmetry is reported
 * for exactly the hybrid, GB10 and Strix Point files. The importers' own detailed checks are
 * hw-models' {@code SharedTopologiesConformanceTest}; this one proves the CLI path reports the same
 * machines. Skips, saying why, when {@code ../shared} is absent.
 */
final class RealTopologyCliIT {

  @TempDir static Path unpacked;

  /** One README row: the counts the CLI must print. {@code l3} 0 means the LLC is an L2. */
  record Row(int packages, int nodes, int l3, int cores, int pus, int smt) {}

  @TestFactory
  Stream<DynamicTest> everySharedTopologyThroughTheCli() throws IOException {
    Path topologies = sharedTopologies();
    Map<String, Row> rows = readme(topologies.resolve("README.md"));
    assertThat(rows).as("README table rows").hasSizeGreaterThanOrEqualTo(20);
    List<Path> files = new ArrayList<>();
    for (String sub : List.of("hwloc", "hwloc-derived")) {
      SharedTopologies.files(topologies, sub).stream()
          .filter(p -> p.toString().endsWith(".xml") || p.toString().endsWith(".tar.bz2"))
          .forEach(files::add);
    }
    assertThat(files).as("topology files").hasSizeGreaterThanOrEqualTo(24);
    return files.stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    topologies.relativize(file).toString(), () -> check(file, rows)));
  }

  @Test
  void aTruncatedXmlIsOneLineAndExitCode2() throws IOException {
    Path topologies = sharedTopologies();
    String xml = Files.readString(topologies.resolve("hwloc/32em64t-2n8c2t-pci-noio.xml"));
    Path truncated = unpacked.resolve("truncated.xml");
    Files.writeString(truncated, xml.substring(0, xml.length() / 2));
    Invocation.of("topology", "--hwloc", truncated.toString(), "--format", "json")
        .assertBadInput("truncated.xml");
  }

  private static void check(Path file, Map<String, Row> rows) {
    String name = file.getFileName().toString();
    Row row = rows.get(key(name));
    assertThat(row).as("README row for " + name).isNotNull();
    Invocation r;
    if (name.endsWith(".tar.bz2")) {
      Optional<Path> root = SharedTopologies.unpack(file, unpacked);
      assumeTrue(root.isPresent(), "cannot unpack " + name + " (system tar/bzip2 missing?)");
      r = Invocation.of("topology", "--sysfs", root.get().toString(), "--format", "json");
    } else {
      r = Invocation.of("topology", "--hwloc", file.toString(), "--format", "json");
    }
    r.assertOk();
    Map<String, Object> json = JsonParser.object(r.out());
    assertThat(number(json, "packages")).as("packages").isEqualTo(row.packages());
    assertThat(number(json, "numa_nodes")).as("NUMA nodes").isEqualTo(row.nodes());
    if (row.l3() > 0) {
      assertThat(number(json, "llcs")).as("LLCs = L3 caches").isEqualTo(row.l3());
    }
    assertThat(number(json, "cores")).as("cores").isEqualTo(row.cores());
    assertThat(number(json, "cpus")).as("PUs").isEqualTo(row.pus());
    assertThat(number(json, "smt")).as("SMT width").isEqualTo(row.smt());
    boolean asymmetric =
        name.contains("RaptorLake")
            || name.contains("hybrid")
            || name.contains("gb10")
            || name.contains("StrixPoint");
    assertThat(json.get("asymmetric_capacity")).as("asymmetric capacity").isEqualTo(asymmetric);
    checkDomains(json);
  }

  @SuppressWarnings("unchecked")
  private static void checkDomains(Map<String, Object> json) {
    int nrCpuIds = number(json, "nr_cpu_ids");
    ImmutableCpuMask cpuMap = mask(nrCpuIds, (String) json.get("cpu_map"));
    assertThat(cpuMap.toCpuList())
        .as("cpu map = online CPUs (no isolation)")
        .isEqualTo(json.get("online"));
    List<Map<String, Object>> levels = (List<Map<String, Object>>) json.get("domains");
    assertThat(levels).as("domain levels").isNotEmpty();
    List<List<ImmutableCpuMask>> spansByLevel = new ArrayList<>();
    List<ImmutableCpuMask> levelCpus = new ArrayList<>();
    for (Map<String, Object> level : levels) {
      String levelName = (String) level.get("name");
      boolean numa = levelName.startsWith("NUMA");
      ImmutableCpuMask cpus = mask(nrCpuIds, (String) level.get("cpus"));
      List<ImmutableCpuMask> spans = new ArrayList<>();
      MutableCpuMask union = CpuMasks.mutable(nrCpuIds);
      for (Object s : (List<Object>) level.get("spans")) {
        ImmutableCpuMask span = mask(nrCpuIds, (String) s);
        assertThat(span.isSubsetOf(cpuMap)).as(levelName + " span " + s + " in cpu map").isTrue();
        if (!numa) {
          assertThat(span.intersects(union)).as(levelName + " spans disjoint: " + s).isFalse();
        }
        union.orWith(span);
        spans.add(span);
      }
      assertThat(cpus.isSubsetOf(union)).as(levelName + " spans cover its CPUs").isTrue();
      ImmutableCpuMask shownSpan = mask(nrCpuIds, (String) level.get("span"));
      assertThat(number(level, "span_weight")).isEqualTo(shownSpan.weight());
      MutableCpuMask groups = CpuMasks.mutable(nrCpuIds);
      for (Object g : (List<Object>) level.get("groups")) {
        ImmutableCpuMask group = mask(nrCpuIds, (String) g);
        if (!numa) {
          assertThat(group.intersects(groups)).as(levelName + " groups disjoint").isFalse();
        }
        groups.orWith(group);
      }
      assertThat(groups.contentEquals(shownSpan)).as(levelName + " groups cover the span").isTrue();
      spansByLevel.add(spans);
      levelCpus.add(cpus);
    }
    // A level may exist on some CPUs only (hybrid parts: CLS over the E-cores), so a span's
    // parent is the next level up that its CPUs have, not the next level of the list.
    for (int i = 0; i + 1 < spansByLevel.size(); i++) {
      for (ImmutableCpuMask span : spansByLevel.get(i)) {
        int cpu = span.first();
        int parent = i + 1;
        while (parent < levelCpus.size() && !levelCpus.get(parent).test(cpu)) {
          parent++;
        }
        if (parent == levelCpus.size()) {
          continue;
        }
        boolean nested = spansByLevel.get(parent).stream().anyMatch(span::isSubsetOf);
        assertThat(nested)
            .as(
                levels.get(i).get("name")
                    + " span "
                    + span.toCpuList()
                    + " inside a span of "
                    + levels.get(parent).get("name"))
            .isTrue();
      }
    }
    MutableCpuMask top = CpuMasks.mutable(nrCpuIds);
    spansByLevel.get(spansByLevel.size() - 1).forEach(top::orWith);
    assertThat(top.contentEquals(cpuMap)).as("top level covers the cpu map").isTrue();
  }

  // --- the README table -------------------------------------------------------------------------

  private static final Pattern FIRST_FILE = Pattern.compile("`([^`]+)`");
  private static final Pattern INT = Pattern.compile("\\d+");
  private static final Pattern THREADS = Pattern.compile("×\\s*(\\d+)");

  /** The table's rows keyed by machine ({@link #key}). */
  static Map<String, Row> readme(Path readme) throws IOException {
    Map<String, Row> rows = new HashMap<>();
    for (String line : Files.readAllLines(readme, StandardCharsets.UTF_8)) {
      if (!line.startsWith("| `")) {
        continue;
      }
      String[] cells = line.split("\\|");
      Matcher m = FIRST_FILE.matcher(cells[1]);
      assertThat(m.find()).as("file in " + line).isTrue();
      String file = m.group(1);
      rows.put(
          key(file.substring(file.lastIndexOf('/') + 1)),
          new Row(
              firstInt(cells[3]),
              firstInt(cells[4]),
              firstInt(cells[5]),
              firstInt(cells[6]),
              firstInt(cells[7]),
              smt(cells[8])));
    }
    return rows;
  }

  /** {@code hwloc/X-xml.xml}, {@code X.tar.bz2} and {@code hwloc-derived/X.xml} all give X. */
  static String key(String fileName) {
    String k = fileName.replaceFirst("\\.(xml|tar\\.bz2)$", "");
    return k.endsWith("-xml") ? k.substring(0, k.length() - 4) : k;
  }

  private static int firstInt(String cell) {
    Matcher m = INT.matcher(cell);
    assertThat(m.find()).as("number in " + cell).isTrue();
    return Integer.parseInt(m.group());
  }

  /** "2 (i,i+16)" → 2; "mixed: 5 cores × 2, 2 cores × 1" → 2; "2 / 1" → 2. */
  private static int smt(String cell) {
    Matcher m = THREADS.matcher(cell);
    int max = 0;
    while (m.find()) {
      max = Math.max(max, Integer.parseInt(m.group(1)));
    }
    return max > 0 ? max : firstInt(cell);
  }

  // --- plumbing ---------------------------------------------------------------------------------

  private static int number(Map<String, Object> json, String field) {
    Object v = json.get(field);
    assertThat(v).as(field).isInstanceOf(Double.class);
    double d = (Double) v;
    assertThat(d).as(field + " is an integer").isEqualTo(Math.rint(d));
    return (int) d;
  }

  private static ImmutableCpuMask mask(int nrCpuIds, String cpulist) {
    return CpuMasks.parseCpuList(cpulist, nrCpuIds);
  }

  static Path sharedTopologies() {
    Optional<Path> dir = SharedTopologies.directory();
    assumeTrue(
        dir.isPresent(),
        "../shared/topologies not found (system property "
            + "schedlab.shared.dir): real-topology conformance through the CLI skipped");
    return dir.get();
  }
}
