package dev.schedlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.core.engine.PolicyBinding;
import dev.schedlab.core.workload.CpuBoundWorkloadProvider;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassProvider;
import dev.schedlab.spi.FirstIdleIlbSelector;
import dev.schedlab.spi.HardwareModel;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.IlbSelectorProvider;
import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.NohzIdleTracking;
import dev.schedlab.spi.NohzIdleTrackingProvider;
import dev.schedlab.spi.PerfStateView;
import dev.schedlab.spi.PerformanceModel;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.PluginRef;
import dev.schedlab.spi.PluginRegistry;
import dev.schedlab.spi.PolicyContext;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one-per-variant rule: ILB selectors and NOHZ registration rules are single-slot, balance
 * passes and wakeup hooks are not; adding a plugin replaces the one with the same id or the one in
 * its slot, in place, and appends anything else; the engine's configuration refuses a second plugin
 * for a taken slot, naming both.
 */
final class PolicySlotsTest {

  private static final PluginRegistry REGISTRY =
      PluginRegistry.of(
          List.of(
              ilb("test.ilb.a"),
              ilb("test.ilb.b"),
              nohz("test.nohz.a"),
              nohz("test.nohz.b"),
              pass("test.pass.a"),
              pass("test.pass.b")));

  @Test
  void isSingleSlot_selectorAndRegistrationRuleOnly() {
    assertThat(List.of(PluginKind.values()).stream().filter(PolicySlots::isSingleSlot))
        .containsExactly(PluginKind.ILB_SELECTOR, PluginKind.NOHZ_IDLE_TRACKING);
  }

  @Test
  void add_selectorIntoTakenSlot_replacesItInPlace() {
    List<PluginRef> plugins = refs("test.ilb.a", "test.nohz.a", "test.pass.a");

    PolicySlots.add(plugins, PluginRef.of("test.ilb.b"), PluginKind.ILB_SELECTOR, REGISTRY);
    PolicySlots.add(plugins, PluginRef.of("test.nohz.b"), PluginKind.NOHZ_IDLE_TRACKING, REGISTRY);

    assertThat(plugins)
        .extracting(PluginRef::id)
        .containsExactly("test.ilb.b", "test.nohz.b", "test.pass.a");
  }

  @Test
  void add_samePluginAgain_replacesItsParameters_otherHooksAppend() {
    List<PluginRef> plugins = refs("test.ilb.a", "test.pass.a");

    PolicySlots.add(
        plugins, new PluginRef("test.pass.a", Map.of("k", "v")), PluginKind.BALANCE_PASS, REGISTRY);
    PolicySlots.add(plugins, PluginRef.of("test.pass.b"), PluginKind.BALANCE_PASS, REGISTRY);

    assertThat(plugins)
        .containsExactly(
            PluginRef.of("test.ilb.a"),
            new PluginRef("test.pass.a", Map.of("k", "v")),
            PluginRef.of("test.pass.b"));
  }

  @Test
  void configuration_secondSelectorOrRule_refusedNamingBoth() {
    var builder =
        SimulationConfig.builder(
            machine(), PolicyBinding.withDefaults(new CpuBoundWorkloadProvider()));

    assertThatThrownBy(() -> builder.policies(REGISTRY, refs("test.ilb.a", "test.ilb.b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("two ILB selectors: test.ilb.a and test.ilb.b");
    assertThatThrownBy(
            () ->
                SimulationConfig.builder(
                        machine(), PolicyBinding.withDefaults(new CpuBoundWorkloadProvider()))
                    .policies(REGISTRY, refs("test.nohz.a", "test.nohz.b")))
        .hasMessage("two NOHZ registration rules: test.nohz.a and test.nohz.b");
  }

  @Test
  void checkFree_hookKinds_neverRefused() {
    PolicySlots.checkFree(PluginKind.BALANCE_PASS, "test.pass.a", "test.pass.b");
    PolicySlots.checkFree(PluginKind.ILB_SELECTOR, null, "test.ilb.a");
  }

  @Test
  void addNamed_secondSelectorNamed_refused_butReplacingTheProfilesIsAllowed() {
    List<PluginRef> plugins = refs("test.ilb.a", "test.pass.a");
    List<PluginRef> named = new ArrayList<>();

    PolicySlots.addNamed(
        plugins, named, PluginRef.of("test.ilb.b"), PluginKind.ILB_SELECTOR, REGISTRY);

    assertThat(plugins).extracting(PluginRef::id).containsExactly("test.ilb.b", "test.pass.a");
    assertThatThrownBy(
            () ->
                PolicySlots.addNamed(
                    plugins, named, PluginRef.of("test.ilb.a"), PluginKind.ILB_SELECTOR, REGISTRY))
        .hasMessageStartingWith("two ILB selectors: test.ilb.b and test.ilb.a");
    assertThatThrownBy(
            () ->
                PolicySlots.addNamed(
                    plugins, named, PluginRef.of("test.ilb.b"), PluginKind.ILB_SELECTOR, REGISTRY))
        .hasMessageStartingWith("test.ilb.b is named twice");
  }

  private static List<PluginRef> refs(String... ids) {
    List<PluginRef> refs = new ArrayList<>();
    for (String id : ids) {
      refs.add(PluginRef.of(id));
    }
    return refs;
  }

  private static IlbSelectorProvider ilb(String id) {
    return new IlbSelectorProvider() {
      @Override
      public PluginDescriptor descriptor() {
        return PluginDescriptor.builder(id, PluginKind.ILB_SELECTOR).description(id).build();
      }

      @Override
      public IlbSelector create(PolicyContext context) {
        return new FirstIdleIlbSelector();
      }
    };
  }

  private static NohzIdleTrackingProvider nohz(String id) {
    return new NohzIdleTrackingProvider() {
      @Override
      public PluginDescriptor descriptor() {
        return PluginDescriptor.builder(id, PluginKind.NOHZ_IDLE_TRACKING).description(id).build();
      }

      @Override
      public NohzIdleTracking create(PolicyContext context) {
        throw new UnsupportedOperationException("never run");
      }
    };
  }

  private static BalancePassProvider pass(String id) {
    return new BalancePassProvider() {
      @Override
      public PluginDescriptor descriptor() {
        return PluginDescriptor.builder(id, PluginKind.BALANCE_PASS).description(id).build();
      }

      @Override
      public BalancePass create(PolicyContext context) {
        throw new UnsupportedOperationException("never run");
      }
    };
  }

  private static HardwareModel machine() {
    Topology topology = Shape.parse("1n1l2c2t").toTopology(SiblingNumbering.SPLIT);
    PerformanceModel unit =
        new PerformanceModel() {
          @Override
          public double speed(int cpu, int taskId, PerfStateView state) {
            return 1.0;
          }

          @Override
          public long nextSpeedChangeNs(int cpu, int taskId, PerfStateView state) {
            return Long.MAX_VALUE;
          }
        };
    MachineFacts facts = new MachineFacts(3e9, 16, 1e11, "test");
    return new HardwareModel() {
      @Override
      public Topology topology() {
        return topology;
      }

      @Override
      public PerformanceModel performanceModel() {
        return unit;
      }

      @Override
      public MachineFacts facts() {
        return facts;
      }
    };
  }
}
