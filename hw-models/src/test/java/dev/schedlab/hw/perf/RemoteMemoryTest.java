package dev.schedlab.hw.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * Home-node memory: with first touch a memory-bound thread draws on the node that holds its pages,
 * wherever it runs; running elsewhere it asks for {@code 10 / distance} (or a fixed factor) of a
 * local thread's bandwidth, and the home node shares its bandwidth in proportion to what its
 * threads ask, so remote access costs throughput only below saturation. With the running-node rule
 * (or before a home is known) nothing changes from the old per-running-node share.
 */
final class RemoteMemoryTest {

  /** 4 CPUs, one per node; distances 10 / 16 (nodes 0-1, 2-3) / 32 (across). */
  private static Topology fourNodes() {
    var b = Topology.builder(4).name("four-nodes");
    for (int cpu = 0; cpu < 4; cpu++) {
      b.addCpu(cpu, cpu / 2, cpu % 2, cpu % 2, 0, 0, cpu);
    }
    int[][] d = new int[4][4];
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 4; j++) {
        d[i][j] = i == j ? 10 : i / 2 == j / 2 ? 16 : 32;
      }
    }
    return b.distances(d).build();
  }

  private static StandardPerformanceModel model(Topology t, RemoteMemory remote) {
    // A node feeds 2 threads at full speed (40 GB/s, 20 GB/s per thread).
    return new StandardPerformanceModel(
        CpuLayout.of(t),
        new SmtCoRun(1, 1, 0),
        null,
        MigrationWarmup.none(),
        new MemoryBandwidthShare(40e9, 20e9),
        remote);
  }

  @Test
  void slitRule_isLocalDistanceOverDistance() {
    RemoteMemory r = RemoteMemory.of(fourNodes(), RemoteMemory.Placement.FIRST_TOUCH, 0);
    assertThat(r.factor(0, 0)).isEqualTo(1.0);
    assertThat(r.factor(1, 0)).isEqualTo(10.0 / 16);
    assertThat(r.factor(2, 0)).isEqualTo(10.0 / 32);
    RemoteMemory fixed = RemoteMemory.of(fourNodes(), RemoteMemory.Placement.FIRST_TOUCH, 0.5);
    assertThat(fixed.factor(3, 0)).isEqualTo(0.5);
    assertThat(fixed.factor(3, 3)).isEqualTo(1.0);
    assertThatThrownBy(() -> RemoteMemory.of(fourNodes(), RemoteMemory.Placement.FIRST_TOUCH, 1.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0..1");
  }

  @Test
  void firstTouch_unsaturatedHome_remoteThreadRunsAtItsDistanceFactor() {
    Topology t = fourNodes();
    StandardPerformanceModel m =
        model(t, RemoteMemory.of(t, RemoteMemory.Placement.FIRST_TOUCH, 0));
    // Task 7 runs on node 2 with its pages on node 0; one local thread runs on node 0 too. Demand
    // 1 + 10/32 threads < 2 that the node feeds: nobody is throttled by bandwidth.
    FakePerfState s =
        new FakePerfState(4)
            .workClass(7, WorkClass.MEMORY)
            .memoryHome(7, 0)
            .memoryBoundHomedRunning(0, 0, 1)
            .memoryBoundHomedRunning(0, 2, 1);
    assertThat(m.speed(2, 7, s)).isCloseTo(10.0 / 32, within(1e-12));
    assertThat(m.speed(0, 7, s)).isEqualTo(1.0);
    // Compute-bound tasks are unaffected.
    assertThat(m.speed(2, 8, s)).isEqualTo(1.0);
  }

  @Test
  void firstTouch_saturatedHome_deliversItsBandwidthWhereverItsThreadsRun() {
    Topology t = fourNodes();
    StandardPerformanceModel m =
        model(t, RemoteMemory.of(t, RemoteMemory.Placement.FIRST_TOUCH, 0));
    // Node 0 holds the pages of 4 local and 4 cross-socket threads: demand 4 + 4 * 10/32 = 5.25
    // threads, share 2 / 5.25. Delivered: 4 * share + 4 * (10/32) * share = 2 threads' worth,
    // the node's whole bandwidth.
    FakePerfState s =
        new FakePerfState(4)
            .workClass(7, WorkClass.MEMORY)
            .memoryHome(7, 0)
            .memoryBoundHomedRunning(0, 0, 4)
            .memoryBoundHomedRunning(0, 2, 4);
    double share = 2 / 5.25;
    assertThat(m.speed(0, 7, s)).isCloseTo(share, within(1e-12));
    assertThat(m.speed(2, 7, s)).isCloseTo(share * 10.0 / 32, within(1e-12));
    assertThat(4 * m.speed(0, 7, s) + 4 * m.speed(2, 7, s)).isCloseTo(2.0, within(1e-12));
  }

  @Test
  void runningNodeRule_orUnknownHome_keepsThePerRunningNodeShare() {
    Topology t = fourNodes();
    FakePerfState s =
        new FakePerfState(4)
            .workClass(7, WorkClass.MEMORY)
            .memoryHome(7, 0)
            .memoryBoundHomedRunning(0, 2, 4)
            .memoryBoundRunning(2, 1);
    assertThat(model(t, RemoteMemory.runningNode(t)).speed(2, 7, s)).isEqualTo(1.0);
    assertThat(model(t, null).speed(2, 7, s)).isEqualTo(1.0);
    FakePerfState noHome =
        new FakePerfState(4).workClass(7, WorkClass.MEMORY).memoryBoundRunning(2, 4);
    StandardPerformanceModel firstTouch =
        model(t, RemoteMemory.of(t, RemoteMemory.Placement.FIRST_TOUCH, 0));
    assertThat(firstTouch.speed(2, 7, noHome)).isCloseTo(0.5, within(1e-12));
  }
}
