package dev.schedlab.cpumask;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cpulist form prints as {@code %*pbl} does (runs of two or more CPUs as lo-hi, empty mask as
 * the empty string), parses everything {@code cpulist_parse()} documents (ranges, strides, N, a
 * sysfs file's surrounding whitespace), round-trips at every width, and rejects bad input with a
 * message quoting the input and the position of the problem.
 */
final class CpuListFormatTest {

  private static List<Integer> cpus(CpuMask mask) {
    List<Integer> cpus = new ArrayList<>();
    mask.forEachCpu(cpus::add);
    return cpus;
  }

  @Test
  void toCpuList_veraNodeZero_printsTwoRuns() {
    MutableCpuMask node0 = CpuMasks.mutable(352);
    node0.setRange(0, 87);
    node0.setRange(176, 263);
    assertThat(node0.toCpuList()).isEqualTo("0-87,176-263");
    assertThat(CpuMasks.parseCpuList("0-87,176-263", 352)).isEqualTo(node0);
  }

  @Test
  void toCpuList_kernelExamples_matchBitmapListString() {
    assertThat(CpuMasks.of(352, 0, 1, 2, 3, 8, 10, 11).toCpuList()).isEqualTo("0-3,8,10-11");
    assertThat(CpuMasks.of(16, 5).toCpuList()).isEqualTo("5");
    assertThat(CpuMasks.of(16, 8).toCpuList()).isEqualTo("8");
    assertThat(CpuMasks.of(16, 4, 5).toCpuList()).as("a run of two").isEqualTo("4-5");
    assertThat(CpuMasks.empty(352).toCpuList()).isEmpty();
    assertThat(CpuMasks.of(128, 63, 64, 127).toCpuList()).isEqualTo("63-64,127");
  }

  @Test
  void parseCpuList_kernelExamples_setThoseCpus() {
    assertThat(CpuMasks.parseCpuList("0-3,8,10-11", 352))
        .isEqualTo(CpuMasks.of(352, 0, 1, 2, 3, 8, 10, 11));
    assertThat(CpuMasks.parseCpuList("5", 8)).isEqualTo(CpuMasks.of(8, 5));
    assertThat(CpuMasks.parseCpuList("", 8).isEmpty()).isTrue();
    assertThat(CpuMasks.parseCpuList("3,1,3,0-1", 8).toCpuList())
        .as("unordered and overlapping entries")
        .isEqualTo("0-1,3");
  }

  @Test
  void parseCpuList_strideForm_setsUsedCpusOfEachGroup() {
    assertThat(cpus(CpuMasks.parseCpuList("0-1023:2/256", 1024)))
        .containsExactly(0, 1, 256, 257, 512, 513, 768, 769);
    assertThat(CpuMasks.parseCpuList("0-9:3/4", 10).toCpuList()).isEqualTo("0-2,4-6,8-9");
    assertThat(CpuMasks.parseCpuList("2-5:0/3", 8).isEmpty()).as("used 0").isTrue();
    assertThat(CpuMasks.parseCpuList("0-N:1/2", 8).toCpuList()).isEqualTo("0,2,4,6");
  }

  @Test
  void parseCpuList_letterN_meansLastCpu() {
    assertThat(CpuMasks.parseCpuList("N", 352)).isEqualTo(CpuMasks.of(352, 351));
    assertThat(CpuMasks.parseCpuList("0-N", 352).isFull()).isTrue();
    assertThat(CpuMasks.parseCpuList("N-N", 1)).isEqualTo(CpuMasks.of(1, 0));
    assertThat(CpuMasks.parseCpuList("350-N", 352).toCpuList()).isEqualTo("350-351");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0-3\n", " 0-3", "\t0-3 \n", "0-3\r\n", "\n0-3\n\n"})
  void parseCpuList_surroundingWhitespace_isIgnored(String text) {
    assertThat(CpuMasks.parseCpuList(text, 8).toCpuList()).isEqualTo("0-3");
  }

  @Test
  void parseCpuList_onlyWhitespace_isEmptyMask() {
    assertThat(CpuMasks.parseCpuList(" \n", 8).isEmpty()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 63, 64, 65, 352, 384, 4096, 8192})
  void cpuList_roundTrip_preservesMask(int nr) {
    List<CpuMask> masks = new ArrayList<>();
    masks.add(CpuMasks.empty(nr));
    masks.add(CpuMasks.full(nr));
    masks.add(CpuMasks.of(nr, 0, nr / 2, nr - 1));
    MutableCpuMask pattern = CpuMasks.mutable(nr);
    for (int cpu = 0; cpu < nr; cpu += 7) {
      pattern.setRange(cpu, Math.min(nr - 1, cpu + cpu % 3));
    }
    masks.add(pattern);
    for (CpuMask mask : masks) {
      String text = mask.toCpuList();
      assertThat(CpuMasks.parseCpuList(text, nr)).isEqualTo(mask);
      assertThat(CpuMasks.parseCpuList(text + "\n", nr)).isEqualTo(mask);
    }
  }

  @Test
  void parseCpuList_emptyEntry_exactMessage() {
    assertThatThrownBy(() -> CpuMasks.parseCpuList("1,,2", 352))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "invalid cpulist \"1,,2\" at position 2: empty entry (expected comma-separated"
                + " entries A, A-B or A-B:USED/GROUP with CPUs 0-351, N meaning 351)");
  }

  @ParameterizedTest(name = "\"{0}\" fails at {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "0-|2|expected a CPU number but the text ends",
        "5-3|2|range end 3 is below its start 5",
        "a|0|expected a CPU number but found 'a'",
        "1,,2|2|empty entry",
        "352|0|CPU 352 out of range",
        "0-352|2|CPU 352 out of range",
        "-1|0|negative CPU",
        "0--1|2|negative CPU",
        "1,|2|empty entry",
        ",1|0|empty entry",
        "1 2|1|unexpected character ' '",
        "1, 2|2|expected a CPU number but found ' '",
        "0:1/2|1|unexpected character ':'",
        "0-7:3/2|4|used count 3 exceeds group size 2",
        "0-7:1/0|6|group size 0",
        "0-7:1|5|expected '/' between the used count and the group size",
        "0-7:/2|4|expected a used count but found '/'",
        "99999999999|0|number too large",
        "4x|1|unexpected character 'x'",
        "n|0|expected a CPU number but found 'n'",
        "0x3|1|unexpected character 'x'"
      })
  void parseCpuList_badInput_reportsPositionAndQuotesInput(
      String text, int position, String problem) {
    assertThatThrownBy(() -> CpuMasks.parseCpuList(text, 352))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "invalid cpulist \"" + text + "\" at position " + position + ": " + problem)
        .hasMessageContaining("CPUs 0-351");
  }

  @Test
  void parseCpuList_badInputWithNewline_quotesItEscaped() {
    assertThatThrownBy(() -> CpuMasks.parseCpuList(" 0-3,9\n", 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid cpulist \" 0-3,9\\n\" at position 5: CPU 9 out of range")
        .hasMessageContaining("CPUs 0-7");
  }

  @Test
  void parseCpuList_widthOne_namesTheSingleCpu() {
    assertThatThrownBy(() -> CpuMasks.parseCpuList("1", 1))
        .hasMessageContaining("at position 0: CPU 1 out of range")
        .hasMessageContaining("with CPU 0, N meaning 0");
  }

  @Test
  void parseCpuList_null_throwsNullPointer() {
    assertThatThrownBy(() -> CpuMasks.parseCpuList(null, 8))
        .isInstanceOf(NullPointerException.class);
  }
}
