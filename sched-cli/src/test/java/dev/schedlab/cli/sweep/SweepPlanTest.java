package dev.schedlab.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.args.ScenarioOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A plan numbers its cells as the sweep's nested loops visit them (grid points with the first key
 * slowest, then variants, then seeds) and derives any cell from its number alone.
 */
final class SweepPlanTest {

  private static SweepPlan plan(List<Long> seeds) {
    ScenarioOptions options = new ScenarioOptions();
    options.machine = "hw.shape";
    options.workload = "wl.schbench";
    Map<String, List<String>> grid = new LinkedHashMap<>();
    grid.put("M.shape", List.of("1n1l4c2t", "1n1l8c2t"));
    grid.put("workers", List.of("2", "4", "8"));
    grid.put("E.ipi_latency", List.of("1us"));
    return new SweepPlan(
        options,
        grid,
        List.of("a=mainline-7.1", "b=mainline-7.3"),
        seeds,
        List.of("throughput", "busy_pct"));
  }

  @Test
  void cells_numberedPointsSlowestThenVariantsThenSeeds() {
    SweepPlan plan = plan(List.of(1L, 2L));
    assertThat(plan.pointCount()).isEqualTo(6);
    assertThat(plan.cellCount()).isEqualTo(24);
    List<String> visited = new ArrayList<>();
    for (String shape : List.of("1n1l4c2t", "1n1l8c2t")) {
      for (String workers : List.of("2", "4", "8")) {
        for (String variant : List.of("a=mainline-7.1", "b=mainline-7.3")) {
          for (long seed : List.of(1L, 2L)) {
            visited.add(shape + " " + workers + " " + variant + " " + seed);
          }
        }
      }
    }
    for (int i = 0; i < plan.cellCount(); i++) {
      SweepCell cell = plan.cell(i);
      assertThat(cell.index()).isEqualTo(i);
      assertThat(
              cell.point().get("M.shape")
                  + " "
                  + cell.point().get("workers")
                  + " "
                  + cell.variant()
                  + " "
                  + cell.seed())
          .isEqualTo(visited.get(i));
      assertThat(cell.point()).containsEntry("E.ipi_latency", "1us");
    }
    assertThat(plan.varying()).containsExactly("M.shape", "workers");
  }

  @Test
  void part_splitsAPointIntoMachineWorkloadAndEngineValues() {
    Map<String, String> point = plan(List.of(1L)).point(5);
    assertThat(SweepPlan.part(point, SweepPlan.MACHINE_PREFIX))
        .containsExactly(Map.entry("shape", "1n1l8c2t"));
    assertThat(SweepPlan.part(point, "")).containsExactly(Map.entry("workers", "8"));
    assertThat(SweepPlan.part(point, SweepPlan.ENGINE_PREFIX))
        .containsExactly(Map.entry("ipi_latency", "1us"));
  }

  @Test
  void id_sameForTheSameSweep_differsWhenTheRunsDiffer() {
    assertThat(plan(List.of(1L, 2L)).id()).isEqualTo(plan(List.of(1L, 2L)).id()).hasSize(16);
    assertThat(plan(List.of(1L, 3L)).id()).isNotEqualTo(plan(List.of(1L, 2L)).id());
  }
}
