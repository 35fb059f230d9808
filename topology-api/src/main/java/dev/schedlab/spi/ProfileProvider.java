package dev.schedlab.spi;

/**
 * Provider of a {@link Profile}. Its id is {@code profile.<name>} and its description states the
 * source of each choice.
 */
public interface ProfileProvider extends PluginProvider {

  /** The bundle. */
  Profile profile();
}
