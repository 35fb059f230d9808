package dev.schedlab.oracle.guest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * The regular files of a gzip-compressed tar archive (ustar headers, GNU long names), as the
 * guest's busybox {@code tar} writes it: path without a leading {@code ./} to content.
 */
public final class TarArchive {

  private final Map<String, byte[]> files;

  private TarArchive(Map<String, byte[]> files) {
    this.files = Collections.unmodifiableMap(files);
  }

  /**
   * Reads a {@code .tar.gz}.
   *
   * @throws IllegalArgumentException when the bytes are not a complete archive
   */
  public static TarArchive readGzip(byte[] gzip) {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
      return read(in.readAllBytes());
    } catch (IOException e) {
      throw new IllegalArgumentException("not a gzip stream: " + e.getMessage(), e);
    }
  }

  /** Reads an uncompressed tar archive. */
  public static TarArchive read(byte[] tar) {
    Map<String, byte[]> out = new TreeMap<>();
    int pos = 0;
    String longName = null;
    while (pos + 512 <= tar.length) {
      if (isZeroBlock(tar, pos)) {
        break;
      }
      String name = text(tar, pos, 100);
      String prefix = text(tar, pos + 345, 155);
      long size = octal(tar, pos + 124, 12);
      char type = (char) tar[pos + 156];
      int dataStart = pos + 512;
      if (dataStart + size > tar.length) {
        throw new IllegalArgumentException("truncated tar archive at entry '" + name + "'");
      }
      if (type == 'L') {
        longName = new String(tar, dataStart, (int) size, StandardCharsets.UTF_8).replace("\0", "");
      } else {
        String path = longName != null ? longName : prefix.isEmpty() ? name : prefix + "/" + name;
        longName = null;
        if (type == '0' || type == '\0') {
          byte[] data = new byte[(int) size];
          System.arraycopy(tar, dataStart, data, 0, (int) size);
          out.put(normalise(path), data);
        }
      }
      pos = dataStart + (int) ((size + 511) / 512 * 512);
    }
    return new TarArchive(out);
  }

  /** Path to content. */
  public Map<String, byte[]> files() {
    return files;
  }

  /** A file's text, or null when absent. */
  public String text(String path) {
    byte[] data = files.get(path);
    return data == null ? null : new String(data, StandardCharsets.UTF_8);
  }

  /** Writes every file below {@code directory}, creating parents. */
  public void extractTo(Path directory) {
    try {
      for (Map.Entry<String, byte[]> e : files.entrySet()) {
        Path target = directory.resolve(e.getKey()).normalize();
        if (!target.startsWith(directory)) {
          throw new IllegalArgumentException("tar entry '" + e.getKey() + "' leaves the target");
        }
        Files.createDirectories(target.getParent());
        Files.write(target, e.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes a minimal ustar archive of {@code files} (for tests and for re-packing). */
  public static byte[] write(Map<String, byte[]> files) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Map.Entry<String, byte[]> e : files.entrySet()) {
      byte[] header = new byte[512];
      byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
      if (name.length > 100) {
        throw new IllegalArgumentException("name over 100 bytes: " + e.getKey());
      }
      System.arraycopy(name, 0, header, 0, name.length);
      putOctal(header, 100, 8, 0644);
      putOctal(header, 124, 12, e.getValue().length);
      header[156] = '0';
      System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, header, 257, 6);
      java.util.Arrays.fill(header, 148, 156, (byte) ' ');
      long sum = 0;
      for (byte b : header) {
        sum += b & 0xff;
      }
      putOctal(header, 148, 8, sum);
      out.writeBytes(header);
      out.writeBytes(e.getValue());
      out.writeBytes(new byte[(512 - e.getValue().length % 512) % 512]);
    }
    out.writeBytes(new byte[1024]);
    return out.toByteArray();
  }

  private static void putOctal(byte[] header, int offset, int length, long value) {
    String digits = String.format("%0" + (length - 1) + "o", value);
    byte[] bytes = digits.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, header, offset, length - 1);
    header[offset + length - 1] = 0;
  }

  private static String normalise(String path) {
    String p = path;
    while (p.startsWith("./")) {
      p = p.substring(2);
    }
    return p.startsWith("/") ? p.substring(1) : p;
  }

  private static boolean isZeroBlock(byte[] tar, int pos) {
    for (int i = 0; i < 512; i++) {
      if (tar[pos + i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static String text(byte[] tar, int offset, int length) {
    int end = offset;
    while (end < offset + length && tar[end] != 0) {
      end++;
    }
    return new String(tar, offset, end - offset, StandardCharsets.UTF_8);
  }

  private static long octal(byte[] tar, int offset, int length) {
    String digits = text(tar, offset, length).trim();
    return digits.isEmpty() ? 0 : Long.parseLong(digits, 8);
  }
}
