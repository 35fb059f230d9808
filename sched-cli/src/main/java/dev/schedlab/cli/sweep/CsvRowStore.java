package dev.schedlab.cli.sweep;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.report.Csv;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A rows file in CSV ({@link RowColumns}), one line per finished cell, flushed as each is written:
 * a sweep cut short leaves every finished cell's row, and at most one line cut off, which {@code
 * --resume} drops before it appends. A new file starts with the sweep's {@code #} lines (version,
 * commit, scenario), as the sweep's CSV report does; reading skips them.
 */
public final class CsvRowStore implements RowStore {

  /** What {@link #read} found: nothing, only the {@code #} lines, or a header (and rows). */
  private enum Found {
    NEW,
    PREAMBLE_ONLY,
    HAS_ROWS
  }

  private final SweepPlan plan;
  private final List<SweepRow> stored;
  private final BufferedWriter writer;

  private CsvRowStore(SweepPlan plan, List<SweepRow> stored, BufferedWriter writer) {
    this.plan = plan;
    this.stored = stored;
    this.writer = writer;
  }

  /**
   * Opens {@code path}: with {@code resume}, reads the rows there and appends after them; otherwise
   * starts a new file, refusing to overwrite one that has rows.
   *
   * @throws BadInputException for a Parquet path, a missing file to resume, an existing one to
   *     start, or rows that belong to another sweep
   */
  public static CsvRowStore open(Path path, SweepPlan plan, boolean resume) {
    return open(path, plan, resume, "");
  }

  /**
   * As {@link #open(Path, SweepPlan, boolean)}; a new file starts with {@code preamble} ({@code #}
   * lines, each ending in a line break, or empty).
   */
  public static CsvRowStore open(Path path, SweepPlan plan, boolean resume, String preamble) {
    String option = resume ? "--resume " : "--rows ";
    if (path.toString().endsWith(".parquet")) {
      throw new BadInputException(
          option
              + path
              + ": Parquet rows need --engine spark; this"
              + " engine writes CSV (any other file name)");
    }
    try {
      List<SweepRow> stored = new ArrayList<>();
      Found fresh;
      if (resume) {
        if (!Files.isRegularFile(path)) {
          throw new BadInputException(
              option + path + ": no such file; start the sweep with" + " --rows " + path);
        }
        fresh = read(path, plan, stored, option + path);
      } else {
        if (Files.exists(path) && Files.size(path) > 0) {
          throw new BadInputException(
              option
                  + path
                  + ": already exists; continue it with"
                  + " --resume "
                  + path
                  + " or remove it");
        }
        fresh = Found.NEW;
      }
      BufferedWriter writer =
          Files.newBufferedWriter(
              path, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      if (fresh == Found.NEW) {
        writer.write(preamble);
      }
      if (fresh != Found.HAS_ROWS) {
        writer.write(Csv.line(RowColumns.header(plan)));
        writer.flush();
      }
      return new CsvRowStore(plan, List.copyOf(stored), writer);
    } catch (IOException e) {
      throw new UncheckedIOException(option + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the rows of {@code path} into {@code rows}, cutting off a last line left incomplete by a
   * run that was stopped and skipping the leading {@code #} lines; returns what it found.
   */
  private static Found read(Path path, SweepPlan plan, List<SweepRow> rows, String where)
      throws IOException {
    String text = Files.readString(path, StandardCharsets.UTF_8);
    int complete = text.lastIndexOf('\n') + 1;
    if (complete < text.length()) {
      try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
        channel.truncate(text.substring(0, complete).getBytes(StandardCharsets.UTF_8).length);
      }
    }
    String[] lines = text.substring(0, complete).split("\n", -1);
    if (complete == 0) {
      return Found.NEW;
    }
    int first = 0;
    while (first < lines.length && lines[first].startsWith("#")) {
      first++;
    }
    if (first == lines.length || lines[first].isEmpty()) {
      return Found.PREAMBLE_ONLY;
    }
    List<String> header = RowColumns.header(plan);
    if (!parseLine(lines[first]).equals(header)) {
      throw new BadInputException(
          where
              + ": its columns are not this sweep's ("
              + String.join(",", header)
              + "); resume with the arguments that wrote it");
    }
    for (int i = first + 1; i < lines.length; i++) {
      if (!lines[i].isEmpty()) {
        rows.add(RowColumns.parse(plan, parseLine(lines[i]), where + " line " + (i + 1)));
      }
    }
    return Found.HAS_ROWS;
  }

  /** The cells of one RFC 4180 line (no line breaks inside cells, as {@link Csv} writes). */
  static List<String> parseLine(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        cells.add(cell.toString());
        cell.setLength(0);
      } else if (c != '\r') {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }

  @Override
  public List<SweepRow> stored() {
    return stored;
  }

  @Override
  public void write(SweepRow row) {
    try {
      writer.write(Csv.line(RowColumns.cells(plan, row)));
      writer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("rows file: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("rows file: " + e.getMessage(), e);
    }
  }
}
