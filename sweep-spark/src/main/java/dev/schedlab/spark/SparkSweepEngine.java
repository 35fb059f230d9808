package dev.schedlab.spark;

import com.google.auto.service.AutoService;
import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.sweep.RowStore;
import dev.schedlab.cli.sweep.SweepContext;
import dev.schedlab.cli.sweep.SweepEngine;
import dev.schedlab.cli.sweep.SweepPlan;
import dev.schedlab.cli.sweep.SweepRow;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.spark.SimpleFutureAction;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.SparkSession;
import scala.collection.immutable.Range;
import scala.runtime.AbstractFunction0;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * {@code sweep --engine spark}: each cell one Spark task. The plan is broadcast once and a task
 * derives its cell from its number, so the grid is never listed on the driver; rows come back to
 * the driver as their tasks finish and go to the rows file at once. A failed task is retried by
 * Spark (up to {@code spark.task.maxFailures}, 4 on the embedded master too); a cell given bad
 * input cancels the job and the sweep fails with that cell's one-line message.
 *
 * <p>Under spark-submit the session is the cluster's; otherwise ({@code ./schedlab sweep --engine
 * spark}) an embedded {@code local[*]} master in this JVM ({@code local[N]} with {@code --threads
 * N}), listening on the loopback address only.
 */
@AutoService(SweepEngine.class)
public final class SparkSweepEngine implements SweepEngine {

  /** The most cells one Spark sweep may have: the driver keeps one row per cell. */
  static final long MAX_CELLS = 1_000_000;

  /** The most tasks one Spark job gets: larger sweeps run as consecutive jobs of this size. */
  static final int WAVE = 100_000;

  private SparkSessions sessions;

  @Override
  public String id() {
    return "spark";
  }

  @Override
  public long maxCells() {
    return MAX_CELLS;
  }

  @Override
  public RowStore rows(Path path, SweepPlan plan, boolean resume, SweepContext context) {
    if (path.toString().endsWith(".parquet")) {
      return ParquetRowStore.open(session(context.threads()), path, plan, resume);
    }
    return SweepEngine.super.rows(path, plan, resume, context);
  }

  @Override
  public void run(SweepPlan plan, BitSet done, Consumer<SweepRow> rows, SweepContext context) {
    runCells(session(context.threads()), plan, done, rows, context);
  }

  @Override
  public void close() {
    if (sessions != null) {
      sessions.stopIfOwned();
      sessions = null;
    }
  }

  private SparkSession session(Integer threads) {
    if (sessions == null) {
      sessions = SparkSessions.start(threads);
    }
    return sessions.session();
  }

  private static void runCells(
      SparkSession spark,
      SweepPlan plan,
      BitSet done,
      Consumer<SweepRow> rows,
      SweepContext context) {
    long remaining = plan.cellCount() - done.cardinality();
    if (remaining == 0) {
      return;
    }
    SparkContext sc = spark.sparkContext();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
    long[] todo = null;
    if (!done.isEmpty()) {
      todo = new long[(int) remaining];
      int k = 0;
      for (int cell = done.nextClearBit(0);
          cell < plan.cellCount();
          cell = done.nextClearBit(cell + 1)) {
        todo[k++] = cell;
      }
    }
    Broadcast<SweepPlan> planBroadcast = jsc.broadcast(plan);
    Broadcast<long[]> todoBroadcast = todo == null ? null : jsc.broadcast(todo);
    String group = "schedlab-sweep-" + UUID.randomUUID();
    SweepProgress progress =
        new SweepProgress(group, context.err(), context.interactive(), context.quiet(), remaining);
    sc.addSparkListener(progress);
    try {
      // One partition, and so one task, per cell.
      RDD<Object> positions = sc.range(0, remaining, 1, Math.toIntExact(remaining));
      CellTask task = new CellTask(planBroadcast, todoBroadcast);
      for (int from = 0; from < remaining; from += WAVE) {
        int until = (int) Math.min(remaining, (long) from + WAVE);
        runWave(
            sc,
            positions,
            task,
            from,
            until,
            rows,
            group,
            "schedlab sweep "
                + plan.id()
                + ": cells "
                + from
                + "-"
                + (until - 1)
                + " of "
                + remaining);
      }
      progress.finish();
    } finally {
      sc.removeSparkListener(progress);
      planBroadcast.destroy();
      if (todoBroadcast != null) {
        todoBroadcast.destroy();
      }
    }
  }

  /** Runs partitions {@code from} to {@code until} as one job, handing rows over as they come. */
  private static void runWave(
      SparkContext sc,
      RDD<Object> positions,
      CellTask task,
      int from,
      int until,
      Consumer<SweepRow> rows,
      String group,
      String description) {
    LinkedBlockingQueue<CellResult[]> arrived = new LinkedBlockingQueue<>();
    // The group marks the job for the progress listener; it is cleared at once, so that the
    // Parquet appends this thread makes while the job runs are not counted as cells.
    sc.setJobGroup(group, description, true);
    SimpleFutureAction<BoxedUnit> job;
    try {
      job =
          sc.submitJob(
              positions,
              task,
              new Range.Exclusive(from, until, 1),
              new Arrival(arrived),
              new Unit());
    } finally {
      sc.clearJobGroup();
    }
    try {
      while (true) {
        CellResult[] results = arrived.poll(100, TimeUnit.MILLISECONDS);
        if (results != null) {
          for (CellResult result : results) {
            if (result.badInput() != null) {
              job.cancel();
              throw new BadInputException(result.badInput());
            }
            rows.accept(result.row());
          }
        } else if (job.isCompleted() && arrived.isEmpty()) {
          break;
        }
      }
      job.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      job.cancel();
      throw new IllegalStateException("interrupted while the sweep ran", e);
    } catch (SparkException e) {
      throw new IllegalStateException("a cell failed on every attempt: " + firstLine(e), e);
    }
  }

  /** Spark's job failure names the task, attempt and exception on its first line. */
  private static String firstLine(Throwable e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  /** The driver's side of each finished task: its results, queued for the sweep's thread. */
  private static final class Arrival extends AbstractFunction2<Object, CellResult[], BoxedUnit> {

    private final LinkedBlockingQueue<CellResult[]> arrived;

    Arrival(LinkedBlockingQueue<CellResult[]> arrived) {
      this.arrived = arrived;
    }

    @Override
    public BoxedUnit apply(Object partition, CellResult[] results) {
      // Called on Spark's scheduler thread: hand over and return, never block or write here.
      arrived.add(results);
      return BoxedUnit.UNIT;
    }
  }

  /** The job's overall result: nothing beyond the rows. */
  private static final class Unit extends AbstractFunction0<BoxedUnit> {
    @Override
    public BoxedUnit apply() {
      return BoxedUnit.UNIT;
    }
  }
}
