package dev.schedlab.spi;

/** Provider of a {@link WakeupPolicy}. */
public interface WakeupPolicyProvider extends PluginProvider {

  /** The policy for one simulation. */
  WakeupPolicy create(PolicyContext context);
}
