package dev.schedlab.workloads.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Fuzzing the trace importer ({@link TraceImport#text}, perf script and ftrace text) with the small
 * recordings of the test resources mutated (field punctuation, digits, event-name fragments,
 * newlines inserted, deleted or replaced) and with random text: it returns a model or throws {@link
 * IllegalArgumentException} with a one-line message; nothing else escapes (no index or
 * number-format exception, no arithmetic overflow).
 */
final class TraceImportFuzzTest {

  private static final List<String> RECORDINGS =
      List.of("small-ftrace.txt", "small-perf.txt", "small-trace-cmd.txt").stream()
          .map(TraceImportFuzzTest::resource)
          .toList();

  private static final String ALPHABET = " :=[]-./>#\n0123456789RSDXZ+sched_switchwakeupprev_";

  @Provide
  Arbitrary<String> traces() {
    Arbitrary<String> mutated =
        Combinators.combine(
                Arbitraries.integers().between(0, RECORDINGS.size() - 1),
                Arbitraries.integers().between(0, 100_000),
                Arbitraries.strings().withChars(ALPHABET).ofMaxLength(8),
                Arbitraries.integers().between(0, 12))
            .as(
                (which, at, insert, delete) -> {
                  String valid = RECORDINGS.get(which);
                  int p = at % (valid.length() + 1);
                  int d = Math.min(delete, valid.length() - p);
                  return valid.substring(0, p) + insert + valid.substring(p + d);
                });
    return Arbitraries.frequencyOf(
        Tuple.of(6, mutated),
        Tuple.of(2, Arbitraries.strings().withChars(ALPHABET).ofMaxLength(120)),
        Tuple.of(1, Arbitraries.strings().ofMaxLength(120)));
  }

  @Property(tries = 400)
  void trace_mutatedRecording_importsOrOneLineError(@ForAll("traces") String text)
      throws IOException {
    try {
      TraceImport.text(
          new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "fuzz.txt", null);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank().doesNotContain("\n", "\r");
    }
  }

  private static String resource(String name) {
    try (InputStream in = TraceImportFuzzTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
