package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.topology.Topology;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Fuzzing the rt-app reader ({@link RtAppConfig#parse}, through Jackson) with valid files mutated
 * (JSON punctuation, digits, key fragments and comment starts inserted, deleted or replaced) and
 * with random text: it returns or throws {@link IllegalArgumentException} with a one-line message;
 * nothing else escapes (no Jackson exception, no arithmetic overflow).
 */
final class RtAppFuzzTest {

  private static final String VALID =
      """
      {
        "tasks": {
          "worker": {
            "instance": 2, "loop": 5, "priority": 5, "cpus": [1, 2], "delay": 100,
            "policy": "SCHED_BATCH",
            "phases": {
              "p1": { "loop": 3, "run": 1000, "sleep": 2000 },
              "p2": { "runtime": 500, "timer": { "ref": "unique", "period": 10000,
                      "mode": "absolute" }, "barrier": "sync" }
            }
          },
          "ticker": { "run0": 100, "sleep0": 900, "cpus": [0] }
        },
        "global": { "duration": 2, "calibration": "CPU0", "logdir": "./" }
      }
      """;

  private static final String ALPHABET = "{}[]:,\" 0123456789.-+eE/*\n\\truninstaloopsleep";

  private final Topology topology = IdealMachine.shape("1n1l4c2t").topology();

  @Provide
  Arbitrary<String> files() {
    Arbitrary<String> mutated =
        Combinators.combine(
                Arbitraries.integers().between(0, 100_000),
                Arbitraries.strings().withChars(ALPHABET).ofMaxLength(8),
                Arbitraries.integers().between(0, 10))
            .as(
                (at, insert, delete) -> {
                  int p = at % (VALID.length() + 1);
                  int d = Math.min(delete, VALID.length() - p);
                  return VALID.substring(0, p) + insert + VALID.substring(p + d);
                });
    return Arbitraries.frequencyOf(
        Tuple.of(6, mutated),
        Tuple.of(2, Arbitraries.strings().withChars(ALPHABET).ofMaxLength(60)),
        Tuple.of(1, Arbitraries.strings().ofMaxLength(60)));
  }

  @Property(tries = 500)
  void rtApp_mutatedFile_parsesOrOneLineError(@ForAll("files") String json) {
    try {
      RtAppConfig.parse(json, topology);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).isNotBlank().doesNotContain("\n", "\r");
    }
  }
}
