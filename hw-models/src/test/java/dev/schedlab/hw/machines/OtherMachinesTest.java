package dev.schedlab.hw.machines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.HardwareModel;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SdFlags;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The non-Vera machines have the shapes their sources give (Altra 80 cores without SMT; Hygon 384
 * CPUs SMT2 with a private L3 per die and a node per die or per socket; Xeon 2 × 16 × SMT2; POWER
 * SMT4/SMT8 with adjacent siblings) and refuse parameter combinations that cannot be built.
 */
final class OtherMachinesTest {

  @Test
  void altra_defaults_80CoresNoSmtOneNodeAndClusterSizedLlc() {
    Topology t = Machines.create(new AltraProvider()).topology();
    assertThat(t.cpuCount()).isEqualTo(80);
    assertThat(t.isSmt()).isFalse();
    assertThat(t.nodeCount()).isEqualTo(1);
    assertThat(t.llcMask(5).toCpuList()).isEqualTo("4-5");
    assertThat(SchedDomains.build(t).levelNames()).doesNotContain("SMT").contains("MC");
  }

  @Test
  void altra_llcCores_wholeChipAndNonDivisor() {
    assertThat(
            Machines.create(new AltraProvider(), Map.of("llc_cores", "80")).topology().llcCount())
        .isEqualTo(1);
    assertThatThrownBy(() -> Machines.create(new AltraProvider(), Map.of("llc_cores", "3")))
        .hasMessageContaining("llc_cores=3");
  }

  @Test
  void hygon_perDie_384CpusPrivateL3PerDieNodePerDie() {
    HardwareModel m = Machines.create(new Hygon7447vProvider());
    Topology t = m.topology();
    assertThat(t.cpuCount()).isEqualTo(384);
    assertThat(t.smtSiblings(7).toCpuList()).isEqualTo("7,199");
    assertThat(t.nodeCount()).isEqualTo(8);
    assertThat(t.llcCount()).isEqualTo(8);
    assertThat(t.llcMask(0).toCpuList()).isEqualTo("0-23,192-215");
    assertThat(t.llcMask(0).intersects(t.llcMask(24))).isFalse();
    assertThat(t.distance(0, 1)).isEqualTo(16);
    // Hygon C86 7280 SLIT: die d is linked to die (d + 2) mod 4 of the other socket (22).
    assertThat(t.distance(0, 6)).isEqualTo(22);
    assertThat(t.distance(6, 0)).isEqualTo(22);
    assertThat(t.distance(2, 4)).isEqualTo(22);
    assertThat(t.distance(3, 5)).isEqualTo(22);
    assertThat(t.distance(0, 4)).isEqualTo(28);
    assertThat(t.distance(5, 2)).isEqualTo(28);
    assertThat(SchedDomains.build(t).numaDistances()).containsExactly(10, 16, 22, 28);
    // All at most RECLAIM_DISTANCE (30): every level of CPU 0 keeps fork balancing.
    assertThat(SchedDomains.build(t).domains(0))
        .allSatisfy(sd -> assertThat(sd.flags() & SdFlags.SD_BALANCE_FORK).isNotZero());
    Topology amd =
        Machines.create(
                new Hygon7447vProvider(),
                Map.of("remote_distance", "32", "peer_die_distance", "32"))
            .topology();
    assertThat(SchedDomains.build(amd).numaDistances()).containsExactly(10, 16, 32);
    assertThat(
            SchedDomains.build(amd).domains(0).stream()
                .filter(sd -> (sd.flags() & SdFlags.SD_BALANCE_FORK) == 0))
        .hasSize(1);
    assertThat(m.facts().memoryBandwidthPerNode())
        .isEqualTo(204.8e9 / 4, org.assertj.core.api.Assertions.within(1.0));
  }

  @Test
  void hygon_perSocket_twoNodesEachHoldingFourPrivateL3s() {
    HardwareModel m = Machines.create(new Hygon7447vProvider(), Map.of("numa", "per-socket"));
    Topology t = m.topology();
    assertThat(t.nodeCount()).isEqualTo(2);
    assertThat(t.llcCount()).isEqualTo(8);
    assertThat(SchedDomains.build(t).levelNames()).containsExactly("SMT", "MC", "PKG", "NUMA");
    assertThat(m.facts().memoryBandwidthPerNode())
        .isEqualTo(204.8e9, org.assertj.core.api.Assertions.within(1.0));
  }

  @Test
  void hygon_diesNotSplittingTheCores_areRefused() {
    assertThatThrownBy(
            () -> Machines.create(new Hygon7447vProvider(), Map.of("dies_per_socket", "5")))
        .hasMessageContaining("do not split the 192 cores");
  }

  @Test
  void xeon_defaults_twoSocketsSiblingsNPlus32() {
    Topology t = Machines.create(new Xeon2sProvider()).topology();
    assertThat(t.cpuCount()).isEqualTo(64);
    assertThat(t.smtSiblings(3).toCpuList()).isEqualTo("3,35");
    assertThat(t.nodeMask(1).toCpuList()).isEqualTo("16-31,48-63");
    assertThat(t.distance(0, 1)).isEqualTo(21);
  }

  @Test
  void power_smt4AndSmt8_adjacentSiblings() {
    Topology smt4 = Machines.create(new PowerSmt4Provider()).topology();
    assertThat(smt4.smtWidth()).isEqualTo(4);
    assertThat(smt4.smtSiblings(5).toCpuList()).isEqualTo("4-7");
    assertThat(smt4.llcMask(0).toCpuList()).isEqualTo("0-7");
    Topology smt8 = Machines.create(new PowerSmt8Provider()).topology();
    assertThat(smt8.smtWidth()).isEqualTo(8);
    assertThat(smt8.smtSiblings(9).toCpuList()).isEqualTo("8-15");
    assertThat(SchedDomains.build(smt8).levelNames()).startsWith("SMT");
  }

  @Test
  void power_llcCoresNotDividingCores_isRefused() {
    assertThatThrownBy(
            () ->
                Machines.create(
                    new PowerSmt4Provider(), Map.of("cores_per_socket", "6", "llc_cores", "4")))
        .hasMessageContaining("llc_cores=4 does not divide cores_per_socket=6");
  }

  @Test
  void shape_string_buildsThatMachine() {
    Topology t =
        Machines.create(new ShapeProvider(), Map.of("shape", "1n2l4c4t", "numbering", "adjacent"))
            .topology();
    assertThat(t.cpuCount()).isEqualTo(32);
    assertThat(t.smtSiblings(0).toCpuList()).isEqualTo("0-3");
    assertThat(t.llcCount()).isEqualTo(2);
  }

  @Test
  void shape_badString_isRefusedNamingTheProvider() {
    assertThatThrownBy(() -> Machines.create(new ShapeProvider(), Map.of("shape", "2x")))
        .hasMessageStartingWith("hw.shape: invalid shape \"2x\"");
  }
}
