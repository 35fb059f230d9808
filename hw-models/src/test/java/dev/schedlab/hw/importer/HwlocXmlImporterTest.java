package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Topology;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hwloc importer maps each hwloc object kind to the group the kernel would use: PUs to CPUs,
 * Core to SMT core, Package to package, the highest data cache to the LLC, a Cluster group or a
 * shared L2 to the cluster, NUMA nodes (memory children in v2, parents in v1) by cpuset, both
 * distance formats, cpukind capacities by the documented precedence, and complete/allowed cpusets
 * to offline/disallowed CPUs. Checked on small hand-written files whose answer is known.
 */
final class HwlocXmlImporterTest {

  /**
   * 2 packages × 2 cores × 2 threads, siblings n and n+4; package 0 = CPUs 0,1,4,5. CPU 8 is in
   * complete_cpuset only (offline); CPU 0 is not allowed. Package 0's cores share an L2 (a
   * cluster); package 1's L2s are private. Node 1's distances are 10/20, and cpukinds say CPUs
   * 2,3,6,7 have capacity 512.
   */
  static final String V2 =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE topology SYSTEM "hwloc2.dtd">
      <topology version="2.0">
        <object type="Machine" os_index="0" cpuset="0x000000ff" complete_cpuset="0x000001ff"
            allowed_cpuset="0x000000fe">
          <info name="OSRelease" value="6.1.0"/>
          <object type="Package" os_index="36" cpuset="0x00000033">
            <info name="CPUModel" value="Test CPU"/>
            <object type="NUMANode" os_index="0" cpuset="0x00000033"/>
            <object type="L3Cache" cpuset="0x00000033" cache_size="1048576" depth="3"
                cache_type="0">
              <object type="L2Cache" cpuset="0x00000033" cache_size="65536" depth="2"
                  cache_type="0">
                <object type="L1iCache" cpuset="0x00000011" depth="1" cache_type="2">
                  <object type="Core" os_index="0" cpuset="0x00000011">
                    <object type="PU" os_index="0" cpuset="0x00000001"/>
                    <object type="PU" os_index="4" cpuset="0x00000010"/>
                  </object>
                </object>
                <object type="Core" os_index="1" cpuset="0x00000022">
                  <object type="PU" os_index="1" cpuset="0x00000002"/>
                  <object type="PU" os_index="5" cpuset="0x00000020"/>
                </object>
              </object>
            </object>
          </object>
          <object type="Package" os_index="8442" cpuset="0x000000cc">
            <object type="NUMANode" os_index="1" cpuset="0x000000cc"/>
            <object type="L3Cache" cpuset="0x000000cc" cache_size="1048576" depth="3"
                cache_type="0">
              <object type="L2Cache" cpuset="0x00000044" depth="2" cache_type="0">
                <object type="Core" os_index="0" cpuset="0x00000044">
                  <object type="PU" os_index="2" cpuset="0x00000004"/>
                  <object type="PU" os_index="6" cpuset="0x00000040"/>
                </object>
              </object>
              <object type="L2Cache" cpuset="0x00000088" depth="2" cache_type="0">
                <object type="Core" os_index="1" cpuset="0x00000088">
                  <object type="PU" os_index="3" cpuset="0x00000008"/>
                  <object type="PU" os_index="7" cpuset="0x00000080"/>
                </object>
              </object>
            </object>
          </object>
          <object type="Bridge" os_index="0"/>
        </object>
        <distances2 type="NUMANode" nbobjs="2" kind="5" name="NUMALatency" indexing="os">
          <indexes length="4">0 1 </indexes>
          <u64values length="12">10 20 20 10 </u64values>
        </distances2>
        <cpukind cpuset="0x000000cc" forced_efficiency="0">
          <info name="LinuxCapacity" value="512"/>
        </cpukind>
        <cpukind cpuset="0x00000033" forced_efficiency="1">
          <info name="LinuxCapacity" value="1024"/>
        </cpukind>
      </topology>
      """;

  /** The same machine in v1 form: NUMANode parents, Cache objects with depth, v1 distances. */
  static final String V1 =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE topology SYSTEM "hwloc.dtd">
      <topology>
        <object type="Machine" os_index="0" cpuset="0x000000ff" complete_cpuset="0x000000ff"
            online_cpuset="0x000000ff" allowed_cpuset="0x000000ff">
          <distances nbobjs="2" relative_depth="1" latency_base="10.000000">
            <latency value="1.000000"/>
            <latency value="3.200000"/>
            <latency value="3.200000"/>
            <latency value="1.000000"/>
          </distances>
          <object type="NUMANode" os_index="0" cpuset="0x00000033">
            <object type="Package" os_index="0" cpuset="0x00000033">
              <object type="Cache" cpuset="0x00000033" depth="3" cache_type="0"
                  cache_size="1048576">
                <object type="Cache" cpuset="0x00000011" depth="2" cache_type="0">
                  <object type="Core" os_index="0" cpuset="0x00000011">
                    <object type="PU" os_index="0" cpuset="0x00000001"/>
                    <object type="PU" os_index="4" cpuset="0x00000010"/>
                  </object>
                </object>
                <object type="Cache" cpuset="0x00000022" depth="2" cache_type="0">
                  <object type="Core" os_index="1" cpuset="0x00000022">
                    <object type="PU" os_index="1" cpuset="0x00000002"/>
                    <object type="PU" os_index="5" cpuset="0x00000020"/>
                  </object>
                </object>
              </object>
            </object>
          </object>
          <object type="NUMANode" os_index="1" cpuset="0x000000cc">
            <object type="Package" os_index="1" cpuset="0x000000cc">
              <object type="Cache" cpuset="0x000000cc" depth="3" cache_type="0">
                <object type="Core" os_index="0" cpuset="0x00000044">
                  <object type="PU" os_index="2" cpuset="0x00000004"/>
                  <object type="PU" os_index="6" cpuset="0x00000040"/>
                </object>
                <object type="Core" os_index="1" cpuset="0x00000088">
                  <object type="PU" os_index="3" cpuset="0x00000008"/>
                  <object type="PU" os_index="7" cpuset="0x00000080"/>
                </object>
              </object>
            </object>
          </object>
        </object>
      </topology>
      """;

  static ImportedTopology parse(String xml, String name) {
    return HwlocXmlImporter.parse(
        new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), name);
  }

  @Test
  void v2_smallMachine_groupsFollowObjects() {
    ImportedTopology t = parse(V2, "small.xml");
    assertThat(t.format()).isEqualTo("hwloc-v2");
    assertThat(t.packageCount()).isEqualTo(2);
    assertThat(t.coreCount()).isEqualTo(4);
    assertThat(t.onlineCount()).isEqualTo(8);
    assertThat(t.cacheCount(3)).isEqualTo(2);
    assertThat(t.threadsPerCore()).containsExactly(Map.entry(2, 4));
    // siblings n / n+4 share a core; core ids restart per package in the file but not here
    assertThat(t.cpu(0).coreId()).isEqualTo(t.cpu(4).coreId());
    assertThat(t.cpu(2).coreId()).isNotEqualTo(t.cpu(0).coreId());
    assertThat(t.cpu(1).packageId())
        .isEqualTo(t.cpu(5).packageId())
        .isNotEqualTo(t.cpu(2).packageId());
  }

  @Test
  void v2_sharedVersusPrivateL2_clusterOnlyWhenShared() {
    ImportedTopology t = parse(V2, "small.xml");
    assertThat(t.cpu(0).clusterId()).isEqualTo(t.cpu(1).clusterId());
    assertThat(t.cpu(2).clusterId()).isNotEqualTo(t.cpu(3).clusterId());
    assertThat(t.clusterCount()).isEqualTo(3);
  }

  @Test
  void v2_memoryChildren_giveNodesByCpuset() {
    ImportedTopology t = parse(V2, "small.xml");
    assertThat(t.nodes()).containsExactly(0, 1);
    assertThat(t.cpu(5).node()).isZero();
    assertThat(t.cpu(6).node()).isEqualTo(1);
    assertThat(t.distance(0, 1)).isEqualTo(20);
    assertThat(t.distance(1, 1)).isEqualTo(10);
  }

  @Test
  void v2_completeAndAllowedCpusets_giveOfflineAndDisallowedCpus() {
    ImportedTopology t = parse(V2, "small.xml");
    assertThat(t.nrCpuIds()).isEqualTo(9);
    assertThat(t.cpu(8).online()).isFalse();
    assertThat(t.cpu(0).allowed()).isFalse();
    assertThat(t.cpu(1).allowed()).isTrue();
  }

  @Test
  void v2_linuxCapacity_givesCapacityPerKind() {
    ImportedTopology t = parse(V2, "small.xml");
    assertThat(t.cpu(3).capacity()).isEqualTo(512);
    assertThat(t.cpu(4).capacity()).isEqualTo(1024);
    assertThat(t.isAsymmetricCapacity()).isTrue();
  }

  @Test
  void v2_frequencyOnlyKinds_giveCapacityRelativeToFastest() {
    String xml =
        V2.replace(
                "<info name=\"LinuxCapacity\" value=\"512\"/>",
                "<info name=\"FrequencyMaxMHz\" value=\"3000\"/>")
            .replace(
                "<info name=\"LinuxCapacity\" value=\"1024\"/>",
                "<info name=\"FrequencyMaxMHz\" value=\"4000\"/>");
    ImportedTopology t = parse(xml, "freq.xml");
    assertThat(t.cpu(2).capacity()).isEqualTo(768); // 1024 × 3000 / 4000
    assertThat(t.cpu(0).capacity()).isEqualTo(1024);
  }

  @Test
  void v2_rankOnlyKinds_useTheAssumedRatioPerRank() {
    String xml =
        V2.replace(
                "<info name=\"LinuxCapacity\" value=\"512\"/>",
                "<info name=\"CoreType\" value=\"IntelAtom\"/>")
            .replace(
                "<info name=\"LinuxCapacity\" value=\"1024\"/>",
                "<info name=\"CoreType\" value=\"IntelCore\"/>");
    ImportedTopology t =
        HwlocXmlImporter.parse(
            new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "rank.xml", 0.5);
    assertThat(t.cpu(2).capacity()).isEqualTo(512);
    assertThat(t.cpu(0).capacity()).isEqualTo(1024);
    assertThat(t.notes()).anyMatch(n -> n.contains("assumed"));
  }

  @Test
  void v2_info_keepsCpuModelAndOsRelease() {
    ImportedTopology t = parse(V2, "small.xml");
    assertThat(t.info()).containsEntry("CPUModel", "Test CPU").containsEntry("OSRelease", "6.1.0");
  }

  @Test
  void v1_nodeParentsAndRelativeDistances_areRead() {
    ImportedTopology t = parse(V1, "v1.xml");
    assertThat(t.format()).isEqualTo("hwloc-v1");
    assertThat(t.nodes()).containsExactly(0, 1);
    assertThat(t.cpu(4).node()).isZero();
    assertThat(t.cpu(7).node()).isEqualTo(1);
    assertThat(t.distance(0, 1)).isEqualTo(32); // 3.2 × latency_base 10
    assertThat(t.cacheCount(3)).isEqualTo(2);
    assertThat(t.coreCount()).isEqualTo(4);
  }

  @Test
  void toTopology_smallMachine_keepsSiblingsNodesAndOfflineCpu() {
    Topology topology = parse(V2, "small.xml").toTopology();
    assertThat(topology.name()).isEqualTo("small");
    assertThat(topology.smtSiblings(4).toCpuList()).isEqualTo("0,4");
    assertThat(topology.nodeMask(1).toCpuList()).isEqualTo("2-3,6-7");
    assertThat(topology.isOnline(8)).isFalse();
    assertThat(topology.isPossible(8)).isTrue();
    assertThat(topology.distance(0, 1)).isEqualTo(20);
    assertThat(topology.capacity(7)).isEqualTo(512);
    // the offline CPU, whose place no source reports, joins LLC 0 (ImportedTopology#toTopology)
    assertThat(topology.llcMask(0).toCpuList()).isEqualTo("0-1,4-5,8");
  }
}
