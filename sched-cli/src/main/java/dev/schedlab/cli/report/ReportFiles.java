package dev.schedlab.cli.report;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.spi.FileProblems;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes report files so that none is ever left half-written and nothing that is not a report is
 * replaced. A target that is absent or a regular file gets a temporary file beside it, moved into
 * place only when every report of the run is complete; a character device or a FIFO (a terminal,
 * {@code /dev/null}, a named pipe) is opened and written, never replaced; {@code -} and {@code
 * /dev/stdout} go to stdout. A symbolic link to a regular file replaces the file it points to and
 * keeps the link. Targets are checked before a run starts, so a bad path costs no simulation time:
 * directories, block devices, sockets and dangling links are refused, as are two reports on one
 * path and a report on one of the run's inputs.
 */
public final class ReportFiles {

  /** Writes a report's content. */
  @FunctionalInterface
  public interface Content {
    void writeTo(Writer out) throws IOException;
  }

  /** Writes a binary report's content (a Perfetto trace). */
  @FunctionalInterface
  public interface BinaryContent {
    void writeTo(OutputStream out) throws IOException;
  }

  private static final Set<String> STDOUT_NAMES =
      Set.of("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1");

  private static final int S_IFMT = 0170000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFBLK = 0060000;

  private ReportFiles() {}

  /**
   * Classifies {@code target} and checks that a report can go there: a regular file (or none yet)
   * in a directory that exists or can be created as {@link #checkDirectory} allows (its own parent
   * exists), so that {@code --schedstat out/ --trace out/run.json} works in a fresh directory; a
   * character device or FIFO it may write to; or {@code -} for stdout.
   *
   * @param option the option naming it, for the message
   */
  public static ReportTarget checkFile(String option, String target) {
    if (target.isEmpty()) {
      throw new BadInputException(
          option + " '': empty path; expected a file name, or - for stdout");
    }
    if (target.equals("-")) {
      return new ReportTarget(option, target, null, ReportTarget.Kind.STDOUT);
    }
    Path given = path(option, target);
    if (STDOUT_NAMES.contains(given.toString())) {
      return new ReportTarget(option, target, null, ReportTarget.Kind.STDOUT);
    }
    BasicFileAttributes link = attributes(given, LinkOption.NOFOLLOW_LINKS);
    if (link == null) {
      checkParent(option, target, given);
      return new ReportTarget(option, target, given, ReportTarget.Kind.FILE);
    }
    Path real = given;
    if (link.isSymbolicLink()) {
      try {
        real = given.toRealPath();
      } catch (IOException e) {
        throw new BadInputException(
            option
                + " "
                + target
                + ": a symbolic link to a file that"
                + " does not exist ("
                + FileProblems.describe(e)
                + "); give the path it should name");
      }
    }
    BasicFileAttributes file = link.isSymbolicLink() ? attributes(real) : link;
    if (file.isDirectory()) {
      throw new BadInputException(option + " " + target + ": is a directory; expected a file name");
    }
    if (file.isRegularFile()) {
      if (isDeviceTree(given)) {
        return stream(option, target, real);
      }
      checkParent(option, target, real);
      return new ReportTarget(option, target, real, ReportTarget.Kind.FILE);
    }
    int type = fileType(real);
    if (type == S_IFCHR || type == S_IFIFO) {
      return stream(option, target, real);
    }
    throw new BadInputException(
        option
            + " "
            + target
            + ": is a "
            + (type == S_IFBLK ? "block device" : "socket or other special file")
            + "; expected a regular file, a character device, a FIFO or - for stdout");
  }

  /**
   * Checks that {@code target} is a writable directory or can be created as one (its parent
   * exists).
   */
  public static Path checkDirectory(String option, String target) {
    if (target.isEmpty() || target.equals("-")) {
      throw new BadInputException(
          option
              + " '"
              + target
              + "': expected a directory name (one"
              + " file per variant goes there)");
    }
    Path path = path(option, target);
    if (Files.exists(path) && !Files.isDirectory(path)) {
      throw new BadInputException(option + " " + target + ": exists and is not a directory");
    }
    Path existing = Files.isDirectory(path) ? path : path.getParent();
    if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
      throw new BadInputException(
          option
              + " "
              + target
              + ": cannot create it ("
              + existing
              + " does not exist or is not writable)");
    }
    return path;
  }

  /**
   * Refuses two reports on one file (after following links) and a report on a file the run reads.
   *
   * @param targets every report of the run, the per-variant {@code --schedstat} files included
   * @param inputs option values that may name input files, by how the user wrote them ({@code -W
   *     file=x.json} to {@code x.json}); values naming no existing regular file are ignored
   */
  public static void checkDistinct(List<ReportTarget> targets, Map<String, String> inputs) {
    List<Path> keys = new ArrayList<>();
    for (ReportTarget t : targets) {
      keys.add(t.kind() == ReportTarget.Kind.STDOUT ? Path.of("-") : identity(t.path()));
    }
    for (int i = 0; i < targets.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (keys.get(i).equals(keys.get(j))) {
          throw new BadInputException(
              targets.get(i).describe()
                  + ": the same file as "
                  + targets.get(j).describe()
                  + "; give each report its own path");
        }
      }
    }
    Set<Path> seen = new HashSet<>();
    for (Map.Entry<String, String> input : inputs.entrySet()) {
      Path path;
      try {
        path = Path.of(input.getValue());
      } catch (InvalidPathException e) {
        continue;
      }
      if (!Files.isRegularFile(path) || !seen.add(identity(path))) {
        continue;
      }
      int at = keys.indexOf(identity(path));
      if (at >= 0) {
        throw new BadInputException(
            targets.get(at).describe()
                + ": is an input of this run ("
                + input.getKey()
                + "); write the report elsewhere");
      }
    }
  }

  /**
   * Several reports written together: each file is staged in a temporary file beside its target;
   * only when every one is complete are the streams written and the files moved into place. Closing
   * without {@link #commit()} deletes what was staged.
   */
  public static final class Batch implements AutoCloseable {
    private final PrintStream stdout;
    private final List<ReportTarget> files = new ArrayList<>();
    private final List<Path> temps = new ArrayList<>();
    private final List<ReportTarget> streams = new ArrayList<>();
    private final List<BinaryContent> streamContents = new ArrayList<>();
    private final Set<Path> swept = new HashSet<>();
    private boolean wroteStdout;

    /**
     * @param stdout where {@link ReportTarget.Kind#STDOUT} reports go
     */
    public Batch(PrintStream stdout) {
      this.stdout = stdout;
    }

    /**
     * Stages {@code content} for {@code target}: a file is written now into its temporary file (its
     * directory created if needed), a stream or stdout at {@link #commit()}.
     *
     * @throws BadInputException naming the target and the reason when it cannot be written
     */
    public void stage(ReportTarget target, Content content) {
      stageBinary(target, out -> writeText(out, content));
    }

    /** {@link #stage} for a binary report. */
    public void stageBinary(ReportTarget target, BinaryContent content) {
      if (target.kind() != ReportTarget.Kind.FILE) {
        streams.add(target);
        streamContents.add(content);
        return;
      }
      Path temp = null;
      try {
        Path dir = target.path().getParent();
        Files.createDirectories(dir);
        if (swept.add(dir)) {
          TempFiles.sweep(dir);
        }
        temp = TempFiles.create(target.path());
        files.add(target);
        temps.add(temp);
        // Not Files.createTempFile: its owner-only permissions would stick to the report.
        try (OutputStream out =
            new BufferedOutputStream(
                Files.newOutputStream(
                    temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                1 << 16)) {
          content.writeTo(out);
        }
      } catch (IOException e) {
        throw cannotWrite(target, e);
      }
    }

    /** Whether a report went to stdout, in place of the summary. */
    public boolean wroteStdout() {
      return wroteStdout;
    }

    /** Writes every stream, then moves every staged file into place. */
    public void commit() {
      for (int i = 0; i < streams.size(); i++) {
        writeStream(streams.get(i), streamContents.get(i));
      }
      for (int i = 0; i < temps.size(); i++) {
        try {
          move(temps.get(i), files.get(i).path());
          TempFiles.forget(temps.get(i));
        } catch (IOException e) {
          throw cannotWrite(files.get(i), e);
        }
      }
      temps.clear();
    }

    private void writeStream(ReportTarget target, BinaryContent content) {
      if (target.kind() == ReportTarget.Kind.STDOUT) {
        OutputStream out = new BufferedOutputStream(stdout, 1 << 16);
        try {
          content.writeTo(out);
          out.flush();
        } catch (IOException e) {
          throw cannotWrite(target, e);
        }
        if (stdout.checkError()) {
          throw new BadInputException(target.describe() + ": cannot write to stdout");
        }
        wroteStdout = true;
        return;
      }
      try (OutputStream stream =
              Files.newOutputStream(
                  target.path(), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
          OutputStream out = new BufferedOutputStream(stream, 1 << 16)) {
        content.writeTo(out);
      } catch (IOException e) {
        throw cannotWrite(target, e);
      }
    }

    @Override
    public void close() {
      for (Path temp : temps) {
        TempFiles.delete(temp);
      }
    }
  }

  /** Text as UTF-8; flushes its writer but leaves {@code out} open for the caller to close. */
  private static void writeText(OutputStream out, Content content) throws IOException {
    Writer writer =
        new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    content.writeTo(writer);
    writer.flush();
  }

  private static BadInputException cannotWrite(ReportTarget target, IOException e) {
    return new BadInputException(
        target.describe() + ": cannot write: " + FileProblems.describe(e), e);
  }

  private static void move(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static ReportTarget stream(String option, String target, Path real) {
    if (!Files.isWritable(real)) {
      throw new BadInputException(option + " " + target + ": permission denied");
    }
    return new ReportTarget(option, target, real, ReportTarget.Kind.STREAM);
  }

  private static void checkParent(String option, String target, Path path) {
    Path parent = path.getParent();
    Path existing = parent == null || Files.isDirectory(parent) ? parent : parent.getParent();
    if (existing == null
        || Files.exists(parent) && !Files.isDirectory(parent)
        || !Files.isDirectory(existing)
        || !Files.isWritable(existing)) {
      throw new BadInputException(
          option
              + " "
              + target
              + ": directory "
              + parent
              + " does not exist and cannot be created, or is not writable");
    }
  }

  /** {@code /dev/...} and {@code /proc/...} name streams even where they resolve to a file. */
  private static boolean isDeviceTree(Path given) {
    return given.startsWith("/dev") || given.startsWith("/proc");
  }

  private static Path path(String option, String target) {
    try {
      return Path.of(target).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new BadInputException(
          option + " " + target + ": not a valid path (" + e.getReason() + ")");
    }
  }

  /** The file a path names: links followed where the file or its directory exists. */
  private static Path identity(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    try {
      return absolute.toRealPath();
    } catch (IOException e) {
      Path parent = absolute.getParent();
      if (parent == null) {
        return absolute;
      }
      return identity(parent).resolve(absolute.getFileName());
    }
  }

  private static BasicFileAttributes attributes(Path path, LinkOption... options) {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, options);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new BadInputException(path + ": " + FileProblems.describe(e));
    }
  }

  private static int fileType(Path path) {
    try {
      return (Integer) Files.getAttribute(path, "unix:mode") & S_IFMT;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // Without unix attributes, an "other" file is taken for a device we may write to.
      return S_IFCHR;
    }
  }
}
