package dev.schedlab.policies.ext.newidle;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/** Provides {@link NoNumaNewidle}: part 4 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3). */
@AutoService(BalancePassProvider.class)
public final class NoNumaNewidleProvider implements BalancePassProvider {

  /** The plugin id. */
  public static final String ID = "ext.newidle.no-numa";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.BALANCE_PASS)
          .description("Newidle balancing skips SD_NUMA domains, so it never pulls across nodes")
          .source(
              "SMT_BUDDY_ASSIST RFC (6 patches, Hygon 7447v, October 2026 scheduler tree),"
                  + " part 4: no newidle balancing of SD_NUMA domains (a reviewer suggested"
                  + " clearing SD_BALANCE_NEWIDLE on them, which has the same effect);"
                  + " seeds-digest.md §3")
          .capabilities(Capability.EXPERIMENTAL, Capability.NEEDS_NUMA)
          .build();

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public NoNumaNewidleProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public BalancePass create(PolicyContext context) {
    return new NoNumaNewidle(context.counter("skipped_domains"));
  }
}
