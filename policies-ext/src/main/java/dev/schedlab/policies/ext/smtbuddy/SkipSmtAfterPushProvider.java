package dev.schedlab.policies.ext.smtbuddy;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/** Provides {@link SkipSmtAfterPush}: part 2 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3). */
@AutoService(BalancePassProvider.class)
public final class SkipSmtAfterPushProvider implements BalancePassProvider {

  /** The plugin id. */
  public static final String ID = "ext.smt-buddy.skip-smt-after-push";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.BALANCE_PASS)
          .description(
              "After an SMT buddy push, skip the SMT (SD_SHARE_CPUCAPACITY) domain for the rest"
                  + " of that balancing pass so the task is not pulled back")
          .source(
              "SMT_BUDDY_ASSIST RFC (6 patches, Hygon 7447v, October 2026 scheduler tree),"
                  + " part 2: skip the SMT domain after a push; seeds-digest.md §3")
          .capabilities(Capability.EXPERIMENTAL, Capability.NEEDS_SMT)
          .build();

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public SkipSmtAfterPushProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public BalancePass create(PolicyContext context) {
    return new SkipSmtAfterPush(context.counter("skipped_domains"));
  }
}
