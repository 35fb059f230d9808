package dev.schedlab.hw.importer;

/**
 * A topology description that cannot be imported: unreadable, malformed or inconsistent. The
 * message always starts with the file (or other source) and then names the problem, e.g. {@code
 * lassen.xml: object Core (os_index 3) has no cpuset attribute}. It is one line: control characters
 * quoted from the input (a sysfs file's embedded newline) are shown escaped.
 */
public final class TopologyImportException extends IllegalArgumentException {

  private final String source;

  /** An import failure of {@code source} because of {@code problem}. */
  public TopologyImportException(String source, String problem) {
    this(source, problem, null);
  }

  /** An import failure with the low-level cause (a parser or I/O exception). */
  public TopologyImportException(String source, String problem, Throwable cause) {
    super(oneLine(source + ": " + problem), cause);
    this.source = source;
  }

  /** The file or other input that failed to import. */
  public String source() {
    return source;
  }

  /** {@code text} with line breaks and other control characters as {@code \\n}, {@code \\u0001}. */
  static String oneLine(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c == '\u0085') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
