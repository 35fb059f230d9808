package dev.schedlab.oracle.guest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * A gzip-compressed cpio archive in the "newc" format ({@code 070701} headers), the format the
 * kernel unpacks into its initial root file system ({@code init/initramfs.c}). Entries are added in
 * order; a directory must be added before what it holds.
 */
public final class Initramfs {

  private static final int MODE_DIRECTORY = 0040000;
  private static final int MODE_FILE = 0100000;

  private record Entry(int mode, byte[] data) {}

  private final Map<String, Entry> entries = new LinkedHashMap<>();

  /** Adds a directory, e.g. {@code proc}. */
  public Initramfs directory(String path) {
    entries.put(path, new Entry(MODE_DIRECTORY | 0755, new byte[0]));
    return this;
  }

  /** Adds a regular file; {@code executable} gives it mode 0755, otherwise 0644. */
  public Initramfs file(String path, byte[] data, boolean executable) {
    entries.put(path, new Entry(MODE_FILE | (executable ? 0755 : 0644), data.clone()));
    return this;
  }

  /** Whether {@code path} was added. */
  public boolean contains(String path) {
    return entries.containsKey(path);
  }

  /** The archive, gzip-compressed. */
  public byte[] toGzip() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
      writeCpio(gzip);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The uncompressed cpio archive. */
  public byte[] toCpio() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      writeCpio(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private void writeCpio(OutputStream out) throws IOException {
    int inode = 1;
    long[] written = {0};
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      writeEntry(out, written, inode++, e.getKey(), e.getValue().mode(), e.getValue().data());
    }
    writeEntry(out, written, 0, "TRAILER!!!", 0, new byte[0]);
    int pad = (int) ((512 - written[0] % 512) % 512);
    out.write(new byte[pad]);
  }

  private static void writeEntry(
      OutputStream out, long[] written, int inode, String name, int mode, byte[] data)
      throws IOException {
    byte[] nameBytes = (name + "\0").getBytes(StandardCharsets.UTF_8);
    StringBuilder header = new StringBuilder("070701");
    int[] fields = {
      inode,
      mode,
      0,
      0,
      mode == 0 ? 1 : (mode & MODE_DIRECTORY) != 0 ? 2 : 1,
      0,
      data.length,
      0,
      0,
      0,
      0,
      nameBytes.length,
      0
    };
    for (int field : fields) {
      header.append(String.format("%08x", field));
    }
    byte[] headerBytes = header.toString().getBytes(StandardCharsets.US_ASCII);
    out.write(headerBytes);
    out.write(nameBytes);
    written[0] += headerBytes.length + nameBytes.length;
    written[0] += pad4(out, written[0]);
    out.write(data);
    written[0] += data.length;
    written[0] += pad4(out, written[0]);
  }

  private static int pad4(OutputStream out, long position) throws IOException {
    int pad = (int) ((4 - position % 4) % 4);
    out.write(new byte[pad]);
    return pad;
  }
}
