package dev.schedlab.core;

import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import java.util.List;
import java.util.Optional;

/**
 * The rule of how many policy plugins of each kind one variant holds. The kernel has one {@code
 * find_new_ilb()} and one place that registers an idle CPU in {@code nohz.idle_cpus_mask} ({@code
 * nohz_balance_enter_idle()}), so a variant has at most one ILB selector and one NOHZ registration
 * rule: those kinds are single-slot. Balance-pass and wakeup hooks chain, so a variant holds any
 * number of them, run in the order listed.
 *
 * <p>Adding a plugin to a variant ({@link #add}) replaces a plugin with the same id (new
 * parameters) or, for a single-slot kind, the plugin already in that slot (a profile's selector
 * replaced by an added one), in its place in the list; anything else is appended. Two plugins named
 * for one slot of one variant, or one named twice, are refused ({@link #addNamed}). A list handed
 * to the engine that still names two plugins of a single-slot kind is refused ({@link #checkFree}).
 */
public final class PolicySlots {

  private PolicySlots() {}

  /** Whether a variant holds at most one plugin of {@code kind}. */
  public static boolean isSingleSlot(PluginKind kind) {
    return kind == PluginKind.ILB_SELECTOR || kind == PluginKind.NOHZ_IDLE_TRACKING;
  }

  /**
   * Adds {@code ref}, a plugin of {@code kind}, to a variant's {@code plugins}: in place of the
   * plugin with the same id or, {@code kind} being single-slot, of the one of that kind already
   * there (whose kind {@code registry} tells); otherwise at the end.
   */
  public static void add(
      List<PluginRef> plugins, PluginRef ref, PluginKind kind, PluginRegistry registry) {
    for (int i = 0; i < plugins.size(); i++) {
      PluginRef existing = plugins.get(i);
      if (existing.id().equals(ref.id())
          || isSingleSlot(kind) && kindOf(registry, existing).filter(k -> k == kind).isPresent()) {
        plugins.set(i, ref);
        return;
      }
    }
    plugins.add(ref);
  }

  /**
   * As {@link #add}, for a plugin the user names in a variant. Replacing what a profile brought is
   * the point of naming a plugin; naming two for one slot, or one plugin twice, is a mistake that
   * would silently drop the first (the kernel runs one {@code find_new_ilb()}).
   *
   * @param named the plugins named so far in this variant (not those of its profile); {@code ref}
   *     is added to it
   * @throws IllegalArgumentException naming both plugins when {@code kind} is single-slot and a
   *     plugin of that kind is already named, or naming the plugin when it is named twice
   */
  public static void addNamed(
      List<PluginRef> plugins,
      List<PluginRef> named,
      PluginRef ref,
      PluginKind kind,
      PluginRegistry registry) {
    for (PluginRef earlier : named) {
      if (earlier.id().equals(ref.id())) {
        throw new IllegalArgumentException(
            ref.id()
                + " is named twice; name it once, with all"
                + " its parameters ("
                + ref.id()
                + ":key=value;key=value)");
      }
      if (isSingleSlot(kind) && kindOf(registry, earlier).filter(k -> k == kind).isPresent()) {
        throw new IllegalArgumentException(
            "two "
                + plural(kind)
                + ": "
                + earlier.id()
                + " and "
                + ref.id()
                + "; a variant has one (one added to a profile replaces the profile's)");
      }
    }
    named.add(ref);
    add(plugins, ref, kind, registry);
  }

  /**
   * Checks that the slot of {@code kind} is free before {@code newId} takes it.
   *
   * @param occupantId the id of the plugin already in the slot, or null
   * @throws IllegalArgumentException naming both plugins when {@code kind} is single-slot and the
   *     slot is taken
   */
  public static void checkFree(PluginKind kind, String occupantId, String newId) {
    if (isSingleSlot(kind) && occupantId != null) {
      throw new IllegalArgumentException(
          "two " + plural(kind) + ": " + occupantId + " and " + newId);
    }
  }

  private static Optional<PluginKind> kindOf(PluginRegistry registry, PluginRef ref) {
    return registry.find(ref.id()).map(PluginProvider::descriptor).map(PluginDescriptor::kind);
  }

  private static String plural(PluginKind kind) {
    return kind == PluginKind.ILB_SELECTOR ? "ILB selectors" : "NOHZ registration rules";
  }
}
