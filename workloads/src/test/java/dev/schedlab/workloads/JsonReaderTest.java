package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rt-app JSON reader: objects keep key order, integers are longs, comments are skipped as
 * json-c does, and malformed input, a repeated key, nesting deeper than 256 or an integer out of
 * range is rejected with one line naming the line and column, without Jackson's source excerpt.
 */
final class JsonReaderTest {

  @Test
  void parse_nestedDocument_keepsKeyOrderAndTypes() {
    Object value =
        JsonReader.parse("{\"b\": 1, \"a\": [true, null, -2.5e1, \"x\\n\\u0041\"], \"c\": {}}");

    assertThat(value).isInstanceOf(Map.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) value;
    assertThat(map.keySet()).containsExactly("b", "a", "c");
    assertThat(map.get("b")).isEqualTo(1L);
    assertThat(map.get("a")).isEqualTo(List.of(true, JsonReader.NULL, -25.0, "x\nA"));
    assertThat(map.get("c")).isEqualTo(Map.of());
  }

  @Test
  void parse_comments_areSkipped() {
    Object value =
        JsonReader.parse("// rt-app file\n{ /* tasks */ \"run\" : 10, // ten\n \"sleep\": 5 }");

    assertThat(value).isEqualTo(Map.of("run", 10L, "sleep", 5L));
  }

  @Test
  void parse_repeatedKey_isRejectedWithItsPosition() {
    assertThatThrownBy(() -> JsonReader.parse("{\n  \"run\": 1,\n  \"run\": 2\n}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 3, column 3")
        .hasMessageContaining("\"run\" appears twice");
  }

  @Test
  void parse_missingComma_isRejectedWithItsPosition() {
    assertThatThrownBy(() -> JsonReader.parse("{\"a\": 1 \"b\": 2}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 1, column 9")
        .hasMessageContaining("was expecting comma to separate Object entries")
        .hasMessageNotContaining("code 34");
  }

  @Test
  void parse_trailingText_isRejected() {
    assertThatThrownBy(() -> JsonReader.parse("{} x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("after the end of the document");
  }

  @Test
  void parse_nestingDeeperThan256_isRejectedWithOneLine() {
    String ok = "[".repeat(256) + "]".repeat(256);
    assertThat(JsonReader.parse(ok)).isInstanceOf(List.class);
    assertThatThrownBy(() -> JsonReader.parse("[".repeat(10_000) + "]".repeat(10_000)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching("invalid JSON at line 1, column 25\\d: nesting deeper than 256 levels");
  }

  @Test
  void parse_unterminatedObject_namesWhereItOpened_withoutSourceExcerpt() {
    assertThatThrownBy(() -> JsonReader.parse("{\n  \"tasks\": {\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("invalid JSON at line 3")
        .hasMessageContaining("unexpected end-of-input")
        .hasMessageNotContaining("Source")
        .hasMessageNotContaining("\n");
  }

  @Test
  void parse_integerOutOfRange_isNamed() {
    assertThatThrownBy(() -> JsonReader.parse("{\"run\": 99999999999999999999}"))
        .hasMessage(
            "invalid JSON at line 1, column 9: integer 99999999999999999999 is out of"
                + " range (-9223372036854775808..9223372036854775807)");
  }

  @Test
  void parse_emptyDocument_isNamed() {
    assertThatThrownBy(() -> JsonReader.parse("  // nothing\n"))
        .hasMessageContaining("the document is empty");
  }
}
