package dev.schedlab.cli.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The build this command line is: its version and the commit it was built from, as the build wrote
 * them into {@code build.properties}. Reports carry both so that a result can be traced to the code
 * that produced it; a build outside a Git checkout says {@code unknown}.
 *
 * @param version the project version, e.g. {@code 0.1.0-SNAPSHOT}
 * @param commit the full commit id, or {@code unknown}
 * @param dirty whether the working tree had uncommitted changes when the jar was built
 */
public record BuildInfo(String version, String commit, boolean dirty) {

  /** The running build. */
  public static final BuildInfo CURRENT = load();

  private static BuildInfo load() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the build's build.properties", e);
    }
    return new BuildInfo(
        filled(p.getProperty("version")),
        filled(p.getProperty("commit")),
        "true".equals(p.getProperty("dirty")));
  }

  /** A value the build filled in, or {@code unknown} for a missing or unfilled one. */
  private static String filled(String value) {
    return value == null || value.isBlank() || value.startsWith("${") ? "unknown" : value.trim();
  }

  /** {@code 0.1.0-SNAPSHOT, commit 0ff12ba4c1d2 (with uncommitted changes)}. */
  public String describe() {
    String shortCommit = commit.length() > 12 ? commit.substring(0, 12) : commit;
    return version + ", commit " + shortCommit + (dirty ? " (with uncommitted changes)" : "");
  }

  /** The commit as reports write it: the full id, {@code +dirty} when built with changes. */
  public String commitLabel() {
    return commit + (dirty ? "+dirty" : "");
  }
}
