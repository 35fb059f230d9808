package dev.schedlab.policies.fair.ilb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.policies.fair.testing.Machines;
import dev.schedlab.spi.FirstIdleIlbSelector;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.topology.SiblingNumbering;
import org.junit.jupiter.api.Test;

/**
 * The 7.1 selector takes the lowest idle CPU of {@code nohz.idle_cpus_mask ∩ housekeeping},
 * skipping the kicker by number even if the kicker looks idle, ignores SMT siblings, and reports
 * how many candidates it looked at.
 */
final class FirstIdleIlbSelectorTest {

  private final ArrayCpuState state =
      new ArrayCpuState(Machines.smt(8, 2, SiblingNumbering.SPLIT)).allIdle(false);
  private final FirstIdleIlbSelector selector = new FirstIdleIlbSelector();

  @Test
  void findNewIlb_idleCpuWithBusySibling_choosesItAnyway() {
    state.allIdle(true).idle(0, false).idle(5, false);
    CpuMask all = CpuMasks.full(8);

    assertThat(selector.findNewIlb(0, all, all, state)).isEqualTo(1);
    assertThat(selector.lastExamined()).isEqualTo(2);
  }

  @Test
  void findNewIlb_kickerInTheCandidates_isSkippedByNumber() {
    state.allIdle(true);
    CpuMask all = CpuMasks.full(8);

    assertThat(selector.findNewIlb(0, all, all, state)).isEqualTo(1);
  }

  @Test
  void findNewIlb_idleCpusOnlyOutsideTheIntersection_returnsNoCpu() {
    state.allIdle(false).idle(2, true).idle(6, true);
    CpuMask nohz = CpuMasks.parseCpuList("0-3", 8);
    CpuMask housekeeping = CpuMasks.parseCpuList("0-1,4-7", 8); // nohz_full=2-3

    assertThat(selector.findNewIlb(0, nohz, housekeeping, state)).isEqualTo(CpuMask.NO_CPU);
    assertThat(selector.lastExamined()).isEqualTo(2);
  }
}
