package dev.schedlab.hw.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

/**
 * hwloc bitmap text is 32-bit hex words, most significant first, with empty words meaning 0 and a
 * leading {@code 0xf...f} meaning "all higher bits"; anything else is rejected with the bad word
 * quoted.
 */
final class HwlocBitmapTest {

  @Test
  void parse_singleWord_setsLowBits() {
    assertThat(HwlocBitmap.parse("0x000000a5").bits()).isEqualTo(bits(0, 2, 5, 7));
  }

  @Test
  void parse_severalWords_mostSignificantFirst() {
    assertThat(HwlocBitmap.parse("0x00000001,0x80000000").bits()).isEqualTo(bits(31, 32));
  }

  @Test
  void parse_emptyAndShortWords_countAsZeroWords() {
    // v1 ulna file: PU 64 is "0x00000001,,0x0"
    assertThat(HwlocBitmap.parse("0x00000001,,0x0").bits()).isEqualTo(bits(64));
  }

  @Test
  void parse_infinitePrefix_isFlaggedAndFiniteBitsKept() {
    HwlocBitmap b = HwlocBitmap.parse("0xf...f,0x00000003");
    assertThat(b.infinite()).isTrue();
    assertThat(b.bits()).isEqualTo(bits(0, 1));
  }

  @Test
  void parse_wordWithoutPrefix_isRejectedQuotingTheWord() {
    assertThatThrownBy(() -> HwlocBitmap.parse("0x1,ff"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"ff\"");
  }

  @Test
  void parse_nineHexDigits_isRejected() {
    assertThatThrownBy(() -> HwlocBitmap.parse("0x123456789"))
        .hasMessageContaining("1 to 8 hex digits");
  }

  @Test
  void parse_bitBeyond8191_isRejected() {
    StringBuilder wide = new StringBuilder("0x00000001");
    for (int i = 0; i < 256; i++) {
      wide.append(",0x0");
    }
    assertThatThrownBy(() -> HwlocBitmap.parse(wide.toString())).hasMessageContaining("8192");
  }

  @Test
  void parse_blank_isRejected() {
    assertThatThrownBy(() -> HwlocBitmap.parse("  ")).hasMessageContaining("empty");
  }

  static BitSet bits(int... set) {
    BitSet b = new BitSet();
    for (int i : set) {
      b.set(i);
    }
    return b;
  }
}
