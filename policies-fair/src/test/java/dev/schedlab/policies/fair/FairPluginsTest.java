package dev.schedlab.policies.fair;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.policies.fair.ilb.FirstIdleIlbSelectorProvider;
import dev.schedlab.policies.fair.ilb.IdleCoreIlbSelectorProvider;
import dev.schedlab.policies.fair.nohz.AlwaysWhenStoppedNohzIdleTrackingProvider;
import dev.schedlab.policies.fair.nohz.TransitionOnlyNohzIdleTrackingProvider;
import dev.schedlab.policies.fair.profile.Mainline71ProfileProvider;
import dev.schedlab.policies.fair.profile.Mainline73ProfileProvider;
import dev.schedlab.policies.fair.profile.NohzFixProfileProvider;
import dev.schedlab.policies.fair.profile.Pre70SchedIdleProfileProvider;
import dev.schedlab.policies.fair.wake.SchedIdleAnyWakeupPolicyProvider;
import dev.schedlab.policies.fair.wake.SchedIdleAwareWakeupPolicyProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.ProfileProvider;
import dev.schedlab.spi.WakeupPolicyProvider;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every provider of this module is registered for {@link ServiceLoader} under its provider
 * interface (the {@code @AutoService} output), found by {@link PluginRegistry#load()} under its
 * unique id, is a {@code public final} class with a public no-arg constructor, returns one constant
 * descriptor whose kind matches its interface, has a description, a source and exactly one of the
 * MAINLINE/EXPERIMENTAL capabilities, and resolves its parameter defaults.
 */
final class FairPluginsTest {

  static List<PluginProvider> providers() {
    return List.of(
        new FirstIdleIlbSelectorProvider(),
        new IdleCoreIlbSelectorProvider(),
        new TransitionOnlyNohzIdleTrackingProvider(),
        new AlwaysWhenStoppedNohzIdleTrackingProvider(),
        new SchedIdleAnyWakeupPolicyProvider(),
        new SchedIdleAwareWakeupPolicyProvider(),
        new Mainline71ProfileProvider(),
        new Mainline73ProfileProvider(),
        new Pre70SchedIdleProfileProvider(),
        new NohzFixProfileProvider());
  }

  @Test
  void pluginRegistryLoad_classPath_findsEveryProviderOfThisModuleByItsId() {
    PluginRegistry registry = PluginRegistry.load();

    for (PluginProvider expected : providers()) {
      assertThat(registry.find(expected.id()))
          .as(expected.id())
          .hasValueSatisfying(found -> assertThat(found).isInstanceOf(expected.getClass()));
    }
    assertThat(
            registry.all().stream()
                .map(PluginProvider::id)
                .filter(id -> id.startsWith("fair.") || id.startsWith("profile."))
                .sorted()
                .toList())
        .containsExactlyElementsOf(
            providers().stream().map(PluginProvider::id).sorted().collect(Collectors.toList()));
  }

  @Test
  void serviceLoader_eachProviderInterface_listsThisModulesProviders() {
    assertThat(loadedClasses(IlbSelectorProvider.class))
        .contains(FirstIdleIlbSelectorProvider.class, IdleCoreIlbSelectorProvider.class);
    assertThat(loadedClasses(NohzIdleTrackingProvider.class))
        .contains(
            TransitionOnlyNohzIdleTrackingProvider.class,
            AlwaysWhenStoppedNohzIdleTrackingProvider.class);
    assertThat(loadedClasses(WakeupPolicyProvider.class))
        .contains(SchedIdleAnyWakeupPolicyProvider.class, SchedIdleAwareWakeupPolicyProvider.class);
    assertThat(loadedClasses(ProfileProvider.class))
        .contains(
            Mainline71ProfileProvider.class,
            Mainline73ProfileProvider.class,
            Pre70SchedIdleProfileProvider.class,
            NohzFixProfileProvider.class);
  }

  private static List<Class<?>> loadedClasses(Class<? extends PluginProvider> type) {
    return ServiceLoader.load(type).stream()
        .map(ServiceLoader.Provider::type)
        .collect(Collectors.toList());
  }

  @ParameterizedTest
  @MethodSource("providers")
  void everyProvider_shape_isPublicFinalWithPublicNoArgConstructor(PluginProvider provider)
      throws NoSuchMethodException {
    Class<?> type = provider.getClass();
    Constructor<?> constructor = type.getConstructor();

    assertThat(Modifier.isPublic(type.getModifiers())).isTrue();
    assertThat(Modifier.isFinal(type.getModifiers())).isTrue();
    assertThat(Modifier.isPublic(constructor.getModifiers())).isTrue();
  }

  @ParameterizedTest
  @MethodSource("providers")
  void everyProvider_descriptor_isConstantCompleteAndOfItsKind(PluginProvider provider) {
    var descriptor = provider.descriptor();

    assertThat(provider.descriptor()).isSameAs(descriptor);
    assertThat(descriptor.kind().providerType()).isAssignableFrom(provider.getClass());
    assertThat(descriptor.id()).matches("(fair|profile)\\.[a-z0-9.-]+");
    assertThat(descriptor.description()).isNotBlank();
    assertThat(descriptor.source()).isNotBlank();
    assertThat(descriptor.has(Capability.MAINLINE))
        .isNotEqualTo(descriptor.has(Capability.EXPERIMENTAL));
    assertThat(Parameters.defaults(descriptor).asText().keySet())
        .containsExactlyElementsOf(descriptor.parameters().stream().map(p -> p.name()).toList());
    descriptor.parameters().forEach(p -> assertThat(p.description()).isNotBlank());
  }

  @Test
  void providers_ids_areUnique() {
    assertThat(providers().stream().map(PluginProvider::id).distinct().count())
        .isEqualTo(providers().size());
    PluginRegistry.of(providers()); // throws on a duplicate id
  }
}
