package dev.schedlab.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.Invocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Report paths never replace what is not a report: a regular file or nothing is written through a
 * temporary file, a character device or FIFO is streamed to (its write errors one line, exit 2), a
 * symbolic link keeps being one, {@code -} and {@code /dev/stdout} go to stdout; a dangling link,
 * two reports on one file, a report on an input and an empty path are refused before the run.
 */
final class OutputPathsTest {

  private static final List<String> RUN =
      List.of(
          "run",
          "--machine",
          "hw.shape",
          "-M",
          "shape=1n1l2c2t",
          "--workload",
          "wl.gemm",
          "--duration",
          "5ms",
          "--quiet");

  @TempDir Path dir;

  @Test
  void devFull_writeErrorIsOneLineNamingTheReason_deviceStaysADevice() {
    Invocation.of(with("--html", "/dev/full"))
        .assertBadInput("--html /dev/full: cannot write: no space left on device");
    assertThat(Files.isRegularFile(Path.of("/dev/full"))).isFalse();
  }

  @Test
  void devNull_isStreamedTo_notReplaced() {
    Invocation.of(with("--trace", "/dev/null")).assertOk();
    assertThat(Files.isRegularFile(Path.of("/dev/null"))).isFalse();
  }

  @Test
  void dash_andDevStdout_writeTheReportToStdoutInPlaceOfTheSummary() {
    // Without a .json name the trace would be Perfetto's binary format.
    String trace = Invocation.of(with("--trace", "-", "--trace-format", "json")).assertOk().out();
    assertThat(trace).startsWith("{\"displayTimeUnit\"").doesNotContain("mainline-7.3 = ");
    String html = Invocation.of(with("--html", "/dev/stdout")).assertOk().out();
    assertThat(html).startsWith("<!DOCTYPE html>");
  }

  @Test
  void fifo_isStreamedTo() throws Exception {
    Path fifo = dir.resolve("pipe");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0).isTrue();
    CompletableFuture<String> reader =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return Files.readString(fifo, StandardCharsets.UTF_8);
              } catch (IOException e) {
                return "read failed: " + e;
              }
            });
    Invocation.of(with("--html", fifo.toString())).assertOk();
    assertThat(reader.get(30, TimeUnit.SECONDS)).startsWith("<!DOCTYPE html>");
    assertThat(Files.isRegularFile(fifo)).isFalse();
  }

  @Test
  void symlinkToAFile_replacesTheFile_keepsTheLink() throws IOException {
    Path file = dir.resolve("real.html");
    Files.writeString(file, "old");
    Path link = Files.createSymbolicLink(dir.resolve("link.html"), file);
    Invocation.of(with("--html", link.toString())).assertOk();
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(file)).startsWith("<!DOCTYPE html>");
  }

  @Test
  void danglingSymlink_refused() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("missing"));
    Invocation.of(with("--html", link.toString()))
        .assertBadInput("a symbolic link to a file that does not exist");
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(dir.resolve("missing")).doesNotExist();
  }

  @Test
  void twoReportsOnOneFile_refused_evenThroughALink() throws IOException {
    Path a = dir.resolve("a.json");
    Invocation.of(with("--html", a.toString(), "--trace", dir.resolve("./a.json").toString()))
        .assertBadInput("the same file as");
    Files.writeString(a, "x");
    Path link = Files.createSymbolicLink(dir.resolve("b.json"), a);
    Invocation.of(with("--html", a.toString(), "--trace", link.toString()))
        .assertBadInput("the same file as");
  }

  @Test
  void reportCollidingWithASchedstatFile_refused() {
    Path d = dir.resolve("d");
    Invocation.of(
            with(
                "--schedstat",
                d.toString(),
                "--html",
                d.resolve("mainline-7.3.schedstat").toString()))
        .assertBadInput("the same file as --schedstat");
    assertThat(d).doesNotExist();
  }

  @Test
  void reportOnAnInputFile_refused_inputUntouched() throws IOException {
    Path rtApp = dir.resolve("rt.json");
    String json = "{\"tasks\": {\"t\": {\"run\": 1000, \"sleep\": 1000}}}";
    Files.writeString(rtApp, json);
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                "--machine",
                "hw.shape",
                "-M",
                "shape=1n1l2c2t",
                "--workload",
                "wl.rtapp",
                "-W",
                "file=" + rtApp,
                "--duration",
                "5ms",
                "--html",
                rtApp.toString()));
    Invocation.of(args).assertBadInput("is an input of this run (-W file=");
    assertThat(Files.readString(rtApp)).isEqualTo(json);
  }

  @Test
  void emptyPaths_refusedLikeEachOther() {
    Invocation.of(with("--html", "")).assertBadInput("--html '': empty path");
    Invocation.of(with("--schedstat", "")).assertBadInput("--schedstat '': expected a directory");
    Invocation.of(with("--trace", dir.toString())).assertBadInput("is a directory");
  }

  @Test
  void noTemporaryFileIsLeftBehind() throws IOException {
    Invocation.of(with("--html", dir.resolve("r.html").toString(), "--schedstat", dir.toString()))
        .assertOk();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("r.html", "mainline-7.3.schedstat");
    }
  }

  private static List<String> with(String... more) {
    List<String> args = new ArrayList<>(RUN);
    args.addAll(List.of(more));
    return args;
  }
}
