package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command reports the build's extension points, and refuses unknown commands with exit 2. */
final class MainTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void noArguments_listsEveryExtensionPoint() {
    assertThat(run()).isZero();
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text)
        .contains("ilb-selector", "nohz-idle-tracking", "balance-pass", "wakeup-policy")
        .contains("hardware-model", "workload", "profile");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void unknownCommand_oneLineExitTwo() {
    assertThat(run("frobnicate")).isEqualTo(2);
    String message = err.toString(StandardCharsets.UTF_8);
    assertThat(message).startsWith("schedlab: unknown command 'frobnicate'");
    assertThat(message.lines()).hasSize(1);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
