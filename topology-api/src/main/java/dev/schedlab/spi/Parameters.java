package dev.schedlab.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A plugin's resolved parameter values: every declared parameter with its default or the user's
 * override, parsed and range-checked. Immutable.
 */
public final class Parameters {

  private final String pluginId;
  private final Map<String, Object> values;
  private final Map<String, String> raw;

  private Parameters(String pluginId, Map<String, Object> values, Map<String, String> raw) {
    this.pluginId = pluginId;
    this.values = Collections.unmodifiableMap(values);
    this.raw = Collections.unmodifiableMap(raw);
  }

  /**
   * Applies {@code overrides} (name → raw text) to the descriptor's defaults.
   *
   * @throws IllegalArgumentException for an unknown name (the message lists the known ones) or a
   *     value outside its allowed range (the message names the range)
   */
  public static Parameters resolve(PluginDescriptor descriptor, Map<String, String> overrides) {
    for (String name : overrides.keySet()) {
      if (descriptor.parameter(name).isEmpty()) {
        String known =
            descriptor.parameters().isEmpty()
                ? "it takes no parameters"
                : "known: "
                    + descriptor.parameters().stream()
                        .map(ParameterSpec::name)
                        .collect(Collectors.joining(", "));
        throw new IllegalArgumentException(
            "unknown parameter '" + name + "' for " + descriptor.id() + "; " + known);
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    Map<String, String> raw = new LinkedHashMap<>();
    for (ParameterSpec spec : descriptor.parameters()) {
      String text = overrides.getOrDefault(spec.name(), spec.defaultValue());
      try {
        values.put(spec.name(), spec.parse(text));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(descriptor.id() + ": " + e.getMessage(), e);
      }
      raw.put(spec.name(), text.trim());
    }
    return new Parameters(descriptor.id(), values, raw);
  }

  /** The defaults of {@code descriptor}. */
  public static Parameters defaults(PluginDescriptor descriptor) {
    return resolve(descriptor, Map.of());
  }

  /** The plugin these values belong to. */
  public String pluginId() {
    return pluginId;
  }

  /** An INT parameter. */
  public int getInt(String name) {
    return (Integer) get(name, Integer.class);
  }

  /** A LONG or DURATION (ns) parameter. */
  public long getLong(String name) {
    return (Long) get(name, Long.class);
  }

  /** A DOUBLE parameter. */
  public double getDouble(String name) {
    return (Double) get(name, Double.class);
  }

  /** A BOOLEAN parameter. */
  public boolean getBoolean(String name) {
    return (Boolean) get(name, Boolean.class);
  }

  /** A CHOICE, STRING or CPULIST parameter. */
  public String getString(String name) {
    return (String) get(name, String.class);
  }

  /** Name → value as the user would write it (defaults included), in declaration order. */
  public Map<String, String> asText() {
    return raw;
  }

  private Object get(String name, Class<?> type) {
    Object v = values.get(name);
    if (v == null) {
      throw new IllegalArgumentException(
          "plugin " + pluginId + " has no parameter '" + name + "'; known: " + values.keySet());
    }
    if (!type.isInstance(v)) {
      throw new IllegalArgumentException(
          "parameter "
              + name
              + " of "
              + pluginId
              + " is a "
              + v.getClass().getSimpleName()
              + ", not a "
              + type.getSimpleName());
    }
    return v;
  }

  @Override
  public String toString() {
    return raw.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(";"));
  }
}
