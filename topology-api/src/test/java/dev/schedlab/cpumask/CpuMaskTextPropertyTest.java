package dev.schedlab.cpumask;

import static dev.schedlab.cpumask.MaskSample.toBitSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Both text forms agree with a {@link BitSet}-based transcription of {@code %*pbl} and {@code %*pb}
 * at random widths in {@code [1, 8192]}, parse back to the same mask (also with a sysfs trailing
 * newline and upper-case hex), parse random cpulists of singles, ranges, strides and {@code N} to
 * the union the kernel computes, and reject a CPU beyond the width or hex of another width.
 */
final class CpuMaskTextPropertyTest {

  @Provide
  Arbitrary<MaskSample> samples() {
    return MaskSample.samples();
  }

  @Property(tries = 500)
  void cpuList_randomMask_printsReferenceAndRoundTrips(@ForAll("samples") MaskSample s) {
    CpuMask mask = s.mutableA();
    String text = mask.toCpuList();
    assertThat(text).isEqualTo(MaskSample.cpuList(s.a()));
    assertThat(CpuMasks.parseCpuList(text, s.nr())).isEqualTo(mask);
    assertThat(CpuMasks.parseCpuList(" " + text + "\n", s.nr())).isEqualTo(mask);
  }

  @Property(tries = 500)
  void hex_randomMask_printsReferenceAndRoundTrips(@ForAll("samples") MaskSample s) {
    CpuMask mask = s.mutableA();
    String text = mask.toHex();
    assertThat(text).isEqualTo(MaskSample.hex(s.a(), s.nr()));
    assertThat(CpuMasks.parseHex(text, s.nr())).isEqualTo(mask);
    assertThat(CpuMasks.parseHex(text.toUpperCase(Locale.ROOT) + "\n", s.nr())).isEqualTo(mask);
  }

  @Property(tries = 500)
  void parseHex_zeroPaddedFirstChunk_givesSameMask(@ForAll("samples") MaskSample s) {
    CpuMask mask = s.mutableA();
    String text = mask.toHex();
    int comma = text.indexOf(',');
    String first = comma < 0 ? text : text.substring(0, comma);
    String padded = "0".repeat(8 - first.length()) + text;
    assertThat(CpuMasks.parseHex(padded, s.nr())).isEqualTo(mask);
  }

  @Property(tries = 500)
  void parseHex_otherWidth_isRejectedOrHasNoExtraBits(@ForAll("samples") MaskSample s) {
    int other = s.nr() == CpuMask.MAX_CPUS ? s.nr() - 1 : s.nr() + 1;
    CpuMask mask = s.mutableA();
    boolean sameChunkCount = (other + 31) / 32 == (s.nr() + 31) / 32;
    if (!sameChunkCount) {
      assertThatThrownBy(() -> CpuMasks.parseHex(mask.toHex(), other))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("chunk");
    } else if (other < s.nr() && mask.test(s.nr() - 1)) {
      assertThatThrownBy(() -> CpuMasks.parseHex(mask.toHex(), other))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("bits set at or above CPU " + other);
    } else {
      assertThat(toBitSet(CpuMasks.parseHex(mask.toHex(), other))).isEqualTo(s.a());
    }
  }

  @Property
  void parseCpuList_randomEntries_matchesKernelUnion(@ForAll("samples") MaskSample s) {
    SplittableRandom random = s.random();
    int nr = s.nr();
    BitSet expected = new BitSet(nr);
    List<String> entries = new ArrayList<>();
    int count = 1 + random.nextInt(6);
    for (int i = 0; i < count; i++) {
      int a = random.nextInt(nr);
      int b = a + random.nextInt(nr - a);
      String last = random.nextInt(5) == 0 && b == nr - 1 ? "N" : String.valueOf(b);
      switch (random.nextInt(3)) {
        case 0 -> {
          entries.add(a == nr - 1 && random.nextBoolean() ? "N" : String.valueOf(a));
          expected.set(a);
        }
        case 1 -> {
          entries.add(a + "-" + last);
          expected.set(a, b + 1);
        }
        default -> {
          int group = 1 + random.nextInt(Math.min(nr, 600) + 1);
          int used = random.nextInt(group + 1);
          entries.add(a + "-" + last + ":" + used + "/" + group);
          for (int start = a; start <= b; start += group) {
            expected.set(start, Math.min(b + 1, start + used));
          }
        }
      }
    }
    CpuMask parsed = CpuMasks.parseCpuList(String.join(",", entries), nr);
    assertThat(toBitSet(parsed)).isEqualTo(expected);
  }

  @Property(tries = 300)
  void parseCpuList_cpuAtOrBeyondWidth_isRejectedWithPosition(@ForAll("samples") MaskSample s) {
    int nr = s.nr();
    int bad = nr + s.random().nextInt(10_000);
    String prefix = s.mutableA().toCpuList();
    String text = prefix.isEmpty() ? String.valueOf(bad) : prefix + "," + bad;
    int position = prefix.isEmpty() ? 0 : prefix.length() + 1;
    assertThatThrownBy(() -> CpuMasks.parseCpuList(text, nr))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at position " + position + ": CPU " + bad + " out of range");
  }
}
