package dev.schedlab.testkit;

import dev.schedlab.spi.Capability;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.ProfileProvider;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks that need no engine: the provider's class shape and service registration, and its
 * descriptor (id, kind, description, source, parameters with their defaults and ranges).
 */
final class DescriptorChecks {

  /** The id grammar of {@link PluginDescriptor}, restated so a provider cannot bypass it. */
  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9]*(\\.[a-z0-9][a-z0-9-]*)+");

  /** Families of schedlab's own policy modules; third-party plugins choose their own. */
  private static final Set<String> RESERVED_FAMILIES = Set.of("fair", "ext");

  private static final String UNKNOWN_PARAMETER = "no_such_parameter";

  private final PluginProvider provider;
  private final PluginRegistry registry;

  /**
   * @param provider the provider under test
   * @param registry the plugins the id must be unique among, or null to discover them with the
   *     provider's class loader
   */
  DescriptorChecks(PluginProvider provider, PluginRegistry registry) {
    this.provider = provider;
    this.registry = registry;
  }

  /** The checks, in order. */
  List<ConformanceCheck> checks() {
    List<ConformanceCheck> checks = new ArrayList<>();
    checks.add(
        new ConformanceCheck(
            "provider",
            "public final class with a public no-arg" + " constructor",
            this::checkClassShape));
    checks.add(
        new ConformanceCheck(
            "provider", "registered with ServiceLoader", this::checkServiceRegistration));
    checks.add(
        new ConformanceCheck(
            "descriptor",
            "constant, with id family.name and matching" + " kind",
            this::checkIdentity));
    checks.add(
        new ConformanceCheck("descriptor", "description and source", this::checkDocumentation));
    checks.add(
        new ConformanceCheck(
            "descriptor", "id unique among the plugins on the class path", this::checkUnique));
    checks.add(new ConformanceCheck("descriptor", "defaults resolve", this::checkDefaults));
    checks.add(
        new ConformanceCheck(
            "descriptor", "unknown parameter names rejected", this::checkUnknownParameter));
    PluginDescriptor descriptor = descriptorOrNull();
    if (descriptor != null) {
      for (ParameterSpec spec : descriptor.parameters()) {
        checks.add(
            new ConformanceCheck(
                "parameter " + spec.name(),
                "documented, default valid, range enforced",
                () -> checkParameter(spec)));
      }
    }
    return checks;
  }

  /** The descriptor, or an {@link AssertionError} saying why it cannot be read. */
  PluginDescriptor descriptor() {
    try {
      PluginDescriptor d = provider.descriptor();
      if (d == null) {
        throw new AssertionError(className() + ".descriptor() returned null");
      }
      return d;
    } catch (RuntimeException e) {
      throw new AssertionError(
          className()
              + ".descriptor() threw "
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** The descriptor, or null when it cannot be read (a check reports why). */
  PluginDescriptor descriptorOrNull() {
    try {
      return descriptor();
    } catch (AssertionError e) {
      return null;
    }
  }

  private void checkClassShape() {
    Class<?> type = provider.getClass();
    List<String> problems = new ArrayList<>();
    int modifiers = type.getModifiers();
    if (!Modifier.isPublic(modifiers)) {
      problems.add("is not public");
    }
    if (!Modifier.isFinal(modifiers)) {
      problems.add("is not final");
    }
    if (type.getEnclosingClass() != null && !Modifier.isStatic(modifiers)) {
      problems.add("is an inner class (ServiceLoader cannot create it)");
    }
    Constructor<?> constructor = null;
    try {
      constructor = type.getConstructor();
    } catch (NoSuchMethodException e) {
      problems.add("has no public no-arg constructor (ServiceLoader needs one)");
    }
    if (constructor != null && Modifier.isPublic(modifiers)) {
      try {
        PluginProvider fresh = (PluginProvider) constructor.newInstance();
        PluginDescriptor mine = descriptorOrNull();
        if (mine != null && !mine.equals(fresh.descriptor())) {
          problems.add(
              "describes itself differently in a new instance (the descriptor must be"
                  + " constant)");
        }
      } catch (InvocationTargetException e) {
        problems.add("threw " + e.getCause() + " in its no-arg constructor");
      } catch (ReflectiveOperationException | RuntimeException e) {
        problems.add("cannot be created with its no-arg constructor: " + e);
      }
    }
    if (!problems.isEmpty()) {
      throw new AssertionError(
          "provider "
              + type.getName()
              + " "
              + String.join(", ", problems)
              + "; a provider is a public final class with a public no-arg constructor,"
              + " annotated @AutoService(<provider interface>.class)");
    }
  }

  private void checkServiceRegistration() {
    PluginKind kind = expectedKind();
    Class<? extends PluginProvider> service = kind.providerType();
    ClassLoader loader = provider.getClass().getClassLoader();
    boolean registered =
        ServiceLoader.load(service, loader).stream()
            .anyMatch(p -> p.type().equals(provider.getClass()));
    if (!registered) {
      throw new AssertionError(
          provider.getClass().getName()
              + " is not registered as a "
              + service.getSimpleName()
              + ": annotate it with @AutoService("
              + service.getSimpleName()
              + ".class), which"
              + " writes META-INF/services/"
              + service.getName());
    }
  }

  private void checkIdentity() {
    PluginDescriptor d = descriptor();
    if (!d.equals(provider.descriptor())) {
      throw new AssertionError(
          "descriptor() of "
              + d.id()
              + " returned different descriptors on two calls; it must"
              + " be constant");
    }
    String id = provider.id();
    if (!d.id().equals(id)) {
      throw new AssertionError(
          "id() returns \"" + id + "\" but descriptor().id() is \"" + d.id() + "\"");
    }
    if (!ID.matcher(id).matches()) {
      throw new AssertionError(
          "id \""
              + id
              + "\" must be family.name in lower case letters, digits and dashes"
              + " (e.g. fair.ilb.idle-core)");
    }
    PluginKind kind = expectedKind();
    if (d.kind() != kind) {
      throw new AssertionError(
          id
              + ": descriptor says kind "
              + d.kind()
              + " but the class implements "
              + kind.providerType().getSimpleName()
              + " (kind "
              + kind
              + ")");
    }
    boolean profile = provider instanceof ProfileProvider;
    if (profile != id.startsWith("profile.")) {
      throw new AssertionError(
          id
              + ": "
              + (profile
                  ? "a profile's id is profile.<name>"
                  : "the family profile. is for ProfileProvider ids only"));
    }
    String family = id.substring(0, id.indexOf('.'));
    if (RESERVED_FAMILIES.contains(family)
        && !provider.getClass().getName().startsWith("dev.schedlab.")) {
      throw new AssertionError(
          id
              + ": the family "
              + family
              + ". belongs to schedlab's own plugins; choose a family"
              + " of your own (e.g. "
              + "acme."
              + id.substring(family.length() + 1)
              + ")");
    }
    if (d.has(Capability.MAINLINE) && d.has(Capability.EXPERIMENTAL)) {
      throw new AssertionError(id + " declares both MAINLINE and EXPERIMENTAL");
    }
  }

  private void checkDocumentation() {
    PluginDescriptor d = descriptor();
    List<String> problems = new ArrayList<>();
    if (d.description().isBlank()) {
      problems.add("has no description");
    } else if (d.description().contains("\n")) {
      problems.add("has a description of several lines (listings show one line)");
    }
    if (d.source().isBlank()) {
      problems.add(
          "has no source (say where the behaviour comes from: kernel function, commit,"
              + " thread, or \"original\")");
    }
    if (!problems.isEmpty()) {
      throw new AssertionError("plugin " + d.id() + " " + String.join(" and ", problems));
    }
  }

  private void checkUnique() {
    PluginDescriptor d = descriptor();
    PluginRegistry known;
    try {
      known =
          registry != null ? registry : PluginRegistry.load(provider.getClass().getClassLoader());
    } catch (RuntimeException e) {
      throw new AssertionError("the plugins on the class path do not load: " + e.getMessage(), e);
    }
    known
        .find(d.id())
        .ifPresent(
            other -> {
              if (other.getClass() != provider.getClass()) {
                throw new AssertionError(
                    "id "
                        + d.id()
                        + " is already used by "
                        + other.getClass().getName()
                        + " from "
                        + PluginRegistry.origin(other)
                        + "; ids must be unique");
              }
            });
  }

  private void checkDefaults() {
    PluginDescriptor d = descriptor();
    try {
      Parameters.defaults(d);
    } catch (RuntimeException e) {
      throw new AssertionError(d.id() + ": the defaults do not resolve: " + e.getMessage(), e);
    }
  }

  private void checkUnknownParameter() {
    PluginDescriptor d = descriptor();
    String message = rejection(d, UNKNOWN_PARAMETER, "1");
    if (message == null) {
      throw new AssertionError(d.id() + " accepted an unknown parameter " + UNKNOWN_PARAMETER);
    }
    List<String> missing = new ArrayList<>();
    for (ParameterSpec spec : d.parameters()) {
      if (!message.contains(spec.name())) {
        missing.add(spec.name());
      }
    }
    if (!message.contains(UNKNOWN_PARAMETER) || !missing.isEmpty()) {
      throw new AssertionError(
          d.id()
              + ": the message for an unknown parameter must name it and list the known ones"
              + (missing.isEmpty() ? "" : " (missing " + missing + ")")
              + "; it was: "
              + message);
    }
  }

  private void checkParameter(ParameterSpec spec) {
    PluginDescriptor d = descriptor();
    String where = d.id() + " parameter " + spec.name();
    if (spec.description().isBlank()) {
      throw new AssertionError(where + " has no description (say what it does and its unit)");
    }
    try {
      spec.parse(spec.defaultValue());
    } catch (IllegalArgumentException e) {
      throw new AssertionError(where + ": default is invalid: " + e.getMessage(), e);
    }
    for (String value : ParameterEdges.inside(spec)) {
      String message = rejection(d, spec.name(), value);
      if (message != null) {
        throw new AssertionError(
            where
                + "="
                + value
                + " is inside the documented range "
                + spec.allowed()
                + " but was rejected: "
                + message);
      }
    }
    for (String value : ParameterEdges.outside(spec)) {
      String message = rejection(d, spec.name(), value);
      if (message == null) {
        throw new AssertionError(
            where
                + "="
                + value
                + " is outside the documented range "
                + spec.allowed()
                + " but was accepted");
      }
      if (!message.contains(spec.name()) || !message.contains(spec.allowed())) {
        throw new AssertionError(
            where
                + "="
                + value
                + " was rejected, but the message must name the parameter and"
                + " what is allowed ("
                + spec.allowed()
                + "); it was: "
                + message);
      }
    }
  }

  /** The rejection message for {@code name=value}, or null when it is accepted. */
  private static String rejection(PluginDescriptor d, String name, String value) {
    try {
      d.resolve(Map.of(name, value));
      return null;
    } catch (IllegalArgumentException e) {
      return String.valueOf(e.getMessage());
    }
  }

  /** The kind of the provider interface the class implements. */
  PluginKind expectedKind() {
    List<PluginKind> kinds = new ArrayList<>();
    for (PluginKind kind : PluginKind.values()) {
      if (kind.providerType().isInstance(provider)) {
        kinds.add(kind);
      }
    }
    if (kinds.size() != 1) {
      throw new AssertionError(
          provider.getClass().getName()
              + " must implement exactly one provider interface of"
              + " dev.schedlab.spi; it implements "
              + (kinds.isEmpty() ? "none" : kinds));
    }
    return kinds.get(0);
  }

  private String className() {
    return provider.getClass().getName();
  }
}
