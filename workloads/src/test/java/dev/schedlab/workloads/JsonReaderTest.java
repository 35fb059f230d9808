package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rt-app JSON reader: objects keep key order, integers are longs, comments are skipped as
 * json-c does, and malformed input or a repeated key is rejected with a line and column.
 */
final class JsonReaderTest {

  @Test
  void parse_nestedDocument_keepsKeyOrderAndTypes() {
    Object value = JsonReader.parse(
        "{\"b\": 1, \"a\": [true, null, -2.5e1, \"x\\n\\u0041\"], \"c\": {}}");

    assertThat(value).isInstanceOf(Map.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) value;
    assertThat(map.keySet()).containsExactly("b", "a", "c");
    assertThat(map.get("b")).isEqualTo(1L);
    assertThat(map.get("a"))
        .isEqualTo(List.of(true, JsonReader.NULL, -25.0, "x\nA"));
    assertThat(map.get("c")).isEqualTo(Map.of());
  }

  @Test
  void parse_comments_areSkipped() {
    Object value = JsonReader.parse(
        "// rt-app file\n{ /* tasks */ \"run\" : 10, // ten\n \"sleep\": 5 }");

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
        .hasMessageContaining("expected ',' or '}'");
  }

  @Test
  void parse_trailingText_isRejected() {
    assertThatThrownBy(() -> JsonReader.parse("{} x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("after the end of the document");
  }
}
