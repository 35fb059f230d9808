package dev.schedlab.policies.ext.smtbuddy;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/**
 * Provides {@link ExcludeSiblings}: part 3 of the SMT_BUDDY_ASSIST RFC with the reviewer's
 * one-and-not form (seeds-digest.md §3).
 */
@AutoService(BalancePassProvider.class)
public final class ExcludeSiblingsProvider implements BalancePassProvider {

  /** The plugin id. */
  public static final String ID = "ext.smt-buddy.exclude-siblings";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.BALANCE_PASS)
          .description(
              "After an SMT buddy push, drop each push destination's SMT siblings from the"
                  + " busiest-runqueue candidates of the higher domains in that pass")
          .source(
              "SMT_BUDDY_ASSIST RFC (6 patches, Hygon 7447v, October 2026 scheduler tree),"
                  + " part 3, in the reviewer's form: one cpumask and-not per destination, SMT"
                  + " masks may be wider than 2; seeds-digest.md §3")
          .capabilities(Capability.EXPERIMENTAL, Capability.NEEDS_SMT)
          .build();

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public ExcludeSiblingsProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public BalancePass create(PolicyContext context) {
    return new ExcludeSiblings(context.topology());
  }
}
