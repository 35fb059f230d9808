package dev.schedlab.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.FileProblems;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Temporary report files do not outlive their run: a run stopped by SIGTERM removes its own, and a
 * later run writing into the directory removes those of dead processes and hour-old ones of the old
 * naming, and nothing else.
 */
final class TempFilesTest {

  @TempDir Path dir;

  @Test
  void sweep_removesDeadProcessesAndOldNaming_keepsLiveAndOthers() throws Exception {
    Process dead = new ProcessBuilder("true").start();
    dead.waitFor(10, TimeUnit.SECONDS);
    Path deadTemp = touch(TempFiles.name("r.html", dead.pid(), 1));
    Path liveTemp =
        touch(TempFiles.name("r.html", ProcessHandle.current().parent().orElseThrow().pid(), 2));
    Path oldStale = touch(".r.html.1a2b3c.tmp");
    Files.setLastModifiedTime(oldStale, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));
    Path oldRecent = touch(".r.html.4d5e6f.tmp");
    Path unrelated = touch(".notes.tmp");
    Path linked =
        Files.createSymbolicLink(dir.resolve(TempFiles.name("s.html", dead.pid(), 3)), unrelated);

    TempFiles.sweep(dir);

    assertThat(deadTemp).doesNotExist();
    assertThat(oldStale).doesNotExist();
    assertThat(liveTemp).exists();
    assertThat(oldRecent).exists();
    assertThat(unrelated).exists();
    assertThat(linked).exists();
  }

  @Test
  void sigterm_whileWriting_leavesNoTemporaryFile() throws Exception {
    String classPath =
        String.join(
            File.pathSeparator,
            location(ReportFiles.class),
            location(FileProblems.class),
            location(TempFilesTest.class));
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classPath,
                StagingChild.class.getName(),
                dir.resolve("r.html").toString())
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("staging");
      assertThat(tempFiles()).hasSize(1);
      child.destroy();
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
    }
    assertThat(tempFiles()).isEmpty();
  }

  private List<Path> tempFiles() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
    }
  }

  private Path touch(String name) throws Exception {
    return Files.writeString(dir.resolve(name), "x");
  }

  private static String location(Class<?> type) throws Exception {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  /** Stages a report whose writing never ends, so that the test can stop it midway. */
  static final class StagingChild {
    public static void main(String[] args) {
      try (ReportFiles.Batch batch = new ReportFiles.Batch(System.out)) {
        batch.stage(
            ReportFiles.checkFile("--html", args[0]),
            out -> {
              out.write("partial");
              out.flush();
              System.out.println("staging");
              System.out.flush();
              try {
                Thread.sleep(60_000);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
      }
    }
  }
}
