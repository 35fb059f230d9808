package dev.schedlab.oracle.guest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The guest's initramfs: static busybox as {@code /bin/busybox}, the {@code /init} script (from the
 * {@code init.sh} resource, with the workload's commands in place of {@code @WORKLOAD@}) and the
 * workload programs in {@code /bin}.
 */
public final class GuestImage {

  private static final String INIT_RESOURCE = "init.sh";

  private final Path busybox;
  private String workload = "";
  private final Map<String, Path> programs = new LinkedHashMap<>();

  /** An image around the given static busybox. */
  public GuestImage(Path busybox) {
    this.busybox = busybox;
  }

  /** The shell commands run after the topology is collected (empty: none). */
  public GuestImage workload(String commands) {
    this.workload = commands;
    return this;
  }

  /** Adds a program as {@code /bin/<name>}. */
  public GuestImage program(String name, Path binary) {
    programs.put(name, binary);
    return this;
  }

  /** The {@code /init} script. */
  public String initScript() {
    try (InputStream in = GuestImage.class.getResourceAsStream(INIT_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + INIT_RESOURCE + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("@WORKLOAD@", workload);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The gzip-compressed cpio archive. */
  public byte[] build() {
    try {
      Initramfs fs = new Initramfs();
      for (String dir : new String[] {"bin", "dev", "proc", "sys", "tmp", "etc"}) {
        fs.directory(dir);
      }
      fs.file("bin/busybox", Files.readAllBytes(busybox), true);
      fs.file("init", initScript().getBytes(StandardCharsets.UTF_8), true);
      for (Map.Entry<String, Path> p : programs.entrySet()) {
        fs.file("bin/" + p.getKey(), Files.readAllBytes(p.getValue()), true);
      }
      return fs.toGzip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
