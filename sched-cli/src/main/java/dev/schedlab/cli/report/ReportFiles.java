package dev.schedlab.cli.report;

import dev.schedlab.cli.args.BadInputException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes report files so that none is ever left half-written: each goes to a temporary file
 * beside its target and is moved into place only when every file of the run is complete. Targets
 * are checked before a run starts, so a bad path costs no simulation time.
 */
public final class ReportFiles {

  /** Writes a report's content. */
  @FunctionalInterface
  public interface Content {
    void writeTo(Writer out) throws IOException;
  }

  private ReportFiles() {}

  /**
   * Checks that {@code target} can be created: it is not a directory, and its directory exists
   * or can be created as {@link #checkDirectory} allows (its own parent exists), so that {@code
   * --schedstat out/ --trace out/run.json} works in a fresh directory.
   *
   * @param option the option naming it, for the message
   */
  public static Path checkFile(String option, String target) {
    Path path = Path.of(target).toAbsolutePath().normalize();
    if (Files.isDirectory(path)) {
      throw new BadInputException(option + " " + target + ": is a directory; expected a file name");
    }
    Path parent = path.getParent();
    Path existing = parent == null || Files.isDirectory(parent) ? parent : parent.getParent();
    if (existing == null || Files.exists(parent) && !Files.isDirectory(parent)
        || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
      throw new BadInputException(
          option + " " + target + ": directory " + parent
              + " does not exist and cannot be created, or is not writable");
    }
    return path;
  }

  /**
   * Checks that {@code target} is a writable directory or can be created as one (its parent
   * exists).
   */
  public static Path checkDirectory(String option, String target) {
    Path path = Path.of(target).toAbsolutePath().normalize();
    if (Files.exists(path) && !Files.isDirectory(path)) {
      throw new BadInputException(option + " " + target + ": exists and is not a directory");
    }
    Path existing = Files.isDirectory(path) ? path : path.getParent();
    if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
      throw new BadInputException(
          option + " " + target + ": cannot create it (" + existing
              + " does not exist or is not writable)");
    }
    return path;
  }

  /** Writes {@code text} to {@code target} through a temporary file. */
  static void write(Path target, String text) {
    try (Batch batch = new Batch()) {
      batch.stage(target, out -> out.write(text));
      batch.commit();
    }
  }

  /**
   * Several report files written together: each is staged in a temporary file beside its target,
   * and only when every one is complete are they all moved into place. Closing without {@link
   * #commit()} deletes what was staged.
   */
  public static final class Batch implements AutoCloseable {
    private final List<Path> temps = new ArrayList<>();
    private final List<Path> targets = new ArrayList<>();

    /** Stages {@code content} for {@code target}, creating its directory if needed. */
    public void stage(Path target, Content content) {
      try {
        Files.createDirectories(target.getParent());
        // Not Files.createTempFile: its owner-only permissions would stick to the report.
        Path temp = target.resolveSibling("." + target.getFileName() + "."
            + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        temps.add(temp);
        targets.add(target);
        try (Writer out = new BufferedWriter(Files.newBufferedWriter(temp,
            StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            1 << 16)) {
          content.writeTo(out);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
      }
    }

    /** Moves every staged file into place. */
    public void commit() {
      try {
        for (int i = 0; i < temps.size(); i++) {
          move(temps.get(i), targets.get(i));
        }
        temps.clear();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write report files: " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {
      for (Path temp : temps) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException ignored) {
          // The failure that got us here is what the user needs to see.
        }
      }
    }
  }

  private static void move(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
