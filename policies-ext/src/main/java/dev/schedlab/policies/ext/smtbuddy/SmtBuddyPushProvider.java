package dev.schedlab.policies.ext.smtbuddy;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PolicyContext;

/**
 * Provides {@link SmtBuddyPush}: part 1 of the SMT_BUDDY_ASSIST RFC (seeds-digest.md §3), which
 * pushes tasks from a CPU with several runnable tasks to a less loaded SMT sibling at the start of
 * {@code sched_balance_domains()}.
 */
@AutoService(BalancePassProvider.class)
public final class SmtBuddyPushProvider implements BalancePassProvider {

  /** The plugin id. */
  public static final String ID = "ext.smt-buddy.push";

  /** Name of the parameter standing for the RFC's {@code smt_buddy_imbalance_pct} tunable. */
  public static final String IMBALANCE_PCT = "imbalance_pct";

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.BALANCE_PASS)
          .description(
              "Before the periodic domain walk, push tasks from a CPU with >= 2 runnable tasks to"
                  + " an SMT sibling whose runnable average is lower by imbalance_pct")
          .source(
              "SMT_BUDDY_ASSIST RFC (6 patches, Hygon 7447v, October 2026 scheduler tree),"
                  + " part 1: SMT sibling push at the start of sched_balance_domains();"
                  + " seeds-digest.md §3")
          .parameter(
              ParameterSpec.ofInt(
                  IMBALANCE_PCT,
                  "push while src_runnable x 100 > sibling_runnable x imbalance_pct (the RFC's"
                      + " smt_buddy_imbalance_pct sysctl and its range)",
                  125,
                  105,
                  200))
          .capabilities(Capability.EXPERIMENTAL, Capability.NEEDS_SMT)
          .build();

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public SmtBuddyPushProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public BalancePass create(PolicyContext context) {
    return new SmtBuddyPush(
        context.topology(),
        context.domains(),
        context.state(),
        context.parameters().getInt(IMBALANCE_PCT),
        context.counter("pushes"));
  }
}
