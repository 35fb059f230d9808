package dev.schedlab.workloads;

/**
 * The JSON reader of the workloads module for its subpackages ({@code wl.trace}'s program files):
 * the same reader and the same value types as the rt-app import ({@link JsonReader}).
 */
public final class Json {

  private Json() {}

  /**
   * Parses one JSON document: objects become ordered maps, arrays lists, integers {@link Long},
   * other numbers {@link Double}.
   *
   * @throws IllegalArgumentException naming the line and column of the first problem
   */
  public static Object parse(String text) {
    return JsonReader.parse(text);
  }
}
