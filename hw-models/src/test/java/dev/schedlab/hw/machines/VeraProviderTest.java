package dev.schedlab.hw.machines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.HardwareModel;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedDomains;
import dev.schedlab.topology.domain.SdFlags;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code hw.vera} is the machine of the ILB thread: 352 CPUs, siblings n and n+176, node 0 =
 * 0-87,176-263; the default (asymmetric firmware) variant sets SD_ASYM_CPUCAPACITY and the equal
 * variant does not; the Olympus qualification rule is on unless turned off, counted at the assumed
 * clock; bad overrides are refused with the parameter named.
 */
final class VeraProviderTest {

  private final VeraProvider provider = new VeraProvider();

  @Test
  void defaults_topology_matchesTheThreadsMachine() {
    Topology t = Machines.create(provider).topology();
    assertThat(t.cpuCount()).isEqualTo(352);
    assertThat(t.coreCount()).isEqualTo(176);
    assertThat(t.smtWidth()).isEqualTo(2);
    for (int n = 0; n < 176; n++) {
      assertThat(t.smtSiblings(n).toCpuList()).isEqualTo(n + "," + (n + 176));
    }
    assertThat(t.nodeMask(0).toCpuList()).isEqualTo("0-87,176-263");
    assertThat(t.nodeMask(1).toCpuList()).isEqualTo("88-175,264-351");
    assertThat(t.packageCount()).isEqualTo(2);
    assertThat(t.llcMask(0)).isEqualTo(t.nodeMask(0));
  }

  @Test
  void defaults_asymmetricFirmware_setsAsymCapacityOnSiblingPairs() {
    Topology t = Machines.create(provider).topology();
    assertThat(t.isAsymmetricCapacity()).isTrue();
    assertThat(t.capacity(1)).isEqualTo(973).isEqualTo(t.capacity(177));
    assertThat(t.capacity(0)).isEqualTo(1024).isEqualTo(t.capacity(176));
    SchedDomains sd = SchedDomains.build(t);
    assertThat(sd.hasAsymCpuCapacity()).isTrue();
    assertThat(sd.levelNames()).containsExactly("SMT", "MC", "NUMA");
  }

  @Test
  void capacityLevels_four_spreadsCoresEvenlyFrom1024DownToTheReducedCapacity() {
    Topology t = Machines.create(provider, Map.of("capacity_levels", "4")).topology();
    // 1024 - 51 * level / 3 for core c at level c mod 4; both siblings of a core alike.
    assertThat(t.capacity(0)).isEqualTo(1024);
    assertThat(t.capacity(1)).isEqualTo(1007).isEqualTo(t.capacity(177));
    assertThat(t.capacity(2)).isEqualTo(990);
    assertThat(t.capacity(3)).isEqualTo(973);
    assertThat(t.capacity(4)).isEqualTo(1024).isEqualTo(t.capacity(180));
    assertThat(t.isAsymmetricCapacity()).isTrue();
  }

  @Test
  void capacityLevels_equalFirmware_ignored() {
    Topology t =
        Machines.create(provider, Map.of("capacity", "equal", "capacity_levels", "8")).topology();
    assertThat(t.isAsymmetricCapacity()).isFalse();
  }

  @Test
  void capacity_equalFirmware_noAsymmetricDomain() {
    Topology t = Machines.create(provider, Map.of("capacity", "equal")).topology();
    assertThat(t.isAsymmetricCapacity()).isFalse();
    SchedDomains sd = SchedDomains.build(t);
    assertThat(sd.hasAsymCpuCapacity()).isFalse();
    for (SchedDomain d : sd.domains(0)) {
      assertThat(d.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY)).isFalse();
    }
  }

  @Test
  void olympusRule_onByDefault_countedAtTheClock() {
    HardwareModel vera = Machines.create(provider);
    assertThat(Machines.model(vera).hasSiblingQualification()).isTrue();
    assertThat(Machines.model(vera).siblingQualification().cycles()).isEqualTo(10_240);
    assertThat(Machines.model(vera).siblingQualification().intervalNs()).isEqualTo(3414);
    HardwareModel at2ghz = Machines.create(provider, Map.of("clock_ghz", "2"));
    assertThat(Machines.model(at2ghz).siblingQualification().intervalNs()).isEqualTo(5120);
    assertThat(at2ghz.facts().clockHz()).isEqualTo(2e9);
  }

  @Test
  void olympusRule_turnedOff_fallsBackToTheGenericRule() {
    HardwareModel vera = Machines.create(provider, Map.of("sibling_idle_qualification", "false"));
    assertThat(Machines.model(vera).hasSiblingQualification()).isFalse();
  }

  @Test
  void reducedCpus_withoutTheirSiblings_areRefused() {
    assertThatThrownBy(() -> Machines.create(provider, Map.of("reduced_capacity_cpus", "0-3")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reduced_capacity_cpus has CPU 0 but not its SMT sibling 176");
  }

  @Test
  void llcsPerSocket_notDividing88_isRefused() {
    assertThatThrownBy(() -> Machines.create(provider, Map.of("llcs_per_socket", "3")))
        .hasMessageContaining("llcs_per_socket=3");
    assertThat(Machines.create(provider, Map.of("llcs_per_socket", "4")).topology().llcCount())
        .isEqualTo(8);
  }

  @Test
  void facts_defaults_stateTheirAssumptions() {
    HardwareModel vera = Machines.create(provider);
    assertThat(vera.facts().flopPerCycle()).isEqualTo(24);
    assertThat(vera.facts().memoryBandwidthPerNode()).isEqualTo(1.2e12);
    assertThat(vera.facts().notes()).contains("assumptions");
  }
}
