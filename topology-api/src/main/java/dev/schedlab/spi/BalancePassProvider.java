package dev.schedlab.spi;

/** Provider of a {@link BalancePass}. */
public interface BalancePassProvider extends PluginProvider {

  /** The pass hooks for one simulation. */
  BalancePass create(PolicyContext context);
}
