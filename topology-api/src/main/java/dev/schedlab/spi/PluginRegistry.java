package dev.schedlab.spi;

import dev.schedlab.topology.Topology;
import java.net.URL;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * The set of known plugins, keyed by unique id. Built at the edge of the program by {@link
 * #load(ClassLoader)} (one {@link ServiceLoader} per {@link PluginKind}) or by tests with {@link
 * #of(Collection)}, then handed to the engine as data. Duplicate ids are rejected at start-up with
 * both providers named, as JUnit's engine registry does.
 */
public final class PluginRegistry {

  private static final String PROFILE_PREFIX = "profile.";

  private final Map<String, PluginProvider> byId;

  private PluginRegistry(Map<String, PluginProvider> byId) {
    this.byId = Collections.unmodifiableMap(byId);
  }

  /** Discovers every provider visible to {@code loader}. */
  public static PluginRegistry load(ClassLoader loader) {
    List<PluginProvider> found = new ArrayList<>();
    for (PluginKind kind : PluginKind.values()) {
      for (PluginProvider provider : ServiceLoader.load(kind.providerType(), loader)) {
        if (provider.descriptor().kind() != kind) {
          throw new IllegalStateException(
              "plugin "
                  + provider.id()
                  + " ("
                  + provider.getClass().getName()
                  + ") is registered as "
                  + kind.providerType().getSimpleName()
                  + " but its descriptor says "
                  + provider.descriptor().kind());
        }
        found.add(provider);
      }
    }
    return of(found);
  }

  /** Discovers every provider visible to this class's loader. */
  public static PluginRegistry load() {
    return load(PluginRegistry.class.getClassLoader());
  }

  /**
   * A registry of exactly {@code providers}.
   *
   * @throws IllegalStateException when two providers share an id
   */
  public static PluginRegistry of(Collection<? extends PluginProvider> providers) {
    Map<String, PluginProvider> byId = new LinkedHashMap<>();
    providers.stream()
        .sorted(Comparator.comparing(PluginProvider::id))
        .forEach(
            p -> {
              PluginProvider previous = byId.putIfAbsent(p.id(), p);
              if (previous != null && previous.getClass() != p.getClass()) {
                throw new IllegalStateException(
                    "duplicate plugin id "
                        + p.id()
                        + ": "
                        + describe(previous)
                        + " and "
                        + describe(p));
              }
            });
    return new PluginRegistry(byId);
  }

  /** Every provider, sorted by id. */
  public List<PluginProvider> all() {
    return List.copyOf(byId.values());
  }

  /** Providers of one kind, sorted by id. */
  public List<PluginProvider> list(PluginKind kind) {
    return byId.values().stream()
        .filter(p -> p.descriptor().kind() == kind)
        .collect(Collectors.toUnmodifiableList());
  }

  /** Providers of one provider type, sorted by id. */
  public <T extends PluginProvider> List<T> list(Class<T> type) {
    return byId.values().stream()
        .filter(type::isInstance)
        .map(type::cast)
        .collect(Collectors.toUnmodifiableList());
  }

  /** The provider with this id. */
  public Optional<PluginProvider> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /**
   * The provider with this id and type.
   *
   * @throws IllegalArgumentException naming the unknown id, the nearest known id of that type and
   *     the list of known ids
   */
  public <T extends PluginProvider> T require(String id, Class<T> type) {
    PluginProvider p = byId.get(id);
    if (type.isInstance(p)) {
      return type.cast(p);
    }
    List<String> known = list(type).stream().map(PluginProvider::id).collect(Collectors.toList());
    String what = kindWord(type);
    if (p != null) {
      throw new IllegalArgumentException(
          id
              + " is "
              + withArticle(kindWord(p.descriptor().kind().providerType()))
              + ", not "
              + withArticle(what)
              + "; known "
              + what
              + "s: "
              + String.join(", ", known));
    }
    throw new IllegalArgumentException(unknownMessage(what, id, known));
  }

  /** The profile called {@code name} ({@code mainline-7.3}) or with id {@code profile.<name>}. */
  public Optional<ProfileProvider> profile(String name) {
    String id = name.startsWith(PROFILE_PREFIX) ? name : PROFILE_PREFIX + name;
    PluginProvider p = byId.get(id);
    return p instanceof ProfileProvider ? Optional.of((ProfileProvider) p) : Optional.empty();
  }

  /** Whether the machine offers what the plugin's capabilities require. */
  public static boolean supports(PluginDescriptor descriptor, Topology topology) {
    if (descriptor.has(Capability.NEEDS_SMT) && !topology.isSmt()) {
      return false;
    }
    if (descriptor.has(Capability.NEEDS_NUMA) && topology.nodeCount() < 2) {
      return false;
    }
    return !descriptor.has(Capability.NEEDS_ASYM_CAPACITY) || topology.isAsymmetricCapacity();
  }

  /** Where the provider's class was loaded from (a jar or directory), for listings. */
  public static String origin(PluginProvider provider) {
    CodeSource source = provider.getClass().getProtectionDomain().getCodeSource();
    URL location = source == null ? null : source.getLocation();
    return location == null ? "(unknown)" : location.toString();
  }

  /**
   * A one-line "unknown id" message with the nearest known id, e.g. {@code unknown machine
   * 'hw.vra'; did you mean 'hw.vera'? known: hw.altra, hw.vera}.
   */
  public static String unknownMessage(String what, String id, Collection<String> known) {
    String nearest = nearest(id, known);
    return "unknown "
        + what
        + " '"
        + id
        + "'"
        + (nearest == null ? "" : "; did you mean '" + nearest + "'?")
        + " known: "
        + (known.isEmpty() ? "(none)" : String.join(", ", known));
  }

  /** The known id closest to {@code id} by edit distance, or null when none is close. */
  public static String nearest(String id, Collection<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : known) {
      int d = editDistance(id.toLowerCase(Locale.ROOT), candidate);
      if (d < bestDistance
          || (d == bestDistance && best != null && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best != null && bestDistance <= Math.max(2, best.length() / 3) ? best : null;
  }

  private static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static String kindWord(Class<?> providerType) {
    for (PluginKind kind : PluginKind.values()) {
      if (kind.providerType().isAssignableFrom(providerType)) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
      }
    }
    return "plugin";
  }

  private static String withArticle(String word) {
    return ("aeiou".indexOf(word.charAt(0)) >= 0 ? "an " : "a ") + word;
  }

  private static String describe(PluginProvider p) {
    return p.getClass().getName() + " from " + origin(p);
  }
}
