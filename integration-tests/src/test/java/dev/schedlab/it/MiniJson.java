package dev.schedlab.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A reader for the JSON the CLI writes (objects, arrays, strings with the escapes {@code Json}
 * emits, numbers, booleans, null): objects become {@link LinkedHashMap}s, arrays {@link List}s,
 * numbers {@link Long} or {@link Double}. Test code only; malformed input throws.
 */
final class MiniJson {

  private final String text;
  private int pos;

  private MiniJson(String text) {
    this.text = text;
  }

  static Object parse(String text) {
    MiniJson reader = new MiniJson(text);
    Object value = reader.value();
    reader.skipSpace();
    if (reader.pos != text.length()) {
      throw reader.error("trailing characters");
    }
    return value;
  }

  private Object value() {
    skipSpace();
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
      default:
        if (text.startsWith("true", pos)) {
          pos += 4;
          return Boolean.TRUE;
        }
        if (text.startsWith("false", pos)) {
          pos += 5;
          return Boolean.FALSE;
        }
        if (text.startsWith("null", pos)) {
          pos += 4;
          return null;
        }
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
      String key = string();
      skipSpace();
      expect(':');
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
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = text.charAt(pos++);
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'u' -> {
          out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> out.append(e);
      }
    }
  }

  private Number number() {
    int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    String n = text.substring(start, pos);
    if (n.isEmpty()) {
      throw error("unexpected character");
    }
    return n.contains(".") || n.contains("e") || n.contains("E")
        ? (Number) Double.valueOf(n) : (Number) Long.valueOf(n);
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
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + pos);
  }
}
