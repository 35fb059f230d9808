package dev.schedlab.workloads;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads rt-app files through Jackson's streaming parser into plain values: objects become {@link
 * LinkedHashMap}s that keep the file's key order (rt-app runs a task's events in that order),
 * arrays {@link List}s, integers {@link Long}, other numbers {@link Double}, {@code null} {@link
 * #NULL}. Comments ({@code //} and {@code /* *}{@code /}) are allowed, as json-c, the parser rt-app
 * uses, allows them. A key repeated in one object is rejected: rt-app users tell events apart with
 * suffixes ({@code run0}, {@code run1}), and json-c would keep only the last. Nesting is bounded at
 * {@value #MAX_DEPTH} levels. Every error is one line naming the line and column.
 */
final class JsonReader {

  /** The JSON {@code null}. */
  static final Object NULL =
      new Object() {
        @Override
        public String toString() {
          return "null";
        }
      };

  static final int MAX_DEPTH = 256;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
          .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
          .build();

  /** Jackson names a position as {@code [Source: ...; line: 3, column: 7]}. */
  private static final Pattern SOURCE_POSITION =
      Pattern.compile("\\[Source: [^\\]]*?line: (\\d+), column: (\\d+)\\]");

  private static final Pattern CHARACTER_CODE = Pattern.compile("\\s*\\(code -?\\d+\\)");

  private JsonReader() {}

  /**
   * Parses one JSON value filling the whole text.
   *
   * @throws IllegalArgumentException naming the line and column of the first problem
   */
  static Object parse(String text) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      try {
        JsonToken first = parser.nextToken();
        if (first == null) {
          throw error(parser.currentLocation(), "the document is empty, expected a JSON object");
        }
        Object value = value(parser, first);
        JsonLocation end = parser.currentLocation();
        boolean more;
        try {
          more = parser.nextToken() != null;
        } catch (JsonProcessingException e) {
          more = true;
        }
        if (more) {
          throw error(end, "unexpected text after the end of the document");
        }
        return value;
      } catch (StreamConstraintsException e) {
        throw error(parser.currentLocation(), "nesting deeper than " + MAX_DEPTH + " levels");
      } catch (JsonProcessingException e) {
        throw error(
            e.getLocation() == null ? parser.currentLocation() : e.getLocation(),
            plainWords(e.getOriginalMessage()));
      }
    } catch (IOException e) {
      // A String source has no I/O of its own; only the parser's own exceptions get here.
      throw new IllegalArgumentException("invalid JSON: " + plainWords(e.getMessage()), e);
    }
  }

  private static Object value(JsonParser parser, JsonToken token) throws IOException {
    return switch (token) {
      case START_OBJECT -> object(parser);
      case START_ARRAY -> array(parser);
      case VALUE_STRING -> parser.getText();
      case VALUE_NUMBER_INT -> integer(parser);
      case VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> NULL;
      default -> throw error(parser.currentTokenLocation(), "expected a value");
    };
  }

  private static Map<String, Object> object(JsonParser parser) throws IOException {
    Map<String, Object> members = new LinkedHashMap<>();
    for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
      String key = parser.currentName();
      if (members.containsKey(key)) {
        throw error(
            parser.currentTokenLocation(),
            "key \"" + key + "\" appears twice in one object (add a suffix: \"" + key + "1\")");
      }
      members.put(key, value(parser, parser.nextToken()));
    }
    return members;
  }

  private static List<Object> array(JsonParser parser) throws IOException {
    List<Object> elements = new ArrayList<>();
    for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
      elements.add(value(parser, t));
    }
    return elements;
  }

  private static Long integer(JsonParser parser) throws IOException {
    JsonParser.NumberType type = parser.getNumberType();
    if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
      return parser.getLongValue();
    }
    throw error(
        parser.currentTokenLocation(),
        "integer "
            + parser.getText()
            + " is out of range (-9223372036854775808..9223372036854775807)");
  }

  /** Jackson's message without its source excerpt and character codes, lower case first. */
  private static String plainWords(String message) {
    if (message == null || message.isBlank()) {
      return "malformed JSON";
    }
    String line = message.strip().replaceAll("\\s*\\R\\s*", "; ");
    Matcher position = SOURCE_POSITION.matcher(line);
    line = position.replaceAll("line $1, column $2");
    line = CHARACTER_CODE.matcher(line).replaceAll("");
    return line.substring(0, 1).toLowerCase(Locale.ROOT) + line.substring(1);
  }

  private static IllegalArgumentException error(JsonLocation at, String message) {
    return new IllegalArgumentException(
        "invalid JSON at line " + at.getLineNr() + ", column " + at.getColumnNr() + ": " + message);
  }
}
