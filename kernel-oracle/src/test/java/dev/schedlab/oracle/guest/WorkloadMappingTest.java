package dev.schedlab.oracle.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.Parameters;
import dev.schedlab.workloads.GemmWorkloadProvider;
import dev.schedlab.workloads.HackbenchWorkloadProvider;
import dev.schedlab.workloads.RtAppWorkloadProvider;
import dev.schedlab.workloads.SchbenchWorkloadProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code wl.gemm}, {@code wl.hackbench} and {@code wl.schbench} with their {@code -W} parameters
 * become the guest programs with the same team; what the programs cannot follow is refused.
 */
final class WorkloadMappingTest {

  private static final GuestShape SHAPE = GuestShape.parse("2s1d4c2t");

  private static GuestWorkload gemm(Map<String, String> overrides) {
    Parameters p = new GemmWorkloadProvider().descriptor().resolve(overrides);
    return WorkloadMapping.of("wl.gemm", p, overrides, 10, SHAPE);
  }

  @Test
  void gemm_chunkAndSpinInMicroseconds_threadsDefaultToCores() {
    GuestWorkload w = gemm(Map.of("chunk", "2ms", "spin", "50us"));
    assertThat(w.arguments()).containsExactly("8", "2000", "50", "10.000");
    assertThat(w.simulatorParameters())
        .containsEntry("chunk", "2000us")
        .containsEntry("affinity", "0-15");
  }

  @Test
  void gemm_chunkLongerThanTheRun_cutToTheRun() {
    assertThat(gemm(Map.of("chunk", "10s", "spin", "0")).arguments())
        .containsExactly("8", "10000000", "0", "10.000");
    Parameters p = new GemmWorkloadProvider().descriptor().resolve(Map.of("chunk", "10s"));
    assertThat(WorkloadMapping.of("wl.gemm", p, Map.of("chunk", "10s"), 2, SHAPE).arguments())
        .startsWith("8", "2000000");
  }

  @Test
  void gemm_pinnedPlacement_refused() {
    assertThatThrownBy(() -> gemm(Map.of("placement", "pinned")))
        .hasMessageContaining("placement=pinned");
  }

  @Test
  void hackbench_withoutStartPipe_refused() {
    Map<String, String> overrides = Map.of("start_pipe", "false");
    Parameters p = new HackbenchWorkloadProvider().descriptor().resolve(overrides);
    assertThatThrownBy(() -> WorkloadMapping.of("wl.hackbench", p, overrides, 10, SHAPE))
        .hasMessageContaining("start_pipe=false");
  }

  @Test
  void schbench_timesInMicroseconds_policyOtherThanNormalRefused() {
    Map<String, String> overrides =
        Map.of("message_threads", "2", "workers", "4", "request_work", "200us", "sleep", "50us");
    Parameters p = new SchbenchWorkloadProvider().descriptor().resolve(overrides);
    GuestWorkload w = WorkloadMapping.of("wl.schbench", p, overrides, 5, SHAPE);
    assertThat(w.program()).isEqualTo("schbench");
    assertThat(w.arguments()).containsExactly("2", "4", "200", "50", "5.000");
    assertThat(w.simulatorParameters())
        .containsEntry("request_work", "200us")
        .containsEntry("sleep", "50us")
        .containsEntry("workers", "4");
    assertThat(w.repeat()).isFalse();
    Map<String, String> idle = Map.of("policy", "idle");
    Parameters pi = new SchbenchWorkloadProvider().descriptor().resolve(idle);
    assertThatThrownBy(() -> WorkloadMapping.of("wl.schbench", pi, idle, 5, SHAPE))
        .hasMessageContaining("policy=idle");
  }

  @Test
  void rtapp_periodicTeam_isRtappPeriodicOnTheSameFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("team.json");
    Files.writeString(file, GuestWorkload.rtappJson(3, 10_000, 2_000));
    Map<String, String> overrides = Map.of("file", file.toString());
    Parameters p = new RtAppWorkloadProvider().descriptor().resolve(overrides);
    GuestWorkload w = WorkloadMapping.of("wl.rtapp", p, overrides, 4, SHAPE);
    assertThat(w.program()).isEqualTo("rtapp_periodic");
    assertThat(w.arguments()).containsExactly("3", "10000", "2000", "4.000");
    assertThat(w.simulatorParameters()).containsEntry("file", file.toString());
  }

  @Test
  void rtapp_otherThanOnePeriodicTeam_refusedNamingWhat(@TempDir Path dir) throws IOException {
    String[][] cases = {
      {
        "{\"tasks\": {\"a\": {\"run\": 100, \"sleep\": 100}}}",
        "not a run followed by an absolute timer"
      },
      {
        "{\"tasks\": {\"a\": {\"run\": 100, \"timer\": {\"ref\": \"unique\","
            + " \"period\": 1000}}, \"b\": {\"run\": 5, \"sleep\": 5}}}",
        "2 tasks"
      },
      {
        "{\"tasks\": {\"a\": {\"loop\": -1, \"cpus\": [0], \"run\": 100, \"timer\":"
            + " {\"ref\": \"unique\", \"period\": 1000, \"mode\": \"absolute\"}}}}",
        "sets cpus"
      },
      {
        "{\"tasks\": {\"a\": {\"loop\": 5, \"run\": 100, \"timer\": {\"ref\":"
            + " \"unique\", \"period\": 1000, \"mode\": \"absolute\"}}}}",
        "loop 5"
      },
    };
    for (String[] c : cases) {
      Path file = dir.resolve("rt.json");
      Files.writeString(file, c[0]);
      Map<String, String> overrides = Map.of("file", file.toString());
      Parameters p = new RtAppWorkloadProvider().descriptor().resolve(overrides);
      assertThatThrownBy(() -> WorkloadMapping.of("wl.rtapp", p, overrides, 4, SHAPE))
          .as(c[0])
          .hasMessageContaining("one periodic team")
          .hasMessageContaining(c[1]);
    }
  }
}
