package dev.schedlab.text;

/**
 * A user's input as an error message shows it. Every parser in schedlab says what is wrong in one
 * line and quotes the offending text; a newline or other control character in that text (a shape
 * pasted with its line end, a value read from a file with a stray carriage return) would otherwise
 * break the line. Control characters are written as Java escapes: {@code \n}, {@code \r}, {@code
 * \t}, {@code \\}, and {@code \}{@code u00XX} for the rest of C0 and DEL.
 */
public final class InputText {

  private InputText() {}

  /** {@code text} in double quotes, with quotes, backslashes and control characters escaped. */
  public static String quote(String text) {
    return append(new StringBuilder(text.length() + 2).append('"'), text, true)
        .append('"')
        .toString();
  }

  /**
   * {@code text} itself when it holds no control character; otherwise with control characters and
   * backslashes escaped, for messages that show the input unquoted ({@code name=value}).
   */
  public static String printable(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (isControl(text.charAt(i))) {
        return append(new StringBuilder(text.length() + 8), text, false).toString();
      }
    }
    return text;
  }

  /** One character: a printable one in single quotes, any other as {@link #quote} writes it. */
  public static String describe(char c) {
    return isControl(c) ? quote(String.valueOf(c)) : "'" + c + "'";
  }

  private static boolean isControl(char c) {
    return c < ' ' || c == 0x7f;
  }

  private static StringBuilder append(StringBuilder out, String text, boolean escapeQuote) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append(escapeQuote ? "\\\"" : "\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (isControl(c)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out;
  }
}
