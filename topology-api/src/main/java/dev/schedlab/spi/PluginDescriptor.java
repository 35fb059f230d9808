package dev.schedlab.spi;

import dev.schedlab.text.InputText;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a plugin is: a unique id ({@code family.name}, lower case: {@code fair.ilb.idle-core},
 * {@code hw.vera}), its kind, a one-line description, where the behaviour comes from (kernel
 * function, commit or thread), typed parameters and capabilities.
 *
 * @param id unique id, {@code family.name[.more]}, lower case letters, digits and dashes
 * @param kind the extension point
 * @param description one line for listings
 * @param source where the behaviour or numbers come from (kernel version, thread, datasheet)
 * @param parameters typed parameters with defaults and ranges; names unique
 * @param capabilities what the plugin needs or is
 */
public record PluginDescriptor(
    String id,
    PluginKind kind,
    String description,
    String source,
    List<ParameterSpec> parameters,
    Set<Capability> capabilities) {

  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z0-9][a-z0-9-.]*)+");

  public PluginDescriptor {
    if (id == null || !ID.matcher(id).matches() || id.endsWith(".") || id.contains("..")) {
      throw new IllegalArgumentException(
          "plugin id "
              + (id == null ? "null" : InputText.quote(id))
              + " must be family.name in lower case (e.g. fair.ilb.idle-core)");
    }
    if (kind == null) {
      throw new IllegalArgumentException("plugin " + id + " has no kind");
    }
    if (description == null || description.isBlank()) {
      throw new IllegalArgumentException("plugin " + id + " has no description");
    }
    source = source == null ? "" : source;
    parameters = List.copyOf(parameters);
    Set<String> names = new LinkedHashSet<>();
    for (ParameterSpec p : parameters) {
      if (!names.add(p.name())) {
        throw new IllegalArgumentException("plugin " + id + " declares " + p.name() + " twice");
      }
    }
    capabilities = capabilities.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(capabilities));
  }

  /** A descriptor builder, for providers with several parameters. */
  public static Builder builder(String id, PluginKind kind) {
    return new Builder(id, kind);
  }

  /** The parameter called {@code name}, if declared. */
  public Optional<ParameterSpec> parameter(String name) {
    return parameters.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** Whether the plugin declares {@code capability}. */
  public boolean has(Capability capability) {
    return capabilities.contains(capability);
  }

  /** Resolves overrides against the declared parameters; see {@link Parameters#resolve}. */
  public Parameters resolve(java.util.Map<String, String> overrides) {
    return Parameters.resolve(this, overrides);
  }

  /** Builder for {@link PluginDescriptor}. */
  public static final class Builder {
    private final String id;
    private final PluginKind kind;
    private String description = "";
    private String source = "";
    private final List<ParameterSpec> parameters = new java.util.ArrayList<>();
    private final Set<Capability> capabilities = EnumSet.noneOf(Capability.class);

    private Builder(String id, PluginKind kind) {
      this.id = id;
      this.kind = kind;
    }

    /** One-line description. */
    public Builder description(String text) {
      this.description = text;
      return this;
    }

    /** Where the behaviour or numbers come from. */
    public Builder source(String text) {
      this.source = text;
      return this;
    }

    /** Adds a parameter. */
    public Builder parameter(ParameterSpec spec) {
      parameters.add(spec);
      return this;
    }

    /** Adds capabilities. */
    public Builder capabilities(Capability... values) {
      capabilities.addAll(List.of(values));
      return this;
    }

    /** The descriptor; validates id, description and parameter names. */
    public PluginDescriptor build() {
      return new PluginDescriptor(id, kind, description, source, parameters, capabilities);
    }
  }
}
