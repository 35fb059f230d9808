package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import dev.schedlab.cli.JsonParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code machines}, {@code policies} and {@code workloads} list every plugin of their kinds with
 * id, description, parameters (default and allowed values) and origin, as text and as JSON.
 */
final class ListCommandTest {

  @Test
  void machines_text_listsVeraWithItsParameters() {
    String out = Invocation.of("machines").assertOk().out();
    assertThat(out).contains("hw.vera", "hw.altra", "hw.shape", "clock_ghz");
    assertThat(out).containsPattern("(?m)^ +clock_ghz +=");
  }

  @Test
  @SuppressWarnings("unchecked")
  void machines_json_everyEntryHasIdParametersAndOrigin() {
    Map<String, Object> json =
        JsonParser.object(Invocation.of("machines", "--format", "json").assertOk().out());
    List<Map<String, Object>> machines = (List<Map<String, Object>>) json.get("machines");
    assertThat(machines).isNotEmpty();
    assertThat(machines).extracting(m -> m.get("id")).contains("hw.vera", "hw.shape");
    for (Map<String, Object> m : machines) {
      assertThat(m).containsKeys("id", "description", "parameters", "origin", "kind");
      assertThat(m.get("kind")).isEqualTo("hardware-model");
      for (Map<String, Object> p : (List<Map<String, Object>>) m.get("parameters")) {
        assertThat(p).containsKeys("name", "type", "default", "allowed");
      }
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void policies_json_holdsProfilesWithTheirPluginsAndIlbSelectors() {
    Map<String, Object> json =
        JsonParser.object(Invocation.of("policies", "--format", "json").assertOk().out());
    List<Map<String, Object>> policies = (List<Map<String, Object>>) json.get("policies");
    Map<String, Object> mainline73 =
        policies.stream()
            .filter(p -> p.get("id").equals("profile.mainline-7.3"))
            .findFirst()
            .orElseThrow();
    assertThat((List<String>) mainline73.get("plugins"))
        .anyMatch(p -> p.startsWith("fair.ilb.idle-core"));
    assertThat(policies)
        .extracting(p -> p.get("id"))
        .contains("fair.ilb.first-idle", "fair.ilb.idle-core", "ext.smt-buddy.push")
        .doesNotContain("hw.vera", "wl.gemm");
  }

  @Test
  void workloads_text_listsGemmAndItsAffinityParameter() {
    String out = Invocation.of("workloads").assertOk().out();
    assertThat(out).contains("wl.gemm", "affinity", "wl.hackbench");
    assertThat(out).doesNotContainPattern("(?m)^hw\\.");
  }

  @Test
  void badFormat_oneLineNamingTheChoices_exitTwo() {
    Invocation.of("machines", "--format", "yaml").assertBadInput("yaml", "text", "json");
  }
}
