package dev.schedlab.hw.importer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Finds {@code ../shared/topologies} (system property {@code schedlab.shared.dir}, set by the
 * parent POM, else {@code ../shared} or {@code ../../shared} from the working directory) and
 * unpacks its sysfs tarballs with the system {@code tar}, since the JDK has no bzip2. Public, and
 * shipped in this module's test jar, for integration-tests.
 */
public final class SharedTopologies {

  private SharedTopologies() {}

  /** The topologies directory, if present. */
  public static Optional<Path> directory() {
    String property = System.getProperty("schedlab.shared.dir");
    Stream<Path> candidates =
        Stream.of(
            property == null || property.isBlank() ? null : Path.of(property),
            Path.of("..", "shared"),
            Path.of("..", "..", "shared"));
    return candidates
        .filter(p -> p != null)
        .map(p -> p.resolve("topologies").toAbsolutePath().normalize())
        .filter(p -> Files.isDirectory(p.resolve("hwloc")))
        .findFirst();
  }

  /** The regular files of {@code sub} (e.g. {@code hwloc}), sorted. */
  public static List<Path> files(Path topologies, String sub) throws IOException {
    try (Stream<Path> s = Files.list(topologies.resolve(sub))) {
      return s.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /**
   * Unpacks {@code tarball} into {@code into} with {@code tar xjf} and returns the directory it
   * made, or empty when tar or bzip2 is unavailable.
   */
  public static Optional<Path> unpack(Path tarball, Path into) {
    try {
      Files.createDirectories(into);
      Process p =
          new ProcessBuilder("tar", "xjf", tarball.toString(), "-C", into.toString())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        return Optional.empty();
      }
      String name = tarball.getFileName().toString().replace(".tar.bz2", "");
      Path made = into.resolve(name);
      return Files.isDirectory(made) ? Optional.of(made) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
