package dev.schedlab.cli.args;

import dev.schedlab.core.PolicySlots;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.ProfileProvider;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One side of a comparison, written {@code NAME=PROFILE_OR_PLUGIN[+PLUGIN[:key=value;...]]...}: a
 * profile (or a single policy plugin) and plugins added on top, as {@link PolicySlots#add} adds
 * them: an added plugin replaces one already in the variant with the same id (to change its
 * parameters) and, being an ILB selector or a NOHZ registration rule, the variant's selector or
 * rule (there is one of each); any other plugin is appended. Two selectors or two rules named in
 * one variant, or one plugin named twice, are refused. Without {@code NAME=} the specification is
 * the name.
 *
 * @param name the name reports use
 * @param spec the specification as written
 * @param plugins the policy plugins, in hook order
 */
public record Variant(String name, String spec, List<PluginRef> plugins) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  public Variant {
    plugins = List.copyOf(plugins);
  }

  /**
   * Parses a {@code --variant} value.
   *
   * @throws BadInputException for a malformed value, an unknown profile or plugin (with the nearest
   *     id), or a plugin that is not a policy
   */
  static Variant parse(String text, PluginRegistry registry) {
    String value = text.trim();
    int eq = value.indexOf('=');
    int colon = value.indexOf(':');
    boolean named = eq > 0 && (colon < 0 || eq < colon);
    String name = named ? value.substring(0, eq) : value;
    String spec = named ? value.substring(eq + 1) : value;
    if (!NAME.matcher(name).matches()) {
      throw new BadInputException(
          "--variant "
              + text
              + ": name '"
              + name
              + "' must be letters,"
              + " digits, '.', '_' or '-' (it names report columns and files);"
              + " expected NAME=PROFILE_OR_PLUGIN[+PLUGIN[:key=value;...]]");
    }
    if (spec.isBlank()) {
      throw new BadInputException(
          "--variant "
              + text
              + ": nothing after '='; expected NAME=PROFILE_OR_PLUGIN[+PLUGIN[:key=value;...]]");
    }
    List<PluginRef> plugins = new ArrayList<>();
    List<PluginRef> namedPlugins = new ArrayList<>();
    String[] parts = spec.split("\\+", -1);
    for (int i = 0; i < parts.length; i++) {
      PluginRef ref = PluginArguments.parseRef("--variant " + name, parts[i]);
      Optional<ProfileProvider> profile =
          ref.overrides().isEmpty() ? registry.profile(ref.id()) : Optional.empty();
      if (profile.isPresent()) {
        if (i > 0) {
          throw new BadInputException(
              "--variant "
                  + text
                  + ": profile "
                  + ref.id()
                  + " must come first; only plugins may be added with '+'");
        }
        plugins.addAll(profile.get().profile().plugins());
      } else {
        PluginKind kind = policy(registry, text, ref.id(), i == 0).descriptor().kind();
        try {
          PolicySlots.addNamed(plugins, namedPlugins, ref, kind, registry);
        } catch (IllegalArgumentException e) {
          throw new BadInputException("--variant " + text + ": " + e.getMessage(), e);
        }
      }
    }
    return new Variant(name, spec, plugins);
  }

  /**
   * Parses several {@code --variant} values.
   *
   * @throws BadInputException for any bad value or a name used twice
   */
  public static List<Variant> parseAll(List<String> texts, PluginRegistry registry) {
    List<Variant> parsed = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (String text : texts) {
      Variant v = parse(text, registry);
      if (!names.add(v.name())) {
        throw new BadInputException(
            "--variant "
                + text
                + ": the name "
                + v.name()
                + " is used twice; give each variant its own NAME=");
      }
      parsed.add(v);
    }
    return parsed;
  }

  private static PluginProvider policy(
      PluginRegistry registry, String text, String id, boolean first) {
    Optional<PluginProvider> provider = registry.find(id);
    if (provider.isPresent() && provider.get().descriptor().kind().isPolicy()) {
      return provider.get();
    }
    List<String> known = new ArrayList<>();
    if (first) {
      for (ProfileProvider p : registry.list(ProfileProvider.class)) {
        known.add(p.profile().name());
      }
    }
    for (PluginProvider p : registry.all()) {
      if (p.descriptor().kind().isPolicy()) {
        known.add(p.id());
      }
    }
    if (provider.isPresent()) {
      throw new BadInputException(
          "--variant "
              + text
              + ": "
              + id
              + " is not a policy plugin"
              + " (it is a "
              + provider
                  .get()
                  .descriptor()
                  .kind()
                  .name()
                  .toLowerCase(java.util.Locale.ROOT)
                  .replace('_', ' ')
              + "); known: "
              + String.join(", ", known));
    }
    String what = first ? "profile or policy plugin" : "policy plugin";
    throw new BadInputException(
        "--variant " + text + ": " + PluginRegistry.unknownMessage(what, id, known));
  }

  /** {@code name = plugin + plugin ...}, as the reports list the variants. */
  public String definition() {
    return name + " = " + String.join(" + ", pluginNames());
  }

  /** The plugins as reports print them: {@code id[:key=value;...]}. */
  public List<String> pluginNames() {
    return PluginArguments.formatAll(plugins);
  }
}
