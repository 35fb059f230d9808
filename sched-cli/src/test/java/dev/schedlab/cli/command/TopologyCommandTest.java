package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code topology} reports a machine's counts and its sched domains from every source (built-in
 * machine, shape, hwloc XML), honours the isolation options, and refuses bad sources with one line
 * and exit 2.
 */
final class TopologyCommandTest {

  @TempDir Path dir;

  @Test
  @SuppressWarnings("unchecked")
  void shape_json_countsAndDomainsFollowTheShape() {
    Map<String, Object> json =
        JsonParser.object(
            Invocation.of("topology", "--shape", "1n2l4c2t", "--format", "json").assertOk().out());
    assertThat(json)
        .containsEntry("packages", 1.0)
        .containsEntry("numa_nodes", 1.0)
        .containsEntry("llcs", 2.0)
        .containsEntry("cores", 8.0)
        .containsEntry("cpus", 16.0)
        .containsEntry("smt", 2.0);
    List<Map<String, Object>> domains = (List<Map<String, Object>>) json.get("domains");
    assertThat(domains).extracting(d -> d.get("name")).startsWith("SMT", "MC");
    Map<String, Object> smt = domains.get(0);
    // Split numbering: CPU n and n + 8 are siblings.
    assertThat(smt).containsEntry("span", "0,8").containsEntry("imbalance_pct", 110.0);
    assertThat((List<String>) smt.get("spans")).hasSize(8).contains("7,15");
    assertThat((String) smt.get("flags")).contains("SD_SHARE_CPUCAPACITY");
    Map<String, Object> mc = domains.get(1);
    assertThat((List<String>) mc.get("spans")).containsExactly("0-3,8-11", "4-7,12-15");
    assertThat((List<String>) mc.get("groups")).hasSize(4);
  }

  @Test
  void adjacentSiblings_pairNeighbours() {
    assertThat(
            Invocation.of("topology", "--shape", "1n1l4c2t", "--siblings", "adjacent")
                .assertOk()
                .out())
        .contains("span 0-1 (2 CPUs)");
  }

  @Test
  void builtInVera_text_showsNodesAndNumaLevel() {
    String out = Invocation.of("topology", "--machine", "hw.vera").assertOk().out();
    assertThat(out)
        .contains("2 packages, 2 NUMA nodes", "176 cores, 352 CPUs, SMT2")
        .contains("node 0: CPUs 0-87,176-263")
        .contains("span 0,176 (2 CPUs)")
        .contains("NUMA");
  }

  @Test
  @SuppressWarnings("unchecked")
  void isolcpusDomain_removesCpusFromTheDomains() {
    Map<String, Object> json =
        JsonParser.object(
            Invocation.of(
                    "topology",
                    "--shape",
                    "1n1l4c1t",
                    "--isolcpus",
                    "domain,3",
                    "--nohz-full",
                    "2-3",
                    "--format",
                    "json")
                .assertOk()
                .out());
    assertThat(json).containsEntry("cpu_map", "0-2").containsEntry("housekeeping", "0-1");
    assertThat((List<Map<String, Object>>) json.get("domains"))
        .first()
        .extracting(d -> d.get("span"))
        .isEqualTo("0-2");
  }

  @Test
  @SuppressWarnings("unchecked")
  void hwlocExport_importedWithItsCounts() {
    Path file = sharedTopology("hwloc/32em64t-2n8c2t-pci-noio.xml");
    Map<String, Object> json =
        JsonParser.object(
            Invocation.of("topology", "--hwloc", file.toString(), "--format", "json")
                .assertOk()
                .out());
    assertThat(json)
        .containsEntry("packages", 2.0)
        .containsEntry("numa_nodes", 2.0)
        .containsEntry("cores", 16.0)
        .containsEntry("cpus", 32.0)
        .containsEntry("smt", 2.0);
    assertThat((List<Map<String, Object>>) json.get("domains"))
        .extracting(d -> d.get("name"))
        .contains("SMT", "NUMA");
  }

  @Test
  void malformedXml_oneLineNamingTheFile_exitTwo() throws IOException {
    Path bad = Files.writeString(dir.resolve("broken.xml"), "<topology><object type=");
    Invocation.of("topology", "--hwloc", bad.toString()).assertBadInput("broken.xml");
  }

  @Test
  void missingFile_oneLine_exitTwo() {
    Invocation.of("topology", "--lscpu", dir.resolve("nope.txt").toString())
        .assertBadInput("nope.txt", "no such file");
  }

  @Test
  void badShape_oneLineWithTheGrammar_exitTwo() {
    Invocation.of("topology", "--shape", "2x4c").assertBadInput("2x4c", "e.g. 2n4l8c2t");
  }

  @Test
  void unknownMachine_suggestsTheNearestId() {
    Invocation.of("topology", "--machine", "hw.vra").assertBadInput("did you mean 'hw.vera'?");
  }

  @Test
  void machineParameterOutOfRange_namesTheRange() {
    Invocation.of("topology", "--machine", "hw.vera", "-M", "clock_ghz=9999")
        .assertBadInput("clock_ghz=9999", "allowed");
  }

  @Test
  void twoSources_refusedAsMutuallyExclusive() {
    Invocation.of("topology", "--machine", "hw.vera", "--shape", "1n1l2c1t")
        .assertBadInput("mutually exclusive");
  }

  @Test
  void noSource_refusedNamingTheChoices() {
    Invocation.of("topology").assertBadInput("--machine", "--hwloc", "--shape");
  }

  @Test
  void machineParameterWithoutMachine_refused() {
    Invocation.of("topology", "--shape", "1n1l2c1t", "-M", "x=1").assertBadInput("-M");
  }

  @Test
  void badNohzFullList_oneLineWithAllowedForm_exitTwo() {
    Invocation.of("topology", "--shape", "1n1l4c1t", "--nohz-full", "1-9")
        .assertBadInput("nohz_full=1-9");
  }

  private static Path sharedTopology(String relative) {
    String shared = System.getProperty("schedlab.shared.dir", "../../shared");
    Path file = Path.of(shared, "topologies", relative);
    assumeTrue(Files.isRegularFile(file), "shared topologies not present: " + file);
    return file;
  }
}
