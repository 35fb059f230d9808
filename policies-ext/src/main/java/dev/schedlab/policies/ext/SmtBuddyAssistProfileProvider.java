package dev.schedlab.policies.ext;

import com.google.auto.service.AutoService;
import dev.schedlab.policies.ext.newidle.NoNumaNewidleProvider;
import dev.schedlab.policies.ext.smtbuddy.ExcludeSiblingsProvider;
import dev.schedlab.policies.ext.smtbuddy.SkipSmtAfterPushProvider;
import dev.schedlab.policies.ext.smtbuddy.SmtBuddyPushProvider;
import dev.schedlab.policies.ext.wake.BurstThresholdProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.Profile;
import dev.schedlab.spi.ProfileProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * The SMT_BUDDY_ASSIST RFC as it was posted (seeds-digest.md §3): the mainline-7.3 behaviour it was
 * based on plus the RFC's balancing parts and its burst-wakeup threshold, switched on together. The
 * reviewer's rq-depth alternative is not part of it.
 *
 * <p>The mainline-7.3 plugins live in policies-fair, which this module may not depend on, so they
 * are named by id; they must match {@code profile.mainline-7.3}.
 */
@AutoService(ProfileProvider.class)
public final class SmtBuddyAssistProfileProvider implements ProfileProvider {

  /** The profile's short name. */
  public static final String NAME = "smt-buddy-assist";

  /** The plugin id. */
  public static final String ID = "profile." + NAME;

  /** The plugins of {@code profile.mainline-7.3}, in that profile's order. */
  static final List<String> MAINLINE_7_3 =
      List.of("fair.ilb.idle-core", "fair.nohz.transition-only", "fair.wake.sched-idle-aware");

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.PROFILE)
          .description(
              "mainline-7.3 plus the SMT_BUDDY_ASSIST RFC (SMT push, SMT skip, sibling"
                  + " exclusion, newidle without NUMA, burst wakeups), as posted against the"
                  + " October 2026 scheduler tree")
          .source(
              "SMT_BUDDY_ASSIST RFC (6 patches, Hygon 7447v, posted against the October 2026"
                  + " scheduler tree), parts 1-5; seeds-digest.md §3")
          .capabilities(Capability.EXPERIMENTAL)
          .build();

  private static final Profile PROFILE = new Profile(NAME, plugins());

  /** Creates the provider; {@code ServiceLoader} needs the no-arg constructor. */
  public SmtBuddyAssistProfileProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Profile profile() {
    return PROFILE;
  }

  private static List<PluginRef> plugins() {
    List<PluginRef> refs = new ArrayList<>();
    for (String id : MAINLINE_7_3) {
      refs.add(PluginRef.of(id));
    }
    // The push runs before the walk; skip and exclusion read what it recorded in the pass.
    refs.add(PluginRef.of(SmtBuddyPushProvider.ID));
    refs.add(PluginRef.of(SkipSmtAfterPushProvider.ID));
    refs.add(PluginRef.of(ExcludeSiblingsProvider.ID));
    refs.add(PluginRef.of(NoNumaNewidleProvider.ID));
    refs.add(PluginRef.of(BurstThresholdProvider.ID));
    return refs;
  }
}
