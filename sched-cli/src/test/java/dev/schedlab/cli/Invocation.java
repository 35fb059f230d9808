package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One run of the command line in-process, with what it printed. Public, and in this module's test
 * jar, for integration tests.
 *
 * @param exitCode what {@link Main#run} returned
 * @param out stdout
 * @param err stderr
 */
public record Invocation(int exitCode, String out, String err) {

  /** Runs {@code schedlab args...}. */
  public static Invocation of(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Invocation(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Runs {@code schedlab args...}. */
  public static Invocation of(List<String> args) {
    return of(args.toArray(String[]::new));
  }

  /**
   * Asserts the bad-input contract: exit code 2, exactly one line on stderr starting {@code
   * schedlab: } and containing {@code fragments}, no stack trace, nothing on stdout.
   */
  public Invocation assertBadInput(String... fragments) {
    assertThat(exitCode).as("exit code; stderr: %s", err).isEqualTo(2);
    assertThat(errLines()).as("stderr").hasSize(1);
    assertThat(err)
        .startsWith("schedlab: ")
        .contains(fragments)
        .doesNotContain("Exception", "\tat ", "\n\tat");
    assertThat(out).as("stdout").isEmpty();
    return this;
  }

  /** Asserts success: exit code 0 and nothing on stderr. */
  public Invocation assertOk() {
    assertThat(exitCode).as("exit code; stderr: %s", err).isZero();
    assertThat(err).as("stderr").isEmpty();
    return this;
  }

  /**
   * Asserts success with report files: exit code 0 and one line on stderr, {@code schedlab: wrote
   * ...}, naming each of {@code files}.
   */
  public Invocation assertOkWrote(String... files) {
    assertThat(exitCode).as("exit code; stderr: %s", err).isZero();
    assertThat(errLines()).as("stderr").hasSize(1);
    assertThat(err).startsWith("schedlab: wrote ").contains(files);
    return this;
  }

  /** The lines of stderr. */
  public List<String> errLines() {
    return err.lines().toList();
  }
}
