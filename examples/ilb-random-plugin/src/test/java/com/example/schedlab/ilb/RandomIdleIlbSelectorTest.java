package com.example.schedlab.ilb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * On 8 SMT2 cores (CPU n and n+8 siblings) with CPUs 1, 2, 3, 9 and 11 idle (cores 1 and 3 fully
 * idle, CPU 2 next to a busy sibling), the selector draws only idle housekeeping CPUs other than
 * the kicker, from fully idle cores when asked to, and reaches every candidate.
 */
final class RandomIdleIlbSelectorTest {

  private static final int CPUS = 16;
  private static final Topology MACHINE = Shape.parse("8c2t").toTopology(SiblingNumbering.SPLIT);
  private static final CpuMask IDLE = CpuMasks.parseCpuList("1-3,9,11", CPUS);
  private static final CpuMask ALL = CpuMasks.parseCpuList("0-15", CPUS);

  /** The CPU state the selector reads, idle exactly on {@code idle}, as topology-api holds it. */
  private static CpuStateView state(CpuMask idle) {
    return new ArrayCpuState(MACHINE).idleExactly(idle);
  }

  private static TreeSet<Integer> draws(boolean preferIdleCore, CpuMask housekeeping) {
    RandomIdleIlbSelector selector =
        new RandomIdleIlbSelector(new SplittableRandom(7), preferIdleCore, 64);
    TreeSet<Integer> chosen = new TreeSet<>();
    for (int i = 0; i < 400; i++) {
      chosen.add(selector.findNewIlb(0, IDLE, housekeeping, state(IDLE)));
    }
    return chosen;
  }

  @Test
  void preferIdleCore_drawsEveryCpuOfFullyIdleCoresOnly() {
    assertThat(draws(true, ALL)).containsExactly(1, 3, 9, 11);
  }

  @Test
  void withoutPreference_drawsEveryIdleCpu() {
    assertThat(draws(false, ALL)).containsExactly(1, 2, 3, 9, 11);
  }

  @Test
  void housekeeping_excludesNohzFullCpus() {
    assertThat(draws(true, CpuMasks.parseCpuList("0-2,8-10", CPUS))).containsExactly(1, 9);
  }

  @Test
  void onlyTheKickerIdle_noIlb() {
    CpuMask kickerOnly = CpuMasks.parseCpuList("0", CPUS);
    RandomIdleIlbSelector selector = new RandomIdleIlbSelector(new SplittableRandom(7), true, 64);
    assertThat(selector.findNewIlb(0, kickerOnly, ALL, state(kickerOnly)))
        .isEqualTo(CpuMask.NO_CPU);
    assertThat(selector.lastExamined()).isEqualTo(1);
  }
}
