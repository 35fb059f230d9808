package dev.schedlab.oracle.guest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * The guest workloads' C sources (resources under {@code dev/schedlab/oracle/c/}, from the module's
 * {@code src/main/c}) compiled static with the host's gcc ({@code -static -O2 -pthread}) into a
 * cache directory keyed by the source's hash, so that each is built once.
 */
public final class GuestPrograms {

  private final Path gcc;
  private final Path cache;

  /**
   * Programs built by {@code gcc} into {@code cache}.
   *
   * @param gcc the compiler
   * @param cache e.g. {@code ~/.cache/schedlab-oracle}
   */
  public GuestPrograms(Path gcc, Path cache) {
    this.gcc = gcc;
    this.cache = cache;
  }

  /** The default cache: {@code $XDG_CACHE_HOME/schedlab-oracle} or {@code ~/.cache/...}. */
  public static Path defaultCache() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("schedlab-oracle");
  }

  /**
   * The static binary of program {@code name} ({@code name.c}), built when not cached.
   *
   * @throws OracleException when the source is missing or gcc fails (with its first error line)
   */
  public Path binary(String name) {
    byte[] source;
    try (InputStream in =
        GuestPrograms.class.getResourceAsStream("/dev/schedlab/oracle/c/" + name + ".c")) {
      if (in == null) {
        throw new OracleException("no guest program " + name + " (no " + name + ".c resource)");
      }
      source = in.readAllBytes();
    } catch (IOException e) {
      throw new OracleException("cannot read " + name + ".c: " + e.getMessage(), e);
    }
    Path dir = cache.resolve(name + "-" + sha256(source).substring(0, 16));
    Path binary = dir.resolve(name);
    if (Files.isExecutable(binary)) {
      return binary;
    }
    try {
      Files.createDirectories(dir);
      Path src = dir.resolve(name + ".c");
      Files.write(src, source);
      Path partial = dir.resolve(name + ".partial");
      Process p =
          new ProcessBuilder(
                  gcc.toString(),
                  "-static",
                  "-O2",
                  "-pthread",
                  "-o",
                  partial.toString(),
                  src.toString())
              .redirectErrorStream(true)
              .start();
      p.getOutputStream().close();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
        String first =
            output
                .lines()
                .filter(l -> l.contains("error"))
                .findFirst()
                .orElse(output.lines().findFirst().orElse("no output"));
        throw new OracleException(
            "gcc could not build guest program "
                + name
                + ": "
                + first
                + " (static glibc is in libc6-dev; kernel-oracle/bin/install-deps installs it)");
      }
      Files.move(partial, binary, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return binary;
    } catch (IOException e) {
      throw new OracleException("cannot build guest program " + name + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OracleException("interrupted while building " + name, e);
    }
  }

  private static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
