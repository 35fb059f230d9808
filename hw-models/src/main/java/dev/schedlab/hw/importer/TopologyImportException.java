package dev.schedlab.hw.importer;

/**
 * A topology description that cannot be imported: unreadable, malformed or inconsistent. The
 * message always starts with the file (or other source) and then names the problem, e.g. {@code
 * lassen.xml: object Core (os_index 3) has no cpuset attribute}.
 */
public final class TopologyImportException extends IllegalArgumentException {

  private final String source;

  /** An import failure of {@code source} because of {@code problem}. */
  public TopologyImportException(String source, String problem) {
    this(source, problem, null);
  }

  /** An import failure with the low-level cause (a parser or I/O exception). */
  public TopologyImportException(String source, String problem, Throwable cause) {
    super(source + ": " + problem, cause);
    this.source = source;
  }

  /** The file or other input that failed to import. */
  public String source() {
    return source;
  }
}
