package dev.schedlab.spi;

/**
 * Provider of an {@link IlbSelector}; register with
 * {@code @AutoService(IlbSelectorProvider.class)}.
 */
public interface IlbSelectorProvider extends PluginProvider {

  /** A selector for one simulation. */
  IlbSelector create(PolicyContext context);
}
