package dev.schedlab.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sweep --engine spark} on a {@code local[2]} master (two attempts per task) prints the
 * local sweep's CSV and table, apart from the engine-speed figures, with each cell one task; a cell
 * given bad input fails the job with its one-line message and is not retried; a failed attempt is
 * retried and changes nothing; a sweep resumes from its rows file, CSV or Parquet, and the Parquet
 * rows read back with Spark SQL.
 */
final class SparkSweepEngineTest {

  /** Two variants × two worker counts × two seeds: eight cells. */
  private static final List<String> SWEEP =
      List.of(
          "sweep",
          "--machine",
          "hw.shape",
          "-M",
          "shape=1n1l4c2t",
          "--duration",
          "10ms",
          "--variant",
          "old=mainline-7.1",
          "--variant",
          "new=mainline-7.3",
          "--seeds",
          "1..2",
          "-W",
          "workers=2,4",
          "--metric",
          "workload_wakeup_p999_us");

  private static final int CELLS = 8;

  private static SparkSession spark;
  private static final TaskCounter TASKS = new TaskCounter();

  @BeforeAll
  static void startSpark() {
    spark =
        SparkSession.builder()
            .master("local[2,2]")
            .appName("sweep-spark tests")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .getOrCreate();
    spark.sparkContext().addSparkListener(TASKS);
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @BeforeEach
  void resetCounters() {
    resetCountersQuietly();
  }

  /**
   * {@link #SWEEP} on {@code workload} with {@code more}: an option or {@code -W} key given twice
   * is an error, so {@code --seeds} and {@code -W workers=} in {@code more} replace the base's.
   */
  private static List<String> args(String workload, String... more) {
    List<String> args = new ArrayList<>(SWEEP);
    args.addAll(List.of("--workload", workload));
    for (int i = 0; i < more.length; i++) {
      boolean seeds = more[i].equals("--seeds");
      boolean workers =
          more[i].equals("-W") && i + 1 < more.length && more[i + 1].startsWith("workers=");
      if (seeds || workers) {
        int at = seeds ? args.indexOf("--seeds") + 1 : args.indexOf("workers=2,4");
        args.set(at, more[++i]);
      } else {
        args.add(more[i]);
      }
    }
    return args;
  }

  private static int tasksSucceeded() {
    settle();
    return TASKS.succeeded();
  }

  /** The CSV without the engine-speed rows, the one figure that depends on wall time. */
  private static String csvWithoutTiming(String csv) {
    return csv.lines()
        .filter(l -> !l.contains(",sim_seconds_per_wall_second,"))
        .collect(Collectors.joining("\n"));
  }

  /**
   * The table without the engine-speed row; its width sets the columns' padding, so runs of spaces
   * count as one.
   */
  private static String tableWithoutTiming(String table) {
    return table
        .lines()
        .filter(l -> !l.startsWith("engine: simulated s per wall s"))
        .map(l -> l.replaceAll(" +", " "))
        .collect(Collectors.joining("\n"));
  }

  @Test
  void localAndSpark_sameCsvAndTableApartFromEngineSpeed_oneTaskPerCell() {
    String local =
        Invocation.of(args("wl.schbench", "--engine", "local", "--quiet")).assertOk().out();
    String onSpark =
        Invocation.of(args("wl.schbench", "--engine", "spark", "--quiet")).assertOk().out();
    assertThat(tasksSucceeded()).isEqualTo(CELLS);
    assertThat(onSpark.lines().count()).isEqualTo(local.lines().count());
    assertThat(csvWithoutTiming(onSpark)).isEqualTo(csvWithoutTiming(local));

    String localTable =
        Invocation.of(args("wl.schbench", "--format", "table", "--quiet")).assertOk().out();
    String sparkTable =
        Invocation.of(args("wl.schbench", "--format", "table", "--quiet", "--engine", "spark"))
            .assertOk()
            .out();
    assertThat(tableWithoutTiming(sparkTable))
        .isEqualTo(tableWithoutTiming(localTable))
        .contains("paired by seed");
  }

  @Test
  void cellWithBadInput_failsTheJobWithItsOneLineMessage_notRetried() {
    // Each value is in range, so the driver's checks pass; schbench refuses the product (100.1
    // million tasks) when a cell creates it.
    List<String> args =
        args(
            "wl.schbench",
            "--engine",
            "spark",
            "-W",
            "message_threads=100000",
            "-W",
            "workers=1000");
    Invocation run = Invocation.of(args).assertBadInput("message_threads", "10000000");
    assertThat(run.err()).doesNotContain("retries");
    settle();
    assertThat(TASKS.failed()).as("attempts that failed and were retried").isZero();
  }

  @Test
  void failedAttempt_isRetried_andTheRowsAreThoseOfARunWithoutFailures() {
    int before = FlakyWorkloadProvider.FAILED_FIRST_ATTEMPTS.get();
    Invocation onSpark = Invocation.of(args("test.flaky", "--engine", "spark"));
    assertThat(onSpark.exitCode()).as(onSpark.err()).isZero();
    assertThat(FlakyWorkloadProvider.FAILED_FIRST_ATTEMPTS.get() - before).isEqualTo(CELLS);
    // Progress and a line per failed attempt on stderr (not a terminal: the last line only).
    assertThat(onSpark.errLines()).filteredOn(l -> l.contains("Spark retries it")).hasSize(CELLS);
    assertThat(onSpark.errLines().get(onSpark.errLines().size() - 1))
        .startsWith("schedlab: " + CELLS + "/" + CELLS + " cells done")
        .contains("cells/s", "(" + CELLS + " attempts retried)");
    // Outside Spark the workload never fails: the rows are the same.
    String local = Invocation.of(args("test.flaky", "--quiet")).assertOk().out();
    assertThat(csvWithoutTiming(onSpark.out())).isEqualTo(csvWithoutTiming(local));
  }

  @Test
  void resume_runsOnlyTheCellsMissingFromTheRowsFile_sameSummary(@TempDir Path dir)
      throws IOException {
    Path full = dir.resolve("full.csv");
    String complete =
        Invocation.of(
                args("wl.schbench", "--engine", "spark", "--quiet", "--rows", full.toString()))
            .assertOk()
            .out();
    List<String> lines = Files.readAllLines(full, StandardCharsets.UTF_8);
    // The sweep's two # lines, the header and a row per cell.
    assertThat(lines).hasSize(2 + 1 + CELLS);
    assertThat(lines.get(1)).startsWith("# scenario {");
    // A run stopped after three rows and in the middle of the fourth.
    Path partial = dir.resolve("partial.csv");
    Files.writeString(
        partial,
        String.join("\n", lines.subList(0, 2 + 4))
            + "\n"
            + lines.get(2 + 4).substring(0, lines.get(2 + 4).length() / 2),
        StandardCharsets.UTF_8);
    resetCountersQuietly();
    String resumed =
        Invocation.of(
                args("wl.schbench", "--engine", "spark", "--quiet", "--resume", partial.toString()))
            .assertOk()
            .out();
    assertThat(tasksSucceeded()).isEqualTo(CELLS - 3);
    assertThat(csvWithoutTiming(resumed)).isEqualTo(csvWithoutTiming(complete));
    List<String> after = Files.readAllLines(partial, StandardCharsets.UTF_8);
    assertThat(after)
        .hasSize(2 + 1 + CELLS)
        .startsWith(lines.subList(0, 2 + 4).toArray(String[]::new));
    assertThat(after.stream().skip(2 + 1).map(l -> l.split(",")[1]).sorted().toList())
        .containsExactly("0", "1", "2", "3", "4", "5", "6", "7");
  }

  @Test
  void parquetRows_readBackWithSparkSql_andResumeFromThem(@TempDir Path dir) {
    Path rows = dir.resolve("rows.parquet");
    String summary =
        Invocation.of(
                args("wl.schbench", "--engine", "spark", "--quiet", "--rows", rows.toString()))
            .assertOk()
            .out();
    // Only the cells count as the sweep's tasks, not the Parquet appends beside them.
    assertThat(tasksSucceeded()).isEqualTo(CELLS);
    Dataset<Row> frame = spark.read().parquet(rows.toString());
    assertThat(frame.count()).isEqualTo(CELLS);
    assertThat(frame.schema().apply("throughput").dataType().typeName()).isEqualTo("double");
    frame.createOrReplaceTempView("sweep_rows");
    // The mean over seeds per variant and workers, as the summary's throughput rows have it.
    List<Row> means =
        spark
            .sql(
                "SELECT variant, workers, avg(throughput) FROM sweep_rows"
                    + " GROUP BY variant, workers")
            .collectAsList();
    assertThat(means).hasSize(4);
    for (Row mean : means) {
      String prefix =
          "hw.shape,wl.schbench,"
              + mean.getString(0)
              + ","
              + mean.getString(1)
              + ",p99_wakeup_latency,";
      String line = summary.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
      double printed = Double.parseDouble(line.split(",")[7]);
      assertThat(printed)
          .isCloseTo(
              mean.getDouble(2),
              org.assertj.core.api.Assertions.within(1e-5 * Math.max(1, Math.abs(printed))));
    }
    resetCountersQuietly();
    String resumed =
        Invocation.of(
                args("wl.schbench", "--engine", "spark", "--quiet", "--resume", rows.toString()))
            .assertOk()
            .out();
    assertThat(tasksSucceeded()).isZero();
    assertThat(resumed).isEqualTo(summary);
  }

  @Test
  void parquetRows_existing_refused(@TempDir Path dir) {
    Path rows = dir.resolve("rows.parquet");
    Invocation.of(
            args(
                "wl.schbench",
                "--engine",
                "spark",
                "--quiet",
                "--seeds",
                "1",
                "--rows",
                rows.toString()))
        .assertOk();
    Invocation.of(
            args(
                "wl.schbench",
                "--engine",
                "spark",
                "--quiet",
                "--seeds",
                "1",
                "--rows",
                rows.toString()))
        .assertBadInput("already exists", "--resume");
  }

  /** Waits until Spark has delivered every listener event so far (they arrive asynchronously). */
  private static void settle() {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (Exception e) {
      throw new IllegalStateException("Spark's listener bus did not drain", e);
    }
  }

  private static void resetCountersQuietly() {
    settle();
    TASKS.reset();
  }
}
