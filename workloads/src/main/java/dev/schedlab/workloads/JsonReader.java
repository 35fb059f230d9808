package dev.schedlab.workloads;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for rt-app files. Objects become {@link LinkedHashMap}s that keep the file's
 * key order (rt-app runs a task's events in that order), arrays {@link List}s, integers {@link
 * Long}, other numbers {@link Double}, {@code null} {@link #NULL}. Comments ({@code //} and {@code
 * /* *}{@code /}) are skipped, as json-c, the parser rt-app uses, allows. A key repeated in one
 * object is rejected: rt-app users tell events apart with suffixes ({@code run0}, {@code run1}).
 */
final class JsonReader {

  /** The JSON {@code null}. */
  static final Object NULL = new Object() {
    @Override
    public String toString() {
      return "null";
    }
  };

  private static final int MAX_DEPTH = 256;

  private final String text;
  private int pos;
  private int depth;

  private JsonReader(String text) {
    this.text = text;
  }

  /**
   * Parses one JSON value filling the whole text.
   *
   * @throws IllegalArgumentException naming the line and column of the first problem
   */
  static Object parse(String text) {
    JsonReader reader = new JsonReader(text);
    Object value = reader.value();
    reader.skipSpace();
    if (reader.pos != text.length()) {
      throw reader.error("unexpected text after the end of the document");
    }
    return value;
  }

  private Object value() {
    skipSpace();
    if (pos >= text.length()) {
      throw error("unexpected end of input, expected a value");
    }
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", NULL);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw error("unexpected character '" + c + "', expected a value");
      }
    };
  }

  private Map<String, Object> object() {
    enter();
    pos++;
    Map<String, Object> members = new LinkedHashMap<>();
    skipSpace();
    if (peek() == '}') {
      pos++;
      depth--;
      return members;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a quoted key");
      }
      int keyAt = pos;
      String key = string();
      if (members.containsKey(key)) {
        pos = keyAt;
        throw error("key \"" + key + "\" appears twice in one object (add a suffix: \"" + key
            + "1\")");
      }
      skipSpace();
      expect(':');
      members.put(key, value());
      skipSpace();
      char c = peek();
      pos++;
      if (c == '}') {
        depth--;
        return members;
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or '}' in an object");
      }
    }
  }

  private List<Object> array() {
    enter();
    pos++;
    List<Object> elements = new ArrayList<>();
    skipSpace();
    if (peek() == ']') {
      pos++;
      depth--;
      return elements;
    }
    while (true) {
      elements.add(value());
      skipSpace();
      char c = peek();
      pos++;
      if (c == ']') {
        depth--;
        return elements;
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or ']' in an array");
      }
    }
  }

  private String string() {
    pos++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        pos--;
        throw error("control character in a string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("incomplete \\u escape");
          }
          try {
            out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          pos += 4;
        }
        default -> {
          pos--;
          throw error("unknown escape \\" + e);
        }
      }
    }
  }

  private Object number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    boolean integral = true;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c >= '0' && c <= '9') {
        pos++;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        integral = false;
        pos++;
      } else {
        break;
      }
    }
    String literal = text.substring(start, pos);
    try {
      if (integral) {
        return Long.parseLong(literal);
      }
      return Double.parseDouble(literal);
    } catch (NumberFormatException e) {
      pos = start;
      throw error("malformed number " + literal);
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected word, expected a value");
    }
    pos += word.length();
    return value;
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        pos++;
      } else if (c == '/' && text.startsWith("//", pos)) {
        int end = text.indexOf('\n', pos);
        pos = end < 0 ? text.length() : end + 1;
      } else if (c == '/' && text.startsWith("/*", pos)) {
        int end = text.indexOf("*/", pos + 2);
        if (end < 0) {
          throw error("unterminated comment");
        }
        pos = end + 2;
      } else {
        return;
      }
    }
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    return text.charAt(pos);
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH);
    }
  }

  private IllegalArgumentException error(String message) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < Math.min(pos, text.length()); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new IllegalArgumentException(
        "invalid JSON at line " + line + ", column " + column + ": " + message);
  }
}
