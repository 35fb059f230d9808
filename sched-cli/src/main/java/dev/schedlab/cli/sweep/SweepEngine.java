package dev.schedlab.cli.sweep;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.function.Consumer;

/**
 * What runs a sweep's cells: the command line's own thread pool ({@code --engine local}), or an
 * engine found through {@link java.util.ServiceLoader} on the class path, such as Apache Spark's
 * ({@code --engine spark}, module sweep-spark). Whatever runs them, a cell's row is a function of
 * the cell alone, so the summary printed is the same.
 */
public interface SweepEngine extends AutoCloseable {

  /** The most cells a sweep may have unless an engine says otherwise. */
  long MAX_CELLS = 100_000;

  /** The engine's name for {@code --engine}, lower case. */
  String id();

  /**
   * Runs every cell of {@code plan} whose number is not in {@code done}, handing each finished
   * cell's row to {@code rows} (one call at a time, in any order) as soon as it is there.
   *
   * @throws IllegalArgumentException when a cell's input is bad, with the one-line message
   */
  void run(SweepPlan plan, BitSet done, Consumer<SweepRow> rows, SweepContext context);

  /**
   * The rows file at {@code path} for {@code --rows} or {@code --resume}: CSV here; an engine that
   * can write another format (Parquet for Spark) chooses by the path.
   *
   * @param resume whether the rows already there are read (and the file must exist)
   * @throws IllegalArgumentException for a path this engine cannot write, or rows that belong to
   *     another sweep
   */
  default RowStore rows(Path path, SweepPlan plan, boolean resume, SweepContext context) {
    return CsvRowStore.open(path, plan, resume, context.rowsPreamble());
  }

  /** The most cells one sweep may have on this engine. */
  default long maxCells() {
    return MAX_CELLS;
  }

  /** Releases what the engine started (after the rows file is closed). */
  @Override
  default void close() {}
}
