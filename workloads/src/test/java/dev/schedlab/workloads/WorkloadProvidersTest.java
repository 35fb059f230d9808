package dev.schedlab.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * The nine workloads are found through {@link ServiceLoader}, describe themselves with a source and
 * described parameters, and every one but rt-app and the trace replay (which need a file) starts
 * with its defaults on a small SMT machine and reports a metric.
 */
final class WorkloadProvidersTest {

  private static final List<String> IDS =
      List.of(
          "wl.build",
          "wl.gemm",
          "wl.hackbench",
          "wl.inference",
          "wl.rtapp",
          "wl.schbench",
          "wl.stream",
          "wl.tbench",
          "wl.trace");

  @Test
  void serviceLoader_classPath_findsEveryWorkload() {
    List<String> ids =
        ServiceLoader.load(WorkloadProvider.class).stream()
            .map(p -> p.get().id())
            .filter(id -> id.startsWith("wl."))
            .sorted()
            .toList();

    assertThat(ids).isEqualTo(IDS);
  }

  @Test
  void descriptors_everyWorkload_hasSourceAndDescribedParameters() {
    for (WorkloadProvider provider : ServiceLoader.load(WorkloadProvider.class)) {
      if (!provider.id().startsWith("wl.")) {
        continue;
      }
      assertThat(provider.descriptor().kind()).isEqualTo(PluginKind.WORKLOAD);
      assertThat(provider.descriptor().source()).isNotBlank();
      assertThat(provider.descriptor().parameters())
          .isNotEmpty()
          .allSatisfy(p -> assertThat(p.description()).isNotBlank());
    }
  }

  @Test
  void defaults_everyWorkloadButRtAppAndTrace_startsAndReports() {
    for (WorkloadProvider provider : ServiceLoader.load(WorkloadProvider.class)) {
      if (!provider.id().startsWith("wl.")
          || provider.id().equals("wl.rtapp")
          || provider.id().equals("wl.trace")) {
        continue;
      }
      IdealMachine machine = IdealMachine.shape("1n2l4c2t");
      WorkloadResult result = machine.run(provider, Map.of(), 5_000_000);

      assertThat(machine.tasks()).as(provider.id()).isNotEmpty();
      assertThat(result.metric()).as(provider.id()).isNotBlank();
      assertThat(result.value()).as(provider.id()).isFinite();
    }
  }

  @Test
  void defaults_rtApp_asksForItsFile() {
    assertThatThrownBy(
            () -> IdealMachine.shape("1n2l4c2t").start(new RtAppWorkloadProvider(), Map.of()))
        .hasMessageContaining("wl.rtapp: parameter file is required");
  }
}
