package dev.schedlab.policies.ext.ilb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.policies.ext.fakes.Machines;
import dev.schedlab.spi.view.ArrayCpuState;
import org.junit.jupiter.api.Test;

/**
 * The RFC's round-robin {@code find_new_ilb()}: starts one past the previous choice (CPU 1 at
 * boot), wraps, skips non-housekeeping CPUs and the kicker, and moves its remembered CPU only when
 * it finds one.
 */
final class RoundRobinIlbSelectorTest {

  private final ArrayCpuState state = new ArrayCpuState(Machines.adjacent("8c"));
  private final RoundRobinIlbSelector selector = new RoundRobinIlbSelector();
  private final CpuMask all = CpuMasks.full(8);

  @Test
  void findNewIlb_repeatedCalls_rotateOverTheIdleCpusFromCpuOne() {
    state.nrRunning(0, 1).nrRunning(4, 1);

    int[] chosen = new int[7];
    for (int i = 0; i < chosen.length; i++) {
      chosen[i] = selector.findNewIlb(0, all, all, state);
    }

    assertThat(chosen).containsExactly(1, 2, 3, 5, 6, 7, 1);
  }

  @Test
  void findNewIlb_examinedCount_countsNohzCpusVisitedIncludingSkippedOnes() {
    CpuMask housekeeping = CpuMasks.parseCpuList("0,3-7", 8); // nohz_full=1-2

    assertThat(selector.findNewIlb(0, all, housekeeping, state)).isEqualTo(3);
    assertThat(selector.lastExamined()).isEqualTo(3); // 1 and 2 visited, skipped
    assertThat(selector.findNewIlb(4, all, housekeeping, state)).isEqualTo(5);
    assertThat(selector.lastExamined()).isEqualTo(2); // 4 (the kicker) and 5
  }

  @Test
  void findNewIlb_noIdleCandidate_returnsNoCpuAndKeepsThePosition() {
    state.nrRunning(1, 1).nrRunning(2, 1);
    assertThat(selector.findNewIlb(0, all, all, state)).isEqualTo(3);
    CpuMask nohz = CpuMasks.parseCpuList("1-2", 8);

    assertThat(selector.findNewIlb(0, nohz, all, state)).isEqualTo(CpuMask.NO_CPU);
    assertThat(selector.lastExamined()).isEqualTo(2);
    assertThat(selector.ilbCpuLast()).isEqualTo(3);
  }

  @Test
  void findNewIlb_lastCpuRemembered_wrapsToCpuZero() {
    CpuMask nohz = CpuMasks.parseCpuList("0,7", 8);

    assertThat(selector.findNewIlb(3, nohz, all, state)).isEqualTo(7);
    assertThat(selector.findNewIlb(3, nohz, all, state)).isEqualTo(0);
    assertThat(selector.findNewIlb(3, nohz, all, state)).isEqualTo(7);
  }
}
