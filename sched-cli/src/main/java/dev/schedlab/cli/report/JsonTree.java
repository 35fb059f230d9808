package dev.schedlab.cli.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON report back into the plain values {@link Json} writes (maps in key order, lists,
 * strings, {@code Long} or {@code Double} numbers, booleans, null), through Jackson's streaming
 * parser: {@code schedlab rerun} compares a report with its rerun value by value.
 */
public final class JsonTree {

  /** Reports nest a few levels; a deeper document is not one of ours. */
  private static final int MAX_DEPTH = 64;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
          .build();

  private JsonTree() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException naming the line and column of malformed JSON
   */
  public static Object parse(String text) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      parser.nextToken();
      Object value = value(parser);
      if (parser.nextToken() != null) {
        throw new IllegalArgumentException(
            "text after the JSON value at line " + parser.currentLocation().getLineNr());
      }
      return value;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          e.getOriginalMessage()
              + " at line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr(),
          e);
    } catch (IOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static Object value(JsonParser p) throws IOException {
    JsonToken token = p.currentToken();
    if (token == null) {
      throw new IllegalArgumentException("empty document");
    }
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          p.nextToken();
          map.put(key, value(p));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(value(p));
        }
        return list;
      }
      case VALUE_STRING -> {
        return p.getText();
      }
      case VALUE_NUMBER_INT -> {
        return p.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default ->
          throw new IllegalArgumentException(
              "unexpected " + token + " at line " + p.currentLocation().getLineNr());
    }
  }

  /**
   * The path of the first value in which {@code a} and {@code b} differ ({@code
   * variants[1].metrics.ilb_kicks: 488 against 490}), or null when they are equal.
   */
  public static String firstDifference(Object a, Object b) {
    return difference("", a, b);
  }

  private static String difference(String path, Object a, Object b) {
    if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
      for (Map.Entry<?, ?> e : ma.entrySet()) {
        String at = path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey();
        if (!mb.containsKey(e.getKey())) {
          return at + ": absent from the rerun";
        }
        String d = difference(at, e.getValue(), mb.get(e.getKey()));
        if (d != null) {
          return d;
        }
      }
      for (Object key : mb.keySet()) {
        if (!ma.containsKey(key)) {
          return (path.isEmpty() ? "" : path + ".") + key + ": new in the rerun";
        }
      }
      return null;
    }
    if (a instanceof List<?> la && b instanceof List<?> lb) {
      for (int i = 0; i < Math.min(la.size(), lb.size()); i++) {
        String d = difference(path + "[" + i + "]", la.get(i), lb.get(i));
        if (d != null) {
          return d;
        }
      }
      return la.size() == lb.size()
          ? null
          : path + ": " + la.size() + " entries against " + lb.size();
    }
    return java.util.Objects.equals(a, b)
        ? null
        : path + ": " + Json.compact(a) + " against " + Json.compact(b);
  }
}
