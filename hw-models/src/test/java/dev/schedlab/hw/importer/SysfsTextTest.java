package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sysfs text forms round-trip: a cpulist printed by {@link SysfsText#toCpuList} parses back to
 * the same set, hex masks read most significant word first, and malformed text is rejected.
 */
final class SysfsTextTest {

  @Test
  void parseCpuList_rangesAndSingles_setExactlyThoseCpus() {
    assertThat(SysfsText.parseCpuList("0-2,5,7-8\n"))
        .isEqualTo(HwlocBitmapTest.bits(0, 1, 2, 5, 7, 8));
  }

  @Test
  void parseCpuList_empty_isEmptySet() {
    assertThat(SysfsText.parseCpuList("\n").isEmpty()).isTrue();
  }

  @Test
  void parseCpuList_reversedRange_isRejected() {
    assertThatThrownBy(() -> SysfsText.parseCpuList("5-3")).hasMessageContaining("5-3");
  }

  @Test
  void parseCpuList_garbage_isRejected() {
    assertThatThrownBy(() -> SysfsText.parseCpuList("1,a")).hasMessageContaining("\"a\"");
  }

  @Test
  void toCpuList_randomSets_roundTrip() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      BitSet set = new BitSet();
      int n = random.nextInt(300);
      for (int i = 0; i < n; i++) {
        if (random.nextInt(3) == 0) {
          set.set(i);
        }
      }
      assertThat(SysfsText.parseCpuList(SysfsText.toCpuList(set))).isEqualTo(set);
    }
  }

  @Test
  void parseHexMask_twoWords_readsMostSignificantFirst() {
    // offline-cpu0-node0 cpu5 core_siblings
    assertThat(SysfsText.parseHexMask("00000000,000aaaa0"))
        .isEqualTo(HwlocBitmapTest.bits(5, 7, 9, 11, 13, 15, 17, 19));
    assertThat(SysfsText.parseHexMask("00000001,00000000")).isEqualTo(HwlocBitmapTest.bits(32));
  }

  @Test
  void parseHexMask_badWord_isRejected() {
    assertThatThrownBy(() -> SysfsText.parseHexMask("0000000g")).hasMessageContaining("0000000g");
  }

  @Test
  void parseSize_units_scaleByPowersOf1024() {
    assertThat(SysfsText.parseSize("32K")).isEqualTo(32 * 1024);
    assertThat(SysfsText.parseSize("2M\n")).isEqualTo(2 * 1024 * 1024);
    assertThat(SysfsText.parseSize("512")).isEqualTo(512);
  }
}
