package dev.schedlab.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict, minimal JSON parser for tests (RFC 8259): objects become {@link LinkedHashMap}, arrays
 * {@link ArrayList}, numbers {@link Double}. Throws {@link IllegalArgumentException} with the
 * offset of anything malformed, trailing text included. Public, and shipped in this module's test
 * jar, for integration tests that read the CLI's JSON.
 */
public final class JsonParser {

  private final String text;
  private int pos;

  private JsonParser(String text) {
    this.text = text;
  }

  /** Parses one JSON document. */
  public static Object parse(String text) {
    JsonParser p = new JsonParser(text);
    p.skipSpace();
    Object value = p.value();
    p.skipSpace();
    if (p.pos != text.length()) {
      throw p.error("trailing text");
    }
    return value;
  }

  /** Parses a document whose top level is an object. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> object(String text) {
    Object value = parse(text);
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("top level is not an object");
    }
    return (Map<String, Object>) value;
  }

  private Object value() {
    if (pos >= text.length()) {
      throw error("unexpected end");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    skipSpace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a key");
      }
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      if (map.containsKey(key)) {
        throw error("duplicate key " + key);
      }
      map.put(key, value());
      skipSpace();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect('}');
      return map;
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    pos++;
    skipSpace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      skipSpace();
      list.add(value());
      skipSpace();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect(']');
      return list;
    }
  }

  private String string() {
    expect('"');
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
        throw error("control character in string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
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
          out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return value;
  }

  private Double number() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (Character.isDigit(peek())) {
      while (Character.isDigit(peek())) {
        pos++;
      }
    } else {
      throw error("expected a value");
    }
    if (peek() == '.') {
      pos++;
      if (!Character.isDigit(peek())) {
        throw error("expected a digit after '.'");
      }
      while (Character.isDigit(peek())) {
        pos++;
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!Character.isDigit(peek())) {
        throw error("expected an exponent");
      }
      while (Character.isDigit(peek())) {
        pos++;
      }
    }
    return Double.parseDouble(text.substring(start, pos));
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipSpace() {
    while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
  }

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException(problem + " at offset " + pos);
  }
}
