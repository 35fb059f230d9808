package dev.schedlab.oracle.guest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The host programs a guest needs: QEMU, a static busybox, a kernel image and gcc. Missing ones are
 * installed by {@code kernel-oracle/bin/install-deps} (carried in the jar as a resource), or named
 * in one line when that is impossible.
 *
 * @param qemu {@code qemu-system-x86_64}
 * @param busybox a statically linked busybox
 * @param defaultKernel Debian's newest {@code /boot/vmlinuz-*} (the cloud flavour when there)
 * @param gcc the C compiler for the guest workloads
 */
public record HostTools(Path qemu, Path busybox, Path defaultKernel, Path gcc) {

  /** The install script's resource path. */
  public static final String INSTALL_SCRIPT = "/dev/schedlab/oracle/bin/install-deps";

  private static final int PT_INTERP = 3;

  /**
   * Finds the tools, running the install script once when one is missing and {@code install} is
   * set.
   *
   * @throws OracleException naming what is missing and how to install it
   */
  public static HostTools find(boolean install, java.util.function.Consumer<String> progress) {
    Optional<HostTools> found = tryFind();
    if (found.isPresent()) {
      return found.get();
    }
    if (!install) {
      throw new OracleException(
          "missing "
              + String.join(", ", missing())
              + "; run kernel-oracle/bin/install-deps as root (apt-get)");
    }
    progress.accept(
        "installing " + String.join(", ", missing()) + " with kernel-oracle/bin/install-deps");
    String failure = runInstallScript();
    return tryFind()
        .orElseThrow(
            () ->
                new OracleException(
                    "missing "
                        + String.join(", ", missing())
                        + " and kernel-oracle/bin/install-deps could not install"
                        + " them: "
                        + failure));
  }

  /** The tools when every one is there. */
  public static Optional<HostTools> tryFind() {
    Optional<Path> qemu = onPath("qemu-system-x86_64");
    Optional<Path> busybox = staticBusybox();
    Optional<Path> kernel = debianKernel();
    Optional<Path> gcc = onPath("gcc");
    if (qemu.isEmpty()
        || busybox.isEmpty()
        || kernel.isEmpty()
        || gcc.isEmpty()
        || !Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libc.a"))) {
      return Optional.empty();
    }
    return Optional.of(new HostTools(qemu.get(), busybox.get(), kernel.get(), gcc.get()));
  }

  /** What {@link #tryFind()} lacks, as Debian package names. */
  public static List<String> missing() {
    List<String> out = new ArrayList<>();
    if (onPath("qemu-system-x86_64").isEmpty()) {
      out.add("qemu-system-x86");
    }
    if (staticBusybox().isEmpty()) {
      out.add("busybox-static");
    }
    if (debianKernel().isEmpty()) {
      out.add("linux-image-cloud-amd64");
    }
    if (onPath("gcc").isEmpty()) {
      out.add("gcc");
    }
    if (!Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libc.a"))) {
      out.add("libc6-dev");
    }
    return out;
  }

  /** Runs the install script; returns null on success, else its last line or the error. */
  public static String runInstallScript() {
    try (InputStream in = HostTools.class.getResourceAsStream(INSTALL_SCRIPT)) {
      if (in == null) {
        return "the jar carries no install script";
      }
      Path script =
          Files.createTempFile(
              "schedlab-install-deps",
              ".sh",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      try {
        Files.write(script, in.readAllBytes());
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(20, TimeUnit.MINUTES)) {
          p.destroyForcibly();
          return "it ran for more than 20 minutes";
        }
        if (p.exitValue() == 0) {
          return null;
        }
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1];
      } finally {
        Files.deleteIfExists(script);
      }
    } catch (IOException e) {
      return e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static Optional<Path> onPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(":")) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> staticBusybox() {
    for (String candidate : List.of("/bin/busybox", "/usr/bin/busybox")) {
      Path p = Path.of(candidate);
      if (Files.isRegularFile(p) && isStaticElf(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> debianKernel() {
    Path boot = Path.of("/boot");
    if (!Files.isDirectory(boot)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(boot)) {
      List<Path> kernels =
          files
              .filter(p -> p.getFileName().toString().startsWith("vmlinuz-"))
              .filter(Files::isReadable)
              .sorted(
                  Comparator.comparing((Path p) -> !p.toString().endsWith("-cloud-amd64"))
                      .thenComparing(Comparator.comparing(Path::toString).reversed()))
              .toList();
      return kernels.stream().findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Whether an ELF file has no {@code PT_INTERP} program header (no dynamic loader). */
  static boolean isStaticElf(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      if (bytes.length < 64 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[4] != 2) {
        return false;
      }
      ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
      long phoff = b.getLong(0x20);
      int phentsize = Short.toUnsignedInt(b.getShort(0x36));
      int phnum = Short.toUnsignedInt(b.getShort(0x38));
      for (int i = 0; i < phnum; i++) {
        int at = (int) (phoff + (long) i * phentsize);
        if (at + 4 > bytes.length) {
          return false;
        }
        if (b.getInt(at) == PT_INTERP) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
