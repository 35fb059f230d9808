package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Both lscpu layouts, {@code -p} (comma-separated, header in the last comment line, caches as
 * separate columns) and {@code -e} (whitespace table, caches as one {@code L1d:L1i:L2:L3} column,
 * offline rows with {@code -}), give the same machine.
 */
final class LscpuImporterTest {

  /** 2 sockets × 2 cores × SMT2, siblings n / n+4, a node and an L3 per socket. */
  static final String PARSABLE =
      """
      # The following is the parsable format, which can be fed to other
      # programs. Each different item in every column has an unique ID
      # starting usually from zero.
      # CPU,Core,Socket,Node,,L1d,L1i,L2,L3
      0,0,0,0,,0,0,0,0
      1,1,0,0,,1,1,1,0
      2,2,1,1,,2,2,2,1
      3,3,1,1,,3,3,3,1
      4,0,0,0,,0,0,0,0
      5,1,0,0,,1,1,1,0
      6,2,1,1,,2,2,2,1
      7,3,1,1,,3,3,3,1
      """;

  /** 6 CPUs: a P-core pair, then E-cores sharing an L2 at a lower MAXMHZ, CPU 6 offline. */
  static final String TABLE =
      """
      CPU NODE SOCKET CORE L1d:L1i:L2:L3 ONLINE    MAXMHZ    MINMHZ
        0    0      0    0 0:0:0:0          yes 5000.0000 400.0000
        1    0      0    0 0:0:0:0          yes 5000.0000 400.0000
        2    0      0    1 1:1:1:0          yes 3900.0000 400.0000
        3    0      0    2 2:2:1:0          yes 3900.0000 400.0000
        4    0      0    3 3:3:1:0          yes 3900.0000 400.0000
        5    0      0    4 4:4:1:0          yes 3900.0000 400.0000
        6    -      -    - -                 no         -         -
      """;

  @Test
  void parsable_twoSockets_countsAndSiblings() {
    ImportedTopology t = LscpuImporter.parse(PARSABLE, "p.txt");
    assertThat(t.format()).isEqualTo("lscpu");
    assertThat(t.packageCount()).isEqualTo(2);
    assertThat(t.nodeCount()).isEqualTo(2);
    assertThat(t.cacheCount(3)).isEqualTo(2);
    assertThat(t.threadsPerCore()).containsExactly(Map.entry(2, 4));
    assertThat(t.cpu(6).coreId()).isEqualTo(t.cpu(2).coreId());
    assertThat(t.hasDistances()).isFalse();
    assertThat(t.toTopology().distance(0, 1)).isEqualTo(20);
  }

  @Test
  void table_hybrid_offlineRowAndFrequencyCapacity() {
    ImportedTopology t = LscpuImporter.parse(TABLE, "e.txt");
    assertThat(t.onlineCount()).isEqualTo(6);
    assertThat(t.cpu(6).online()).isFalse();
    assertThat(t.coreCount()).isEqualTo(5);
    assertThat(t.cpu(2).capacity()).isEqualTo(799);
    assertThat(t.cpu(1).capacity()).isEqualTo(1024);
    assertThat(t.isAsymmetricCapacity()).isTrue();
  }

  /** "L0" is no cache level: such a column is ignored like any other unknown column. */
  @Test
  void levelZeroCacheColumn_isIgnored() {
    ImportedTopology parsable = LscpuImporter.parse(PARSABLE.replace(",L1i,", ",L0,"), "p.txt");
    assertThat(parsable.onlineCount()).isEqualTo(8);
    assertThat(parsable.cacheCount(3)).isEqualTo(2);
    ImportedTopology table =
        LscpuImporter.parse(TABLE.replace("L1d:L1i:L2:L3", "L1d:L0:L2:L3"), "e.txt");
    assertThat(table.onlineCount()).isEqualTo(6);
    assertThat(table.cpu(2).clusterId()).isEqualTo(table.cpu(5).clusterId());
  }

  @Test
  void table_sharedL2_becomesCluster() {
    ImportedTopology t = LscpuImporter.parse(TABLE, "e.txt");
    assertThat(t.cpu(2).clusterId()).isEqualTo(t.cpu(5).clusterId());
    assertThat(t.cpu(0).clusterId()).isNotEqualTo(t.cpu(2).clusterId());
    assertThat(t.clusterCount()).isEqualTo(2);
  }
}
