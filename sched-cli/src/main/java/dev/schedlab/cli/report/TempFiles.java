package dev.schedlab.cli.report;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The temporary files reports are staged in, named {@code .<target>.<pid>.<16 hex digits>.tmp}
 * beside their target. A run that is stopped (SIGTERM, SIGINT) removes its own from a shutdown
 * hook; one killed outright (SIGKILL, power loss) cannot, so a later run that writes into the same
 * directory removes those whose process no longer exists. Files of the naming older runs used
 * ({@code .<target>.<hex>.tmp}, no process id) are removed once an hour old: a report is written in
 * seconds, so nothing is still writing them.
 */
final class TempFiles {

  /** Our naming: the owner's process id, then a random part. */
  private static final Pattern OURS = Pattern.compile("\\..+\\.([0-9]{1,10})\\.[0-9a-f]{16}\\.tmp");

  /** The naming before process ids were part of it. */
  private static final Pattern OLD = Pattern.compile("\\..+\\.[0-9a-f]{1,16}\\.tmp");

  private static final Duration OLD_AGE = Duration.ofHours(1);

  private static final long PID = ProcessHandle.current().pid();

  private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

  private static volatile boolean shuttingDown;

  static {
    Thread hook = new Thread(TempFiles::deleteLive, "schedlab-temp-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  private TempFiles() {}

  /**
   * A fresh temporary path beside {@code target}, registered for removal at shutdown.
   *
   * @throws IOException when the process is already shutting down
   */
  static Path create(Path target) throws IOException {
    if (shuttingDown) {
      throw new IOException("interrupted");
    }
    Path temp =
        target.resolveSibling(
            name(target.getFileName().toString(), PID, ThreadLocalRandom.current().nextLong()));
    LIVE.add(temp);
    return temp;
  }

  /** The temporary file name for {@code target} owned by process {@code pid}. */
  static String name(String target, long pid, long random) {
    return "." + target + "." + pid + "." + String.format("%016x", random) + ".tmp";
  }

  /** {@code temp} has been moved into place or deleted: the hook no longer needs to. */
  static void forget(Path temp) {
    LIVE.remove(temp);
  }

  /** Deletes {@code temp} if it is there. */
  static void delete(Path temp) {
    try {
      Files.deleteIfExists(temp);
    } catch (IOException ignored) {
      // The failure that got us here is what the user needs to see.
    }
    LIVE.remove(temp);
  }

  /**
   * Removes stale temporary files of our naming from {@code dir}: those of processes that no longer
   * run, and those of the old naming an hour old. Only regular files, never through a symbolic
   * link; a file that cannot be removed is left.
   */
  static void sweep(Path dir) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, ".*.tmp")) {
      for (Path entry : entries) {
        if (isStale(entry)) {
          Files.deleteIfExists(entry);
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // Sweeping is housekeeping: a directory we cannot list is reported when we write to it.
    }
  }

  private static boolean isStale(Path entry) throws IOException {
    String name = entry.getFileName().toString();
    BasicFileAttributes attributes =
        Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isRegularFile()) {
      return false;
    }
    Matcher ours = OURS.matcher(name);
    if (ours.matches()) {
      long pid = Long.parseLong(ours.group(1));
      return pid != PID && ProcessHandle.of(pid).isEmpty();
    }
    return OLD.matcher(name).matches()
        && attributes.lastModifiedTime().toInstant().isBefore(Instant.now().minus(OLD_AGE));
  }

  private static void deleteLive() {
    shuttingDown = true;
    for (Path temp : LIVE) {
      delete(temp);
    }
  }
}
