package dev.schedlab.spi;

import java.util.List;

/**
 * A named bundle of policy plugins, such as a kernel version's behaviour. A variant is a profile
 * plus overrides.
 *
 * @param name short name used on the command line ({@code mainline-7.3})
 * @param plugins the policy plugins, in the order their hooks run
 */
public record Profile(String name, List<PluginRef> plugins) {

  public Profile {
    plugins = List.copyOf(plugins);
  }
}
