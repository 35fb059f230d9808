package dev.schedlab.spi;

import java.util.Map;

/**
 * A plugin chosen by id with parameter overrides, as written in a variant: {@code
 * ext.smt-buddy.push:imbalance_pct=150}.
 *
 * @param id plugin id
 * @param overrides parameter name → raw value
 */
public record PluginRef(String id, Map<String, String> overrides) {

  public PluginRef {
    overrides = Map.copyOf(overrides);
  }

  /** A reference with default parameters. */
  public static PluginRef of(String id) {
    return new PluginRef(id, Map.of());
  }
}
