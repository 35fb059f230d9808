package dev.schedlab.spi;

/**
 * Common supertype of every provider. A provider is a factory: a {@code public final} class with a
 * no-arg constructor, annotated {@code @AutoService(<its provider interface>.class)}; the products
 * it creates receive everything they need through a context object.
 */
public interface PluginProvider {

  /** Identity, description, typed parameters and capabilities. Must be constant. */
  PluginDescriptor descriptor();

  /** Shortcut for {@code descriptor().id()}. */
  default String id() {
    return descriptor().id();
  }
}
