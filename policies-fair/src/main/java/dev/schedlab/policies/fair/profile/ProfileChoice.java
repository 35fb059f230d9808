package dev.schedlab.policies.fair.profile;

import dev.schedlab.spi.PluginRef;
import java.util.Objects;

/**
 * One plugin a profile picks, with the reason and source of the pick as it appears in the profile's
 * description.
 *
 * @param plugin the plugin and its parameter overrides
 * @param source what the pick models and where that is documented, e.g. {@code "ILB first-idle:
 *     find_new_ilb() of 7.1.5 (kernel-facts §3.5)"}
 */
public record ProfileChoice(PluginRef plugin, String source) {

  public ProfileChoice {
    Objects.requireNonNull(plugin, "plugin");
    if (source == null || source.isBlank()) {
      throw new IllegalArgumentException("profile choice " + plugin.id() + " has no source");
    }
  }
}
