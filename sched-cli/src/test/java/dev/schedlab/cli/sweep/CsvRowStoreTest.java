package dev.schedlab.cli.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.args.ScenarioOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CSV rows file holds each row as written and reads it back exactly (every double bit for bit,
 * unreported metrics apart from NaN), drops a last line cut short, and refuses rows of another
 * sweep and files it would overwrite.
 */
final class CsvRowStoreTest {

  private static SweepPlan plan(String affinity) {
    ScenarioOptions options = new ScenarioOptions();
    options.machine = "hw.shape";
    options.workload = "wl.schbench";
    Map<String, List<String>> grid = new LinkedHashMap<>();
    // A value with a comma: the CSV quotes it.
    grid.put("affinity", List.of(affinity, "0-7"));
    return new SweepPlan(
        options,
        grid,
        List.of("a=mainline-7.1"),
        List.of(1L, 2L),
        List.of("throughput", "busy_pct", "workload_wakeup_p999_us"));
  }

  private static SweepRow row(long cell, double throughput, boolean reported) {
    BitSet missing = new BitSet();
    if (!reported) {
      missing.set(2);
    }
    return new SweepRow(
        cell,
        "p99_wakeup_latency",
        "us",
        false,
        // A reported NaN stays apart from an unreported figure.
        new double[] {throughput, 1.0 / 3, Double.NaN},
        missing,
        reported ? List.of("workload_wakeup_p999_us", "plugin_x.y") : List.of());
  }

  @Test
  void rows_readBackExactly(@TempDir Path dir) {
    Path file = dir.resolve("rows.csv");
    SweepPlan plan = plan("0-3,8");
    try (CsvRowStore store = CsvRowStore.open(file, plan, false)) {
      store.write(row(2, 123456789.125, true));
      store.write(row(0, -0.0, false));
    }
    try (CsvRowStore store = CsvRowStore.open(file, plan, true)) {
      List<SweepRow> stored = store.stored();
      assertThat(stored).hasSize(2);
      SweepRow first = stored.get(0);
      assertThat(first.cell()).isEqualTo(2);
      assertThat(first.values()).containsExactly(123456789.125, 1.0 / 3, Double.NaN);
      assertThat(first.missing().isEmpty()).isTrue();
      assertThat(first.reported()).containsExactly("workload_wakeup_p999_us", "plugin_x.y");
      assertThat(first.throughputMetric()).isEqualTo("p99_wakeup_latency");
      assertThat(first.higherIsBetter()).isFalse();
      SweepRow second = stored.get(1);
      assertThat(Double.doubleToRawLongBits(second.value(0)))
          .isEqualTo(Double.doubleToRawLongBits(-0.0));
      assertThat(second.missing().get(2)).isTrue();
      assertThat(second.reported()).isEmpty();
    }
  }

  @Test
  void preamble_startsANewFile_skippedOnResume_notWrittenTwice(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("rows.csv");
    SweepPlan plan = plan("0-3,8");
    String preamble = "# schedlab {\"version\":\"x\"}\n# scenario {\"command\":\"sweep\"}\n";
    try (CsvRowStore store = CsvRowStore.open(file, plan, false, preamble)) {
      store.write(row(1, 2, true));
    }
    try (CsvRowStore store = CsvRowStore.open(file, plan, true, preamble)) {
      assertThat(store.stored()).extracting(SweepRow::cell).containsExactly(1L);
      store.write(row(0, 1, true));
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    assertThat(text).startsWith(preamble + String.join(",", RowColumns.header(plan)) + "\n");
    assertThat(text.split("\n")).hasSize(5);

    // Stopped after the # lines, before the header: the header follows them on resume.
    Path early = dir.resolve("early.csv");
    Files.writeString(early, preamble, StandardCharsets.UTF_8);
    try (CsvRowStore store = CsvRowStore.open(early, plan, true, preamble)) {
      assertThat(store.stored()).isEmpty();
    }
    assertThat(Files.readString(early, StandardCharsets.UTF_8))
        .isEqualTo(preamble + String.join(",", RowColumns.header(plan)) + "\n");
  }

  @Test
  void lastLineCutShort_droppedBeforeAppending(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("rows.csv");
    SweepPlan plan = plan("0-3,8");
    try (CsvRowStore store = CsvRowStore.open(file, plan, false)) {
      store.write(row(0, 1, true));
      store.write(row(1, 2, true));
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Files.writeString(file, text.substring(0, text.length() - 10), StandardCharsets.UTF_8);
    try (CsvRowStore store = CsvRowStore.open(file, plan, true)) {
      assertThat(store.stored()).extracting(SweepRow::cell).containsExactly(0L);
      store.write(row(1, 2, true));
    }
    assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(text);
  }

  @Test
  void anotherSweepsRows_refused(@TempDir Path dir) {
    Path file = dir.resolve("rows.csv");
    try (CsvRowStore store = CsvRowStore.open(file, plan("0-3,8"), false)) {
      store.write(row(0, 1, true));
    }
    assertThatThrownBy(() -> CsvRowStore.open(file, plan("0-3"), true))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("another sweep");
  }

  @Test
  void existingFile_refusedForANewSweep_missingOneForAResume(@TempDir Path dir) {
    Path file = dir.resolve("rows.csv");
    CsvRowStore.open(file, plan("0-3,8"), false).close();
    assertThatThrownBy(() -> CsvRowStore.open(file, plan("0-3,8"), false))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("--resume");
    assertThatThrownBy(() -> CsvRowStore.open(dir.resolve("none.csv"), plan("0-3,8"), true))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("no such file");
    assertThatThrownBy(() -> CsvRowStore.open(dir.resolve("r.parquet"), plan("0-3,8"), false))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("--engine spark");
  }
}
