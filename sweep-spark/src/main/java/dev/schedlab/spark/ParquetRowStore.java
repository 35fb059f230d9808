package dev.schedlab.spark;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.sweep.RowColumns;
import dev.schedlab.cli.sweep.RowStore;
import dev.schedlab.cli.sweep.SweepPlan;
import dev.schedlab.cli.sweep.SweepRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A rows file in Parquet: a directory as Spark writes one ({@code rows.parquet/part-*.parquet}),
 * with the columns of {@link RowColumns} typed (integers as long, metrics as nullable double), so
 * that Spark SQL or pandas read a big sweep directly. Finished rows are appended as a new part
 * every {@value #BATCH_ROWS} rows or {@value #BATCH_SECONDS} seconds, and at the end; each append
 * is committed whole, so a sweep cut short leaves the parts written until then, from which {@code
 * --resume} continues.
 */
final class ParquetRowStore implements RowStore {

  /** Rows per appended part, at most. */
  static final int BATCH_ROWS = 1000;

  /** Seconds a finished row waits at most before it is written. */
  static final int BATCH_SECONDS = 30;

  private final SparkSession spark;
  private final Path path;
  private final SweepPlan plan;
  private final StructType schema;
  private final List<SweepRow> stored;
  private final List<Row> pending = new ArrayList<>();
  private long pendingSinceNs;

  private ParquetRowStore(SparkSession spark, Path path, SweepPlan plan, List<SweepRow> stored) {
    this.spark = spark;
    this.path = path;
    this.plan = plan;
    this.schema = schema(plan);
    this.stored = stored;
  }

  /**
   * Opens the directory {@code path}: with {@code resume}, reads the rows there; otherwise starts a
   * new one, refusing a directory that has rows.
   *
   * @throws BadInputException for a missing directory to resume, an existing one to start, or rows
   *     that belong to another sweep
   */
  static ParquetRowStore open(SparkSession spark, Path path, SweepPlan plan, boolean resume) {
    String option = (resume ? "--resume " : "--rows ") + path;
    boolean exists = Files.exists(path) && !isEmptyDirectory(path);
    if (resume && !exists) {
      throw new BadInputException(option + ": no rows there; start the sweep with --rows " + path);
    }
    if (!resume && exists) {
      throw new BadInputException(
          option + ": already exists; continue it with --resume " + path + " or remove it");
    }
    List<SweepRow> stored = resume ? read(spark, path, plan, option) : List.of();
    return new ParquetRowStore(spark, path, plan, stored);
  }

  private static boolean isEmptyDirectory(Path path) {
    try (Stream<Path> entries = Files.list(path)) {
      return entries.findAny().isEmpty();
    } catch (IOException e) {
      return false;
    }
  }

  /** The Parquet columns: {@link RowColumns#header} with their types. */
  static StructType schema(SweepPlan plan) {
    List<String> header = RowColumns.header(plan);
    int gridKeys = plan.grid().size();
    List<StructField> fields = new ArrayList<>();
    for (int i = 0; i < header.size(); i++) {
      DataType type;
      if (i == 1 || i == 3) {
        type = DataTypes.LongType;
      } else if (i == 4 + gridKeys + 2) {
        type = DataTypes.BooleanType;
      } else if (i >= 4 + gridKeys + 4) {
        type = DataTypes.DoubleType;
      } else {
        type = DataTypes.StringType;
      }
      fields.add(DataTypes.createStructField(header.get(i), type, true));
    }
    return DataTypes.createStructType(fields);
  }

  private static List<SweepRow> read(SparkSession spark, Path path, SweepPlan plan, String where) {
    StructType schema = schema(plan);
    List<Row> rows;
    try {
      var frame = spark.read().parquet(path.toString());
      if (!Arrays.equals(frame.schema().fieldNames(), schema.fieldNames())) {
        throw new BadInputException(
            where
                + ": its columns are not this sweep's ("
                + String.join(",", schema.fieldNames())
                + "); resume with the arguments that wrote"
                + " it");
      }
      rows = frame.collectAsList();
    } catch (BadInputException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new BadInputException(where + ": not readable as Parquet: " + e.getMessage(), e);
    }
    int gridKeys = plan.grid().size();
    int at = 4 + gridKeys;
    int metrics = plan.metrics().size();
    List<SweepRow> stored = new ArrayList<>();
    for (Row row : rows) {
      long cell = row.getLong(1);
      List<String> point = new ArrayList<>();
      for (int g = 0; g < gridKeys; g++) {
        point.add(row.getString(4 + g));
      }
      RowColumns.verify(
          plan, where, row.getString(0), cell, row.getString(2), row.getLong(3), point);
      double[] values = new double[metrics];
      BitSet missing = new BitSet();
      for (int m = 0; m < metrics; m++) {
        if (row.isNullAt(at + 4 + m)) {
          missing.set(m);
          values[m] = Double.NaN;
        } else {
          values[m] = row.getDouble(at + 4 + m);
        }
      }
      String reported = row.getString(at + 3);
      stored.add(
          new SweepRow(
              cell,
              row.getString(at),
              row.getString(at + 1),
              row.getBoolean(at + 2),
              values,
              missing,
              reported.isEmpty() ? List.of() : List.of(reported.split(";"))));
    }
    return stored;
  }

  @Override
  public List<SweepRow> stored() {
    return stored;
  }

  @Override
  public void write(SweepRow row) {
    List<String> text = RowColumns.cells(plan, row);
    Object[] values = new Object[text.size()];
    int at = 4 + plan.grid().size();
    for (int i = 0; i < values.length; i++) {
      values[i] = text.get(i);
    }
    values[1] = row.cell();
    values[3] = Long.parseLong(text.get(3));
    values[at + 2] = row.higherIsBetter();
    for (int m = 0; m < plan.metrics().size(); m++) {
      values[at + 4 + m] = row.missing().get(m) ? null : row.value(m);
    }
    if (pending.isEmpty()) {
      pendingSinceNs = System.nanoTime();
    }
    pending.add(RowFactory.create(values));
    if (pending.size() >= BATCH_ROWS
        || System.nanoTime() - pendingSinceNs >= BATCH_SECONDS * 1_000_000_000L) {
      flush();
    }
  }

  private void flush() {
    if (pending.isEmpty()) {
      return;
    }
    try {
      spark
          .createDataFrame(pending, schema)
          .coalesce(1)
          .write()
          .mode(SaveMode.Append)
          .parquet(path.toString());
    } catch (RuntimeException e) {
      throw new UncheckedIOException(new IOException("--rows " + path + ": " + e.getMessage(), e));
    }
    pending.clear();
  }

  @Override
  public void close() {
    flush();
  }
}
