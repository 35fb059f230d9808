package dev.schedlab.cpumask;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hex form prints as {@code %*pb} does (32-bit chunks, most significant first, the first chunk
 * only as wide as the width needs), parses back what it prints plus the zero-extended first chunk
 * the kernel accepts, round-trips at every width, and rejects text of another width or bad digits
 * with a message quoting the input and the position of the problem.
 */
final class HexFormatTest {

  @Test
  void toHex_kernelExamples_matchBitmapString() {
    assertThat(CpuMasks.range(8, 0, 3).toHex()).isEqualTo("0f");
    assertThat(CpuMasks.full(4).toHex()).isEqualTo("f");
    assertThat(CpuMasks.of(64, 0).toHex()).isEqualTo("00000000,00000001");
    assertThat(CpuMasks.full(40).toHex()).isEqualTo("ff,ffffffff");
  }

  @Test
  void toHex_moreWidths_padEveryChunkButTheFirst() {
    assertThat(CpuMasks.of(1, 0).toHex()).isEqualTo("1");
    assertThat(CpuMasks.empty(1).toHex()).isEqualTo("0");
    assertThat(CpuMasks.of(33, 32).toHex()).isEqualTo("1,00000000");
    assertThat(CpuMasks.of(65, 64, 63, 31).toHex()).isEqualTo("1,80000000,80000000");
    assertThat(CpuMasks.full(63).toHex()).isEqualTo("7fffffff,ffffffff");
    assertThat(CpuMasks.of(352, 351, 0).toHex())
        .isEqualTo("80000000," + "00000000,".repeat(9) + "00000001");
    assertThat(CpuMasks.empty(384).toHex())
        .isEqualTo(
            String.join(
                ",",
                List.of(
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000",
                    "00000000")));
  }

  @Test
  void parseHex_kernelExamples_giveThoseMasks() {
    assertThat(CpuMasks.parseHex("0f", 8)).isEqualTo(CpuMasks.range(8, 0, 3));
    assertThat(CpuMasks.parseHex("f", 4).isFull()).isTrue();
    assertThat(CpuMasks.parseHex("00000000,00000001", 64)).isEqualTo(CpuMasks.of(64, 0));
    assertThat(CpuMasks.parseHex("ff,ffffffff", 40).isFull()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "f,ffffffff",
        "0ff,ffffffff",
        "000000ff,ffffffff",
        "FF,FFFFFFFF",
        "ff,ffffffff\n",
        "  ff,ffffffff \n"
      })
  void parseHex_zeroExtendedOrPaddedFirstChunk_isAccepted(String text) {
    CpuMask mask = CpuMasks.parseHex(text, 40);
    assertThat(mask.weight()).isEqualTo(text.trim().startsWith("f,") ? 36 : 40);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 63, 64, 65, 352, 384, 4096, 8192})
  void hex_roundTrip_preservesMask(int nr) {
    MutableCpuMask pattern = CpuMasks.mutable(nr);
    for (int cpu = 0; cpu < nr; cpu += 5) {
      pattern.set(cpu);
    }
    for (CpuMask mask :
        List.of(CpuMasks.empty(nr), CpuMasks.full(nr), pattern, CpuMasks.of(nr, nr - 1))) {
      String text = mask.toHex();
      assertThat(text.split(",", -1)).hasSize((nr + 31) / 32);
      assertThat(CpuMasks.parseHex(text, nr)).isEqualTo(mask);
      assertThat(CpuMasks.parseHex(text.toUpperCase() + "\n", nr)).isEqualTo(mask);
    }
  }

  @ParameterizedTest(name = "\"{0}\" for {1} CPUs fails at {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "ffffffff|40|0|found 1 chunk, need 2",
        "0,00000000,00000000|40|0|found 3 chunks, need 2",
        "1ff,ffffffff|40|0|bits set at or above CPU 40",
        "10|4|0|bits set at or above CPU 4",
        "ff,ffff|40|3|chunk of 4 hex digits; only the first chunk may have fewer than 8",
        "ff,fffffffff|40|3|chunk longer than 8 hex digits",
        "fffffffff|64|0|chunk longer than 8 hex digits",
        "ff,,ffffffff|40|3|empty chunk",
        "ff,ffffffff,|40|12|empty chunk",
        "0x0f|8|1|'x' is not a hex digit",
        "g|8|0|'g' is not a hex digit",
        "0f 0f|8|2|' ' is not a hex digit",
        "00000001|64|0|found 1 chunk, need 2",
        "00000000,00000001|32|0|found 2 chunks, need 1"
      })
  void parseHex_badInput_reportsPositionAndQuotesInput(
      String text, int nr, int position, String problem) {
    assertThatThrownBy(() -> CpuMasks.parseHex(text, nr))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "invalid hex cpumask \"" + text + "\" at position " + position + ": " + problem)
        .hasMessageContaining("for " + nr + " CPUs");
  }

  @Test
  void parseHex_emptyText_isWrongWidth() {
    assertThatThrownBy(() -> CpuMasks.parseHex("\n", 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid hex cpumask \"\\n\" at position 0: no hex digits");
  }

  @Test
  void parseHex_wrongWidth_exactMessageSaysWhatIsAllowed() {
    assertThatThrownBy(() -> CpuMasks.parseHex("ffffffff", 40))
        .hasMessage(
            "invalid hex cpumask \"ffffffff\" at position 0: found 1 chunk, need 2"
                + " (expected 2 comma-separated chunks for 40 CPUs: the first of 1-8 hex digits, no CPU"
                + " above 39, then 8 hex digits each)");
    assertThatThrownBy(() -> CpuMasks.parseHex("1ff", 8))
        .hasMessage(
            "invalid hex cpumask \"1ff\" at position 0: bits set at or above CPU 8"
                + " (expected 1 chunk of 1-8 hex digits for 8 CPUs, no CPU above 7)");
  }

  @Test
  void parseHex_leadingWhitespace_positionCountsFromInputStart() {
    assertThatThrownBy(() -> CpuMasks.parseHex("  ff,fffffff", 40))
        .hasMessageStartingWith("invalid hex cpumask \"  ff,fffffff\" at position 5:");
  }
}
