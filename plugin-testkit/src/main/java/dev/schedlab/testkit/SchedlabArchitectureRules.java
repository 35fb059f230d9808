package dev.schedlab.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * schedlab's architecture rules for plugin code, reusable in a plugin author's build: plugin code
 * depends only on topology-api ({@code dev.schedlab.cpumask}, {@code dev.schedlab.topology}, {@code
 * dev.schedlab.spi}), the JDK, the Eclipse Collections API, AutoService annotations and extras you
 * allow; providers are {@code public final}, registered with {@code @AutoService} for the provider
 * interface they implement, with a public no-arg constructor; policies take randomness and time
 * from their context, not from the JDK; no mutable static state; no package cycles.
 *
 * <p>With ArchUnit's JUnit 5 support ({@code archunit-junit5} at test scope):
 *
 * <pre>{@code
 * @AnalyzeClasses(
 *     packages = "com.example.myplugin",
 *     importOptions = ImportOption.DoNotIncludeTests.class)
 * class ArchitectureTest {
 *   @ArchTest
 *   static final ArchRule schedlab =
 *       SchedlabArchitectureRules.pluginRules("com.example.myplugin");
 * }
 * }</pre>
 *
 * or in a plain JUnit test: {@code SchedlabArchitectureRules.checkPlugin("com.example.myplugin")}.
 * Package arguments are package names ({@code com.example.myplugin}) or ArchUnit package patterns
 * ({@code com.example.myplugin..}); either way they include subpackages.
 */
public final class SchedlabArchitectureRules {

  /** The packages of topology-api, the only schedlab module a plugin may use. */
  public static final List<String> TOPOLOGY_API =
      List.of(
          "dev.schedlab.cpumask..",
          "dev.schedlab.topology..",
          "dev.schedlab.spi..",
          "dev.schedlab.text..");

  /** What besides topology-api and its own packages any plugin may use. */
  public static final List<String> ALWAYS_ALLOWED =
      List.of("java..", "org.eclipse.collections.api..", "com.google.auto.service..");

  private SchedlabArchitectureRules() {}

  /**
   * Every rule for plugin code in {@code pluginPackage}: {@link #dependOnlyOnTopologyApi}, {@link
   * #providersArePublicFinalAndRegistered}, {@link #noJdkRandomnessOrClock}, {@link
   * #noMutableStaticState} and {@link #noPackageCycles}.
   *
   * @param pluginPackage the plugin's root package
   * @param allowedExtras further package patterns the plugin may depend on ({@code
   *     "org.xml.sax.."})
   */
  public static ArchRule pluginRules(String pluginPackage, String... allowedExtras) {
    return CompositeArchRule.of(dependOnlyOnTopologyApi(pluginPackage, allowedExtras))
        .and(providersArePublicFinalAndRegistered(pluginPackage))
        .and(noJdkRandomnessOrClock(pluginPackage))
        .and(noMutableStaticState(pluginPackage))
        .and(noPackageCycles(pluginPackage));
  }

  /** {@link #pluginRules} as a list, one rule per entry, for reporting each separately. */
  public static List<ArchRule> pluginRuleList(String pluginPackage, String... allowedExtras) {
    return List.of(
        dependOnlyOnTopologyApi(pluginPackage, allowedExtras),
        providersArePublicFinalAndRegistered(pluginPackage),
        noJdkRandomnessOrClock(pluginPackage),
        noMutableStaticState(pluginPackage),
        noPackageCycles(pluginPackage));
  }

  /**
   * Imports the main (non-test) classes of {@code pluginPackage} from the class path and checks
   * {@link #pluginRules} on them.
   *
   * @throws AssertionError listing every violation
   */
  public static void checkPlugin(String pluginPackage, String... allowedExtras) {
    pluginRules(pluginPackage, allowedExtras).check(importMainClasses(pluginPackage));
  }

  /**
   * The main (non-test) classes of {@code packages} (subpackages included) on the class path. Finds
   * the packages through the class loader's resource index instead of ArchUnit's scan of every
   * class path entry, which costs seconds with large jars on the path.
   *
   * @throws IllegalStateException when the class path cannot be read
   */
  public static JavaClasses importMainClasses(String... packages) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader == null) {
      loader = SchedlabArchitectureRules.class.getClassLoader();
    }
    Set<Location> locations = new LinkedHashSet<>();
    for (String p : packages) {
      String path = packageName(p).replace('.', '/');
      try {
        Enumeration<URL> urls = loader.getResources(path);
        while (urls.hasMoreElements()) {
          locations.add(Location.of(urls.nextElement()));
        }
      } catch (IOException e) {
        throw new IllegalStateException("cannot read the class path for " + p + ": " + e, e);
      }
    }
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importLocations(locations);
  }

  /**
   * Classes in {@code pluginPackage} depend only on their own packages, topology-api, {@link
   * #ALWAYS_ALLOWED} and {@code allowedExtras}; in particular not on the engine (sched-core), the
   * command line or other plugins' modules.
   */
  public static ArchRule dependOnlyOnTopologyApi(String pluginPackage, String... allowedExtras) {
    List<String> allowed = new ArrayList<>();
    allowed.add(pattern(pluginPackage));
    allowed.addAll(TOPOLOGY_API);
    allowed.addAll(ALWAYS_ALLOWED);
    allowed.addAll(Arrays.asList(allowedExtras));
    return classes()
        .that()
        .resideInAPackage(pattern(pluginPackage))
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(allowed.toArray(String[]::new))
        .because(
            "a plugin depends on topology-api alone (DESIGN.md), so it works with any"
                + " engine version and stays out of the engine's internals");
  }

  /**
   * Concrete classes in {@code pluginPackage} implementing {@link PluginProvider} are {@code public
   * final}, have a public no-arg constructor and are annotated {@code @AutoService} naming the
   * provider interface they implement.
   */
  public static ArchRule providersArePublicFinalAndRegistered(String pluginPackage) {
    return classes()
        .that()
        .resideInAPackage(pattern(pluginPackage))
        .and()
        .implement(PluginProvider.class)
        .and()
        .areNotInterfaces()
        .and()
        .doNotHaveModifier(JavaModifier.ABSTRACT)
        .should()
        .bePublic()
        .andShould()
        .haveModifier(JavaModifier.FINAL)
        .andShould(haveAPublicNoArgConstructor())
        .andShould(beRegisteredWithAutoServiceForTheirProviderInterface())
        .allowEmptyShould(true)
        .because(
            "ServiceLoader creates providers with their no-arg constructor and finds them"
                + " through the service file @AutoService writes");
  }

  /**
   * Classes in {@code pluginPackage} create no {@code java.util.Random}, {@code SplittableRandom}
   * or {@code ThreadLocalRandom} and do not call {@code Math.random()}, {@code System.nanoTime()}
   * or {@code System.currentTimeMillis()}: a run must be a function of its seed, so randomness
   * comes from {@code PolicyContext.random()} and time from {@code CpuStateView.nowNs()}.
   */
  public static ArchRule noJdkRandomnessOrClock(String pluginPackage) {
    return noClasses()
        .that()
        .resideInAPackage(pattern(pluginPackage))
        .should()
        .callConstructor(java.util.Random.class)
        .orShould()
        .callConstructor(java.util.Random.class, long.class)
        .orShould()
        .callConstructor(java.util.SplittableRandom.class)
        .orShould()
        .callMethod(java.util.concurrent.ThreadLocalRandom.class, "current")
        .orShould()
        .callMethod(Math.class, "random")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .because(
            "the same seed must give the same run; use PolicyContext.random() and"
                + " CpuStateView.nowNs()");
  }

  /**
   * Static fields in {@code pluginPackage} are final: simulations run in parallel on many threads
   * and one simulation must not see another's state.
   */
  public static ArchRule noMutableStaticState(String pluginPackage) {
    return fields()
        .that()
        .areDeclaredInClassesThat()
        .resideInAPackage(pattern(pluginPackage))
        .and()
        .areStatic()
        .should()
        .beFinal()
        .allowEmptyShould(true)
        .because("simulations run in parallel and keep no static state (DESIGN.md)");
  }

  /** The packages under {@code pluginPackage} are free of cycles. */
  public static ArchRule noPackageCycles(String pluginPackage) {
    String root = packageName(pluginPackage);
    SliceAssignment byPackage =
        new SliceAssignment() {
          @Override
          public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String p = javaClass.getPackageName();
            return p.equals(root) || p.startsWith(root + ".")
                ? SliceIdentifier.of(p)
                : SliceIdentifier.ignore();
          }

          @Override
          public String getDescription() {
            return "the packages of " + root;
          }
        };
    return slices().assignedFrom(byPackage).should().beFreeOfCycles().allowEmptyShould(true);
  }

  private static ArchCondition<JavaClass> haveAPublicNoArgConstructor() {
    return new ArchCondition<>("have a public no-arg constructor") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        boolean ok =
            item.getConstructors().stream()
                .anyMatch(
                    c ->
                        c.getRawParameterTypes().isEmpty()
                            && c.getModifiers().contains(JavaModifier.PUBLIC));
        if (!ok) {
          events.add(
              SimpleConditionEvent.violated(
                  item, item.getName() + " has no public no-arg constructor"));
        }
      }
    };
  }

  private static ArchCondition<JavaClass> beRegisteredWithAutoServiceForTheirProviderInterface() {
    return new ArchCondition<>("be annotated @AutoService(<the provider interface>.class)") {
      @Override
      public void check(JavaClass item, ConditionEvents events) {
        List<String> expected = new ArrayList<>();
        for (PluginKind kind : PluginKind.values()) {
          if (item.isAssignableTo(kind.providerType())) {
            expected.add(kind.providerType().getName());
          }
        }
        Optional<JavaAnnotation<JavaClass>> annotation =
            item.tryGetAnnotationOfType("com.google.auto.service.AutoService");
        if (annotation.isEmpty()) {
          events.add(
              SimpleConditionEvent.violated(
                  item,
                  item.getName()
                      + " is not annotated @AutoService("
                      + simpleNames(expected)
                      + ".class)"));
          return;
        }
        List<String> named = new ArrayList<>();
        Object value = annotation.get().get("value").orElse(new Object[0]);
        if (value instanceof Object[] values) {
          for (Object v : values) {
            if (v instanceof JavaClass c) {
              named.add(c.getName());
            }
          }
        }
        if (!named.containsAll(expected)) {
          events.add(
              SimpleConditionEvent.violated(
                  item,
                  item.getName()
                      + " is annotated @AutoService("
                      + simpleNames(named)
                      + ") but implements "
                      + simpleNames(expected)));
        }
      }
    };
  }

  private static String simpleNames(List<String> names) {
    return String.join(", ", names.stream().map(n -> n.substring(n.lastIndexOf('.') + 1)).toList());
  }

  /** {@code com.example} or {@code com.example..} → {@code com.example..}. */
  static String pattern(String pluginPackage) {
    return packageName(pluginPackage) + "..";
  }

  /** {@code com.example} or {@code com.example..} → {@code com.example}. */
  static String packageName(String pluginPackage) {
    String p = pluginPackage.trim();
    while (p.endsWith(".")) {
      p = p.substring(0, p.length() - 1);
    }
    if (p.isEmpty() || p.contains("*") || p.contains("(")) {
      throw new IllegalArgumentException(
          "plugin package \""
              + pluginPackage
              + "\" must be a package name such as"
              + " com.example.myplugin");
    }
    return p;
  }
}
