package dev.schedlab.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code nohz_full=} and {@code isolcpus=} remove CPUs from the housekeeping types the kernel says
 * (nohz: KERNEL_NOISE, domain or no flags: DOMAIN, managed_irq: MANAGED_IRQ), combine, keep the
 * boot CPU when everything is isolated, and malformed parameters are refused naming the parameter
 * and what is allowed.
 */
final class HousekeepingTest {

  @Test
  void none_everyCpuDoesEveryKindOfHousekeeping() {
    Housekeeping none = Housekeeping.none(8);

    for (HousekeepingType type : HousekeepingType.values()) {
      assertThat(none.isEnabled(type)).isFalse();
      assertThat(none.mask(type).isFull()).isTrue();
    }
    assertThat(none.nohzFullMask().isEmpty()).isTrue();
    assertThat(none.toBootArgs()).isEmpty();
  }

  @Test
  void parse_nohzFull_removesCpusFromKernelNoiseOnly() {
    Housekeeping hk = Housekeeping.parse("nohz_full=1-175", 352);

    assertThat(hk.mask(HousekeepingType.KERNEL_NOISE).toCpuList()).isEqualTo("0,176-351");
    assertThat(hk.isEnabled(HousekeepingType.KERNEL_NOISE)).isTrue();
    assertThat(hk.isEnabled(HousekeepingType.DOMAIN)).isFalse();
    assertThat(hk.mask(HousekeepingType.DOMAIN).isFull()).isTrue();
    assertThat(hk.isNohzFull(1)).isTrue();
    assertThat(hk.isNohzFull(0)).isFalse();
    assertThat(hk.isNohzFull(176)).isFalse();
    assertThat(hk.isHousekeeping(0, HousekeepingType.KERNEL_NOISE)).isTrue();
    assertThat(hk.isHousekeeping(5, HousekeepingType.KERNEL_NOISE)).isFalse();
  }

  @Test
  void parse_isolcpusWithoutFlags_meansDomain() {
    Housekeeping hk = Housekeeping.parse("isolcpus=2-5", 8);

    assertThat(hk.mask(HousekeepingType.DOMAIN).toCpuList()).isEqualTo("0-1,6-7");
    assertThat(hk.isEnabled(HousekeepingType.KERNEL_NOISE)).isFalse();
    assertThat(hk.isNohzFull(3)).isFalse();
  }

  @Test
  void parse_isolcpusNohzDomain_setsBothTypesAndStopsTheTick() {
    Housekeeping hk = Housekeeping.parse("isolcpus=nohz,domain,2-5", 8);

    assertThat(hk.mask(HousekeepingType.DOMAIN).toCpuList()).isEqualTo("0-1,6-7");
    assertThat(hk.mask(HousekeepingType.KERNEL_NOISE).toCpuList()).isEqualTo("0-1,6-7");
    assertThat(hk.nohzFullMask().toCpuList()).isEqualTo("2-5");
    assertThat(hk.isEnabled(HousekeepingType.MANAGED_IRQ)).isFalse();
  }

  @Test
  void parse_isolcpusManagedIrqOnly_leavesDomainAlone() {
    Housekeeping hk = Housekeeping.parse("isolcpus=managed_irq,2-5", 8);

    assertThat(hk.mask(HousekeepingType.MANAGED_IRQ).toCpuList()).isEqualTo("0-1,6-7");
    assertThat(hk.isEnabled(HousekeepingType.DOMAIN)).isFalse();
  }

  @Test
  void parse_combinedWithOtherParameters_combinesAndIgnoresTheRest() {
    Housekeeping hk =
        Housekeeping.parse("quiet  nohz_full=2-5 root=/dev/sda1 isolcpus=domain,6-7", 8);

    assertThat(hk.mask(HousekeepingType.KERNEL_NOISE).toCpuList()).isEqualTo("0-1,6-7");
    assertThat(hk.mask(HousekeepingType.DOMAIN).toCpuList()).isEqualTo("0-5");
    assertThat(hk.toBootArgs()).isEqualTo("nohz_full=2-5 isolcpus=domain,6-7");
  }

  @Test
  void parse_nohzFullAndMatchingIsolcpusNohz_accepted() {
    Housekeeping hk = Housekeeping.parse("nohz_full=2-3 isolcpus=nohz,domain,2-3", 8);

    assertThat(hk.mask(HousekeepingType.KERNEL_NOISE).toCpuList()).isEqualTo("0-1,4-7");
  }

  @Test
  void parse_everyCpuIsolated_bootCpuKeepsHousekeeping() {
    Housekeeping hk = Housekeeping.parse("nohz_full=0-7", 8);

    assertThat(hk.mask(HousekeepingType.KERNEL_NOISE).toCpuList()).isEqualTo("0");
    assertThat(hk.nohzFullMask().toCpuList()).isEqualTo("1-7");
  }

  @Test
  void parse_canonicalForm_parsesToAnEqualObject() {
    Housekeeping hk = Housekeeping.parse("isolcpus=managed_irq,nohz,4,5,6 nohz_full=4-6", 16);

    assertThat(Housekeeping.parse(hk.toBootArgs(), 16)).isEqualTo(hk);
    assertThat(hk.toBootArgs()).isEqualTo("isolcpus=nohz,managed_irq,4-6 nohz_full=4-6");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "isolcpus=foo,2-5                  | allowed flags: nohz, domain, managed_irq",
        "isolcpus=domain                   | no cpulist after the flags",
        "nohz_full=                        | empty cpulist",
        "nohz_full=1-400                   | nohz_full=1-400: bad cpulist",
        "nohz_full=abc                     | nohz_full=abc: bad cpulist",
        "nohz_full                         | needs a value",
        "nohz_full=1-3 isolcpus=nohz,2-3   | must match isolcpus=nohz",
        "isolcpus=2-3 isolcpus=domain,4    | name different CPUs",
      })
  void parse_malformed_namesParameterAndWhatIsAllowed(String bootArgs, String problem) {
    assertThatThrownBy(() -> Housekeeping.parse(bootArgs, 352))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(problem);
  }

  @Test
  void parse_unknownIsolcpusFlag_namesTheFlag() {
    assertThatThrownBy(() -> Housekeeping.parse("isolcpus=nohz,foo,2-5", 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown isolcpus flag 'foo'");
  }

  @Test
  void parse_cpuBeyondWidth_mentionsTheWidth() {
    assertThatThrownBy(() -> Housekeeping.parse("isolcpus=8", 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("isolcpus=8")
        .hasMessageContaining("CPUs below 8");
  }
}
