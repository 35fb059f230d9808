package dev.schedlab.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.JsonParser;
import dev.schedlab.oracle.report.OracleReport;
import dev.schedlab.oracle.report.OracleRow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The kernel report prints the oracle's rows as {@code compare} prints its figures: a table per
 * section with kernel, simulator and their ratio, JSON with numbers and ratios, one CSV line per
 * row.
 */
final class KernelReportTest {

  private static KernelReport report() {
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put("shape", "1s1d2c1t");
    facts.put("accelerator", "tcg");
    return new KernelReport(
        new OracleReport(
            facts,
            List.of(
                OracleRow.text("domains", "span", "equal", "equal"),
                OracleRow.figure("balancing per s", "MC busy lb_count", 20, 30, 2),
                OracleRow.figure("balancing per s", "MC idle lb_count", 40, 0, 2))),
        List.of("cpu 1 MC: span 0-1 vs 1"));
  }

  @Test
  void table_factsThenSectionsWithRatioAndMarks() {
    String table = report().table();
    assertThat(table).startsWith("shape: 1s1d2c1t\naccelerator: tcg\n");
    assertThat(table)
        .contains("balancing per s   kernel  simulator  sim/kernel")
        .containsPattern("MC busy lb_count\\s+20\\s+30\\s+1\\.50\\n")
        .containsPattern("MC idle lb_count\\s+40\\s+0\\s+0\\.00\\s+differs")
        .contains("differences:\n  cpu 1 MC: span 0-1 vs 1");
  }

  @Test
  @SuppressWarnings("unchecked")
  void json_rowsCarryNumbersAndRatio() {
    Map<String, Object> json = JsonParser.object(Json.pretty(report().json()));
    assertThat(json).containsEntry("agrees", false);
    List<Map<String, Object>> rows = (List<Map<String, Object>>) json.get("rows");
    assertThat(rows.get(1))
        .containsEntry("kernel_value", 20.0)
        .containsEntry("simulator_value", 30.0)
        .containsEntry("ratio", 1.5)
        .containsEntry("agrees", true);
    assertThat(rows.get(0)).containsEntry("kernel_value", null).containsEntry("ratio", null);
  }

  @Test
  void csv_oneLinePerRow() {
    assertThat(report().csv().lines().toList())
        .containsExactly(
            "section,item,kernel,simulator,kernel_value,simulator_value,ratio,agrees",
            "domains,span,equal,equal,,,,true",
            "balancing per s,MC busy lb_count,20,30,20,30,1.5,true",
            "balancing per s,MC idle lb_count,40,0,40,0,0,false");
  }
}
