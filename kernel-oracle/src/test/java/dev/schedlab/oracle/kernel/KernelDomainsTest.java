package dev.schedlab.oracle.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.oracle.guest.TarArchive;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guest's domains parse from a real capture: Linux 6.1 on four single-socket nodes in a ring
 * (distances 10/20/30), booted by the oracle: two NUMA levels, the upper one with overlapping
 * groups and balance masks.
 */
final class KernelDomainsTest {

  static TarArchive ring() throws IOException {
    try (InputStream in =
        KernelDomainsTest.class.getResourceAsStream("/dev/schedlab/oracle/ring4-guest.tar.gz")) {
      return TarArchive.readGzip(in.readAllBytes());
    }
  }

  @Test
  void read_ringCapture_givesNamesSpansFlagsGroupsAndTunables() throws IOException {
    KernelDomains domains = KernelDomains.read(ring());
    assertThat(domains.errors()).isEmpty();
    assertThat(domains.byCpu()).hasSize(8);
    List<DomainView> cpu0 = domains.byCpu().get(0);
    assertThat(cpu0).extracting(DomainView::name).containsExactly("MC", "NUMA", "NUMA");
    assertThat(cpu0).extracting(DomainView::span).containsExactly("0-1", "0-3,6-7", "0-7");
    assertThat(cpu0.get(0).flags()).contains("SD_SHARE_PKG_RESOURCES").doesNotContain("SD_NUMA");
    assertThat(cpu0.get(2).flags()).contains("SD_NUMA", "SD_OVERLAP", "SD_SERIALIZE");
    assertThat(cpu0.get(2).groups())
        .containsExactly(
            new DomainView.GroupView("0-3,6-7", "0-1"), new DomainView.GroupView("2-7", "4-5"));
    assertThat(cpu0.get(1).groups()).hasSize(3);
    assertThat(cpu0.get(0).tunables())
        .containsEntry("min_interval", 2)
        .containsEntry("max_interval", 4)
        .containsEntry("imbalance_pct", 117);
  }

  @Test
  void read_groupListSplitOverTwoRecords_keepsEveryGroup() {
    String dmesg =
        String.join(
            "\n",
            "[    1.0] CPU3 attaching sched-domain(s):",
            "[    1.0]  domain-0: span=0-3 level=MC",
            "[    1.0]   groups: 3:{ span=3 }, 0:{ span=0 },",
            "[    1.0]  1:{ span=1 }, 2:{ span=2 }",
            "[    1.0] CPU4 attaching NULL sched-domain.");
    TarArchive archive =
        TarArchive.read(
            TarArchive.write(
                java.util.Map.of(
                    "dmesg.txt", dmesg.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    KernelDomains domains = KernelDomains.read(archive);
    assertThat(domains.byCpu().get(3).get(0).groups())
        .extracting(DomainView.GroupView::span)
        .containsExactly("3", "0", "1", "2");
    assertThat(domains.byCpu().get(4)).isEmpty();
  }

  @Test
  void cpuList_hexAndListForms_agree() {
    assertThat(CpuList.format(CpuList.parseHex("00000001,0000f00f"))).isEqualTo("0-3,12-15,32");
    assertThat(CpuList.normalise("0,1,2,5")).isEqualTo("0-2,5");
  }
}
