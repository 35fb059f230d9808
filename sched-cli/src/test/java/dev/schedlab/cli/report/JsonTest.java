package dev.schedlab.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.JsonParser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON writer's output parses back to the same values, strings escaped, numbers finite. */
final class JsonTest {

  @Test
  void roundTrip_keepsStructureOrderAndEscapes() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("text", "quote \" backslash \\ newline \n tab \t bell \u0007 ∩");
    value.put("int", 42L);
    value.put("double", 0.125);
    value.put("big", 9.4e12);
    value.put("small", 1.5e-7);
    value.put("nan", Double.NaN);
    value.put("list", List.of(1, "two", true));
    value.put("empty", Map.of());
    value.put("none", null);
    Map<String, Object> parsed = JsonParser.object(Json.pretty(value));
    assertThat(parsed.keySet()).containsExactlyElementsOf(value.keySet());
    assertThat(parsed)
        .containsEntry("text", value.get("text"))
        .containsEntry("int", 42.0)
        .containsEntry("double", 0.125)
        .containsEntry("big", 9.4e12)
        .containsEntry("small", 1.5e-7)
        .containsEntry("nan", null)
        .containsEntry("none", null)
        .containsEntry("list", List.of(1.0, "two", true));
    assertThat(JsonParser.parse(Json.compact(value))).isEqualTo(parsed);
  }

  @Test
  void doubles_sixSignificantDigitsWithoutTrailingZeros() {
    assertThat(Json.significant(120000.4)).isEqualTo("120000");
    assertThat(Json.significant(1.5)).isEqualTo("1.5");
    assertThat(Json.significant(2.0 / 3)).isEqualTo("0.666667");
    assertThat(Json.significant(1.25e-5)).isEqualTo("1.25e-05");
  }
}
