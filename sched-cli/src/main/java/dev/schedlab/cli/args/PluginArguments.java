package dev.schedlab.cli.args;

import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.HardwareModelProvider;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Plugin choices as written on the command line: {@code -M key=value} lists and references of the
 * form {@code id[:key=value;key=value...]}, resolved against the registry with the registry's own
 * messages (nearest id, allowed ranges).
 */
public final class PluginArguments {

  private PluginArguments() {}

  /**
   * The {@code KEY=VALUE} items of a repeated option, in order; a later key wins.
   *
   * @param option the option as the user wrote it, for messages ({@code -M})
   */
  public static Map<String, String> keyValues(String option, List<String> items) {
    Map<String, String> values = new LinkedHashMap<>();
    if (items == null) {
      return values;
    }
    for (String item : items) {
      int eq = item.indexOf('=');
      if (eq <= 0) {
        throw new BadInputException(
            option + " " + item + ": expected KEY=VALUE, e.g. " + option + " threads=8");
      }
      String key = item.substring(0, eq).trim();
      String previous = values.put(key, item.substring(eq + 1).trim());
      if (previous != null) {
        throw twice(option + " " + key, previous, values.get(key));
      }
    }
    return values;
  }

  /**
   * Parses {@code id[:key=value;key=value...]}.
   *
   * @param what what the reference names, for messages ({@code --selector})
   */
  public static PluginRef parseRef(String what, String text) {
    String trimmed = text.trim();
    int colon = trimmed.indexOf(':');
    String id = colon < 0 ? trimmed : trimmed.substring(0, colon);
    if (id.isEmpty()) {
      throw new BadInputException(
          what + " '" + text + "': no plugin id; expected ID[:key=value;...]");
    }
    Map<String, String> overrides = new LinkedHashMap<>();
    if (colon >= 0) {
      for (String item : trimmed.substring(colon + 1).split(";")) {
        if (item.isBlank()) {
          continue;
        }
        int eq = item.indexOf('=');
        if (eq <= 0) {
          throw new BadInputException(
              what
                  + " '"
                  + text
                  + "': parameter '"
                  + item
                  + "' is not key=value; expected ID[:key=value;...]");
        }
        String key = item.substring(0, eq).trim();
        String previous = overrides.put(key, item.substring(eq + 1).trim());
        if (previous != null) {
          throw twice(what + " " + id + ":" + key, previous, overrides.get(key));
        }
      }
    }
    return new PluginRef(id, overrides);
  }

  /**
   * A key given twice is an error rather than last-wins: in a long command line the second is as
   * often a mistake as an intent, and nothing tells which.
   */
  private static BadInputException twice(String key, String first, String second) {
    return new BadInputException(
        key + " is given twice (" + first + ", then " + second + "); give each key once");
  }

  /** {@code id[:key=value;...]} with keys sorted, as reports print a plugin choice. */
  public static String format(PluginRef ref) {
    if (ref.overrides().isEmpty()) {
      return ref.id();
    }
    return ref.id()
        + ":"
        + new TreeMap<>(ref.overrides())
            .entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(";"));
  }

  /** {@link #format(PluginRef)} of each reference, in order. */
  public static List<String> formatAll(List<PluginRef> refs) {
    return refs.stream().map(PluginArguments::format).toList();
  }

  /**
   * The provider of {@code type} called {@code id}.
   *
   * @throws BadInputException naming the nearest known id
   */
  public static <T extends PluginProvider> T require(
      PluginRegistry registry, String id, Class<T> type) {
    try {
      return registry.require(id, type);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }

  /**
   * Builds machine {@code id} with parameter {@code overrides}.
   *
   * @throws IllegalArgumentException for an unknown id, a bad parameter or an unreadable import
   */
  static HardwareModel machine(PluginRegistry registry, String id, Map<String, String> overrides) {
    HardwareModelProvider provider = require(registry, id, HardwareModelProvider.class);
    return provider.create(provider.descriptor().resolve(overrides));
  }
}
