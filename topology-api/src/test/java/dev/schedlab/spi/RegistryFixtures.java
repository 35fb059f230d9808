package dev.schedlab.spi;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.CpuStateView;
import java.util.List;

/** Providers used by the registry tests; two are registered in test META-INF/services. */
final class RegistryFixtures {

  private RegistryFixtures() {}

  /** A selector that always picks the first CPU of the NOHZ mask. */
  public static final class FirstOfMaskProvider implements IlbSelectorProvider {
    @Override
    public PluginDescriptor descriptor() {
      return PluginDescriptor.builder("test.ilb.first-of-mask", PluginKind.ILB_SELECTOR)
          .description("first CPU of the NOHZ idle mask")
          .build();
    }

    @Override
    public IlbSelector create(PolicyContext context) {
      return new IlbSelector() {
        @Override
        public int findNewIlb(
            int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
          return nohzIdleMask.first();
        }

        @Override
        public int lastExamined() {
          return 1;
        }
      };
    }
  }

  /** Another class claiming the same id as {@link FirstOfMaskProvider}. */
  public static final class ImpostorProvider implements IlbSelectorProvider {
    @Override
    public PluginDescriptor descriptor() {
      return PluginDescriptor.builder("test.ilb.first-of-mask", PluginKind.ILB_SELECTOR)
          .description("impostor")
          .build();
    }

    @Override
    public IlbSelector create(PolicyContext context) {
      throw new AssertionError("never created");
    }
  }

  /** A profile naming the selector. */
  public static final class TestProfileProvider implements ProfileProvider {
    @Override
    public PluginDescriptor descriptor() {
      return PluginDescriptor.builder("profile.test-7.0", PluginKind.PROFILE)
          .description("test profile")
          .build();
    }

    @Override
    public Profile profile() {
      return new Profile("test-7.0", List.of(PluginRef.of("test.ilb.first-of-mask")));
    }
  }
}
