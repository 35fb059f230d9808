package dev.schedlab.policies.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.Capability;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.WakeupPolicyProvider;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every plugin of this module is found by {@code PluginRegistry.load()} through the service files
 * that {@code @AutoService} generates, under its exact id and kind, as a {@code public final} class
 * with a public no-arg constructor, marked experimental, with a description, a source and
 * parameters whose defaults resolve.
 */
final class PluginDiscoveryTest {

  private static final List<String> BALANCE_PASSES =
      List.of(
          "ext.newidle.llc-only",
          "ext.newidle.no-numa",
          "ext.smt-buddy.exclude-siblings",
          "ext.smt-buddy.push",
          "ext.smt-buddy.skip-smt-after-push");
  private static final List<String> ILB_SELECTORS = List.of("ext.ilb.round-robin");
  private static final List<String> WAKEUP_POLICIES =
      List.of(
          "ext.wake.burst-threshold", "ext.wake.rq-depth-distribute", "ext.wake.stable-idle-core");

  private final PluginRegistry registry = PluginRegistry.load();

  private List<PluginProvider> ours() {
    return registry.all().stream()
        .filter(p -> p.getClass().getPackageName().startsWith("dev.schedlab.policies.ext"))
        .toList();
  }

  @Test
  void load_findsEveryBalancePassById() {
    assertThat(registry.list(BalancePassProvider.class))
        .extracting(PluginProvider::id)
        .containsAll(BALANCE_PASSES);
  }

  @Test
  void load_findsEveryWakeupPolicyById() {
    assertThat(registry.list(WakeupPolicyProvider.class))
        .extracting(PluginProvider::id)
        .containsAll(WAKEUP_POLICIES);
  }

  @Test
  void load_findsEveryIlbSelectorById() {
    assertThat(registry.list(IlbSelectorProvider.class))
        .extracting(PluginProvider::id)
        .containsAll(ILB_SELECTORS);
  }

  @Test
  void load_findsTheProfileByName() {
    assertThat(registry.profile("smt-buddy-assist")).isPresent();
  }

  @Test
  void load_findsNothingElseFromThisModule() {
    assertThat(ours())
        .extracting(PluginProvider::id)
        .containsExactlyInAnyOrder(
            "ext.newidle.llc-only",
            "ext.newidle.no-numa",
            "ext.smt-buddy.exclude-siblings",
            "ext.smt-buddy.push",
            "ext.smt-buddy.skip-smt-after-push",
            "ext.wake.burst-threshold",
            "ext.wake.rq-depth-distribute",
            "ext.wake.stable-idle-core",
            "ext.ilb.round-robin",
            "profile.smt-buddy-assist");
  }

  @Test
  void providers_arePublicFinalWithPublicNoArgConstructor() throws NoSuchMethodException {
    for (PluginProvider provider : ours()) {
      Class<?> type = provider.getClass();
      assertThat(Modifier.isPublic(type.getModifiers())).as(type.getName()).isTrue();
      assertThat(Modifier.isFinal(type.getModifiers())).as(type.getName()).isTrue();
      assertThat(Modifier.isPublic(type.getConstructor().getModifiers())).isTrue();
    }
  }

  @Test
  void descriptors_areExperimentalDocumentedAndResolveTheirDefaults() {
    for (PluginProvider provider : ours()) {
      PluginDescriptor descriptor = provider.descriptor();
      assertThat(descriptor.has(Capability.EXPERIMENTAL)).as(descriptor.id()).isTrue();
      assertThat(descriptor.has(Capability.MAINLINE)).as(descriptor.id()).isFalse();
      // Each names the thread it models: the SMT_BUDDY_ASSIST RFC or an LKML posting.
      assertThat(descriptor.source())
          .as(descriptor.id())
          .containsAnyOf("SMT_BUDDY_ASSIST", "https://lkml.iu.edu/");
      assertThat(descriptor.resolve(Map.of()).asText())
          .as(descriptor.id())
          .hasSameSizeAs(descriptor.parameters());
      assertThat(descriptor).isSameAs(provider.descriptor());
    }
  }

  @Test
  void descriptors_smtPartsNeedSmtAndNoNumaNeedsNuma() {
    for (String id :
        List.of(
            "ext.smt-buddy.push",
            "ext.smt-buddy.skip-smt-after-push",
            "ext.smt-buddy.exclude-siblings")) {
      assertThat(registry.find(id).orElseThrow().descriptor().has(Capability.NEEDS_SMT))
          .as(id)
          .isTrue();
    }
    assertThat(
            registry
                .find("ext.newidle.no-numa")
                .orElseThrow()
                .descriptor()
                .has(Capability.NEEDS_NUMA))
        .isTrue();
  }

  @Test
  void descriptors_kindMatchesTheProviderInterface() {
    for (PluginProvider provider : ours()) {
      PluginKind kind = provider.descriptor().kind();
      assertThat(kind.providerType().isInstance(provider)).as(provider.id()).isTrue();
    }
  }
}
