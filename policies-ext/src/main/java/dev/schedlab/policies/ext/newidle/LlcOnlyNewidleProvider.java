package dev.schedlab.policies.ext.newidle;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/**
 * Provides {@link LlcOnlyNewidle}: a stricter variant of part 4 of the SMT_BUDDY_ASSIST RFC
 * (seeds-digest.md §3).
 */
@AutoService(BalancePassProvider.class)
public final class LlcOnlyNewidleProvider implements BalancePassProvider {

  /** The plugin id. */
  public static final String ID = "ext.newidle.llc-only";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.BALANCE_PASS)
          .description(
              "Newidle balancing skips every domain above the LLC (no SD_SHARE_LLC), so it never"
                  + " pulls across last-level caches")
          .source(
              "Variant of part 4 of the SMT_BUDDY_ASSIST RFC (6 patches, Hygon 7447v, October"
                  + " 2026 scheduler tree), whose rationale names cross-LLC pulls on newidle as"
                  + " costly where L3 is not shared; seeds-digest.md §3")
          .capabilities(Capability.EXPERIMENTAL)
          .build();

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public LlcOnlyNewidleProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public BalancePass create(PolicyContext context) {
    return new LlcOnlyNewidle(context.counter("skipped_domains"));
  }
}
