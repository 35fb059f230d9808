package dev.schedlab.spi;

/** Provider of a {@link NohzIdleTracking} rule. */
public interface NohzIdleTrackingProvider extends PluginProvider {

  /** The rule for one simulation. */
  NohzIdleTracking create(PolicyContext context);
}
