package dev.schedlab.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.ParameterSpec;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fuzzing the text parsers of topology-api with random text over each grammar's alphabet and with
 * valid inputs mutated (characters inserted, deleted, replaced): cpulists ({@link
 * CpuMasks#parseCpuList}), shapes ({@link Shape#parse}), durations ({@link ParameterSpec#parse} of
 * a duration) and boot options ({@link Housekeeping#parse}). Whatever the input, the parser returns
 * or throws {@link IllegalArgumentException} with a one-line message; nothing else escapes.
 */
final class TextParserFuzzTest {

  /** Valid input text mutated: {@code insert} at {@code at}, {@code delete} characters after. */
  static Arbitrary<String> mutated(String alphabet, String... valid) {
    return Combinators.combine(
            Arbitraries.of(valid),
            Arbitraries.integers().between(0, 200),
            Arbitraries.strings().withChars(alphabet).ofMaxLength(4),
            Arbitraries.integers().between(0, 3))
        .as(
            (base, at, insert, delete) -> {
              int p = at % (base.length() + 1);
              int d = Math.min(delete, base.length() - p);
              return base.substring(0, p) + insert + base.substring(p + d);
            });
  }

  /** Random text over {@code alphabet}, mutated valid text, or any characters at all. */
  static Arbitrary<String> inputs(String alphabet, String... valid) {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.strings().withChars(alphabet).ofMaxLength(30)),
        net.jqwik.api.Tuple.of(4, mutated(alphabet, valid)),
        net.jqwik.api.Tuple.of(1, Arbitraries.strings().ofMaxLength(30)));
  }

  static void parsesOrRefusesInOneLine(Runnable parse) {
    try {
      parse.run();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank().doesNotContain("\n", "\r");
    }
  }

  @Provide
  Arbitrary<String> cpuLists() {
    return inputs("0123456789,-:/N x", "0-3,8", "1,3,5-7", "0-15:2/4", "N", "0-N:1/2", "7");
  }

  @Property(tries = 400)
  void cpuList_anyText_parsesOrOneLineError(@ForAll("cpuLists") String text) {
    parsesOrRefusesInOneLine(() -> CpuMasks.parseCpuList(text, 16));
  }

  @Provide
  Arbitrary<String> shapes() {
    return inputs("0123456789nlcdmt x", "1n1l4c2t", "2n2l8c1t", "1n4l2c8t", "8n4l128c2t");
  }

  @Property(tries = 400)
  void shape_anyText_parsesOrOneLineError(@ForAll("shapes") String text) {
    parsesOrRefusesInOneLine(() -> Shape.parse(text));
  }

  @Provide
  Arbitrary<String> durations() {
    return inputs("0123456789.nsumh µ-e+", "5s", "500ms", "1.5us", "10ns", "2m", "0");
  }

  @Property(tries = 400)
  void duration_anyText_parsesOrOneLineError(@ForAll("durations") String text) {
    ParameterSpec spec = ParameterSpec.ofDuration("d", "a duration", "1ms", 0, Long.MAX_VALUE);
    parsesOrRefusesInOneLine(() -> spec.parse(text));
  }

  @Provide
  Arbitrary<String> bootArgs() {
    return inputs(
        "0123456789,-=nohz_fulisocpdmaneg ",
        "nohz_full=1-3",
        "isolcpus=domain,2-3",
        "isolcpus=nohz,managed_irq,1 nohz_full=1",
        "quiet nohz_full=3");
  }

  @Property(tries = 300)
  void bootOptions_anyText_parseOrOneLineError(@ForAll("bootArgs") String text) {
    parsesOrRefusesInOneLine(() -> Housekeeping.parse(text, 4));
  }

  /**
   * Line breaks and other control characters in each parser's input, where the random inputs above
   * reach them only by chance (a CI run once drew {@code " \n"} as a shape, and the message broke
   * the line).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "\n",
        " \n",
        "\r\n",
        "1n\n4c",
        "1n4c\n2t",
        "4c\u0000",
        "\u007f",
        "2\tc",
        "5\n0s",
        "0-\n3",
        "nohz_full=1\u0001"
      })
  void controlCharacters_refusedInOneLine(String text) {
    ParameterSpec spec = ParameterSpec.ofDuration("d", "a duration", "1ms", 0, Long.MAX_VALUE);
    parsesOrRefusesInOneLine(() -> CpuMasks.parseCpuList(text, 16));
    parsesOrRefusesInOneLine(() -> Shape.parse(text));
    parsesOrRefusesInOneLine(() -> spec.parse(text));
    parsesOrRefusesInOneLine(() -> Housekeeping.parse(text, 4));
  }
}
