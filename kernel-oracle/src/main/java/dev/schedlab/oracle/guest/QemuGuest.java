package dev.schedlab.oracle.guest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Boots one guest in QEMU and brings its results out over the serial console: the guest prints
 * base64 of a tar.gz between {@link #BEGIN} and {@link #END}; every other console line is kept (the
 * last {@value #KEPT_LINES}) and written to the console log, which a failure names.
 */
public final class QemuGuest {

  /** The line before the guest's results. */
  public static final String BEGIN = "=====SCHEDLAB-ORACLE-BEGIN=====";

  /** The line after the guest's results. */
  public static final String END = "=====SCHEDLAB-ORACLE-END=====";

  /** Guest lines with this prefix are progress messages. */
  public static final String PROGRESS = "schedlab-oracle: ";

  private static final int KEPT_LINES = 400;

  /**
   * One boot.
   *
   * @param qemu the {@code qemu-system-x86_64} binary
   * @param kernel the kernel image ({@code bzImage} / {@code vmlinuz})
   * @param initramfs the gzip-compressed cpio archive with {@code /init}
   * @param shape the machine
   * @param kernelArguments extra kernel command-line arguments, e.g. {@code nohz_full=2-7}
   * @param accelerator TCG or KVM
   * @param timeout how long the whole boot may take
   * @param workDirectory where the initramfs and the console log are written
   * @param progress receives progress lines (for stderr)
   */
  public record Boot(
      Path qemu,
      Path kernel,
      byte[] initramfs,
      GuestShape shape,
      String kernelArguments,
      Accelerator accelerator,
      Duration timeout,
      Path workDirectory,
      Consumer<String> progress) {}

  /**
   * What a finished boot produced.
   *
   * @param archive the files the guest sent
   * @param consoleLog where the console lines were saved
   * @param elapsed wall time from start to power-off
   * @param accelerator the accelerator used
   */
  public record Result(
      TarArchive archive, Path consoleLog, Duration elapsed, Accelerator accelerator) {}

  private QemuGuest() {}

  /** The kernel command line: serial console, no reboot on panic, domain debug output. */
  public static String commandLine(String extra) {
    String base = "console=ttyS0 quiet panic=-1 sched_verbose log_buf_len=8M mitigations=off";
    return extra == null || extra.isBlank() ? base : base + " " + extra.trim();
  }

  /** The full QEMU command of a boot. */
  public static List<String> command(Boot boot, Path initrdFile) {
    List<String> cmd = new ArrayList<>();
    cmd.add(boot.qemu().toString());
    cmd.addAll(boot.accelerator().qemuArguments());
    cmd.addAll(boot.shape().qemuArguments());
    cmd.addAll(
        List.of(
            "-nodefaults",
            "-no-user-config",
            "-nographic",
            "-serial",
            "stdio",
            "-no-reboot",
            "-kernel",
            boot.kernel().toString(),
            "-initrd",
            initrdFile.toString(),
            "-append",
            commandLine(boot.kernelArguments())));
    return cmd;
  }

  /**
   * Boots the guest and waits for its results.
   *
   * @throws OracleException when QEMU cannot start, the guest runs past the timeout, or it stops
   *     without sending complete results (the message names the console log)
   */
  public static Result run(Boot boot) {
    Path initrd = boot.workDirectory().resolve("initramfs.cpio.gz");
    Path log = boot.workDirectory().resolve("console.log");
    try {
      Files.createDirectories(boot.workDirectory());
      Files.write(initrd, boot.initramfs());
    } catch (IOException e) {
      throw new OracleException("cannot write " + initrd + ": " + e.getMessage(), e);
    }
    ProcessBuilder builder = new ProcessBuilder(command(boot, initrd)).redirectErrorStream(true);
    long start = System.nanoTime();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new OracleException(
          "cannot start "
              + boot.qemu()
              + " ("
              + e.getMessage()
              + "); install QEMU with kernel-oracle/bin/install-deps",
          e);
    }
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // QEMU reads no input from us; a pipe that is already gone changes nothing.
    }
    Console console = new Console(boot.progress());
    Thread reader = new Thread(() -> console.read(process), "qemu-console");
    reader.setDaemon(true);
    reader.start();
    boolean finished;
    try {
      finished = process.waitFor(boot.timeout().toMillis(), TimeUnit.MILLISECONDS);
      if (!finished) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
      reader.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new OracleException("interrupted while the guest ran", e);
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    console.save(log);
    if (!finished) {
      throw new OracleException(
          "the guest did not finish within "
              + boot.timeout().toSeconds()
              + " s ("
              + boot.accelerator().id()
              + "); its last console lines are in "
              + log);
    }
    if (!console.complete()) {
      String panic = console.panicLine();
      throw new OracleException(
          "the guest stopped without sending its results"
              + (panic != null
                  ? " (" + panic.trim() + ")"
                  : " (QEMU exit " + process.exitValue() + lastWords(console) + ")")
              + "; its last console lines are in "
              + log);
    }
    TarArchive archive;
    try {
      archive = TarArchive.readGzip(Base64.getMimeDecoder().decode(console.payload()));
    } catch (IllegalArgumentException e) {
      throw new OracleException(
          "the guest's results are garbled (" + e.getMessage() + "); its console is in " + log, e);
    }
    return new Result(archive, log, elapsed, boot.accelerator());
  }

  /** QEMU's own last line when it names the problem (e.g. an image that is no kernel). */
  private static String lastWords(Console console) {
    String last = console.lastLine();
    return last == null || last.isBlank() ? "" : ": " + last.trim();
  }

  /** Collects the console: the payload between the markers and the last other lines. */
  private static final class Console {
    private final Consumer<String> progress;
    private final Deque<String> lines = new ArrayDeque<>();
    private final StringBuilder payload = new StringBuilder();
    private boolean inPayload;
    private boolean complete;
    private String panicLine;

    private final long start = System.nanoTime();

    Console(Consumer<String> progress) {
      this.progress = progress;
    }

    void read(Process process) {
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.ISO_8859_1))) {
        String line;
        while ((line = in.readLine()) != null) {
          accept(line.replace("\r", ""));
        }
      } catch (IOException e) {
        accept("(console read failed: " + e.getMessage() + ")");
      }
    }

    private synchronized void accept(String line) {
      String trimmed = line.trim();
      if (trimmed.endsWith(BEGIN)) {
        inPayload = true;
        payload.setLength(0);
        return;
      }
      if (inPayload) {
        if (trimmed.endsWith(END)) {
          inPayload = false;
          complete = true;
        } else if (trimmed.matches("[A-Za-z0-9+/=]+")) {
          payload.append(trimmed);
        } else {
          keep(line);
        }
        return;
      }
      int at = line.indexOf(PROGRESS);
      if (at >= 0) {
        progress.accept(
            String.format(
                java.util.Locale.ROOT,
                "[%5.1f s] %s",
                (System.nanoTime() - start) / 1e9,
                line.substring(at + PROGRESS.length())));
      }
      if (panicLine == null && line.contains("Kernel panic")) {
        panicLine = line;
      }
      keep(line);
    }

    private void keep(String line) {
      lines.addLast(line);
      if (lines.size() > KEPT_LINES) {
        lines.removeFirst();
      }
    }

    synchronized boolean complete() {
      return complete;
    }

    synchronized String lastLine() {
      return lines.isEmpty() ? null : lines.peekLast();
    }

    synchronized String panicLine() {
      return panicLine;
    }

    synchronized String payload() {
      return payload.toString();
    }

    synchronized void save(Path log) {
      try {
        Files.write(log, lines, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
