package dev.schedlab.cli.report;

import java.nio.file.Path;

/**
 * Where one report goes, as {@link ReportFiles#checkFile} classified it before the run.
 *
 * @param option the option that named it ({@code --html}), for messages
 * @param given the path as the user wrote it
 * @param path the file to replace or the stream to open; null for {@link Kind#STDOUT}
 * @param kind how it is written
 */
public record ReportTarget(String option, String given, Path path, Kind kind) {

  /** How a report reaches its target. */
  public enum Kind {
    /**
     * A regular file, absent or present: written to a temporary file beside it and renamed over it
     * when every report of the run is complete.
     */
    FILE,
    /** A character device or a FIFO: opened and written, never replaced. */
    STREAM,
    /** {@code -} or this process's stdout: written in place of the summary. */
    STDOUT
  }

  /** The option and the path as given: {@code --html out.html}. */
  public String describe() {
    return option + " " + given;
  }
}
