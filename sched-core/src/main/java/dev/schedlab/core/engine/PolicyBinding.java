package dev.schedlab.core.engine;

import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginProvider;
import java.util.Objects;

/**
 * A provider chosen for a run together with its resolved parameters; the engine creates the product
 * with a context of its own when the simulation starts.
 *
 * @param provider the plugin's provider
 * @param parameters its resolved parameters
 * @param <P> the provider type
 */
public record PolicyBinding<P extends PluginProvider>(P provider, Parameters parameters) {

  public PolicyBinding {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(parameters, "parameters");
    if (!parameters.pluginId().equals(provider.id())) {
      throw new IllegalArgumentException(
          "parameters of " + parameters.pluginId() + " given to plugin " + provider.id());
    }
  }

  /** The provider with its default parameters. */
  public static <P extends PluginProvider> PolicyBinding<P> withDefaults(P provider) {
    return new PolicyBinding<>(provider, Parameters.defaults(provider.descriptor()));
  }

  /** The plugin id. */
  public String id() {
    return provider.id();
  }
}
