package dev.schedlab.cli.sweep;

import java.util.List;

/**
 * A sweep's rows file: one row per finished cell, written as the cell finishes, so that a run cut
 * short can be resumed from it ({@code --resume}) and a big sweep read by other tools.
 */
public interface RowStore extends AutoCloseable {

  /** The rows the file held when it was opened (for {@code --resume}; empty otherwise). */
  List<SweepRow> stored();

  /**
   * Adds a finished cell's row.
   *
   * @throws java.io.UncheckedIOException when the file cannot be written
   */
  void write(SweepRow row);

  /** Writes what is pending and closes the file. */
  @Override
  void close();
}
