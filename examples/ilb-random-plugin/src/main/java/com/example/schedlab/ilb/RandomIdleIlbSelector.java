package com.example.schedlab.ilb;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.view.CpuStateView;
import java.util.random.RandomGenerator;

/**
 * Picks the NOHZ idle load balancer uniformly at random among the idle housekeeping CPUs of {@code
 * nohz.idle_cpus_mask} other than the kicker, looking at no more than {@code maxCandidates} of
 * them; with {@code preferIdleCore}, among those on a fully idle SMT core when there are any.
 * Spreading the ILB work instead of always loading the lowest-numbered idle CPU is the idea under
 * test.
 *
 * <p>Allocates nothing per call: two walks over {@code nohzIdleMask ∩ housekeeping} with {@link
 * CpuMask#firstAnd}/{@link CpuMask#nextAnd}, the first counting candidates, the second stopping at
 * the randomly drawn one. One instance per simulation.
 */
final class RandomIdleIlbSelector implements IlbSelector {

  private final RandomGenerator random;
  private final boolean preferIdleCore;
  private final int maxCandidates;
  private int lastExamined;

  RandomIdleIlbSelector(RandomGenerator random, boolean preferIdleCore, int maxCandidates) {
    this.random = random;
    this.preferIdleCore = preferIdleCore;
    this.maxCandidates = maxCandidates;
  }

  @Override
  public int findNewIlb(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    int examined = 0;
    int idle = 0;
    int onIdleCore = 0;
    for (int cpu = nohzIdleMask.firstAnd(housekeeping);
        cpu != CpuMask.NO_CPU && idle < maxCandidates;
        cpu = nohzIdleMask.nextAnd(cpu, housekeeping)) {
      examined++;
      if (cpu != thisCpu && state.isIdle(cpu)) {
        idle++;
        if (state.isCoreIdle(cpu)) {
          onIdleCore++;
        }
      }
    }
    if (idle == 0) {
      lastExamined = examined;
      return CpuMask.NO_CPU;
    }
    boolean coresOnly = preferIdleCore && onIdleCore > 0;
    int target = random.nextInt(coresOnly ? onIdleCore : idle);
    int seen = 0;
    for (int cpu = nohzIdleMask.firstAnd(housekeeping);
        cpu != CpuMask.NO_CPU;
        cpu = nohzIdleMask.nextAnd(cpu, housekeeping)) {
      examined++;
      if (cpu != thisCpu && state.isIdle(cpu) && (!coresOnly || state.isCoreIdle(cpu))) {
        if (seen == target) {
          lastExamined = examined;
          return cpu;
        }
        seen++;
      }
    }
    // Unreachable: the state does not change between the two walks.
    throw new IllegalStateException("candidate " + target + " vanished during the walk");
  }

  @Override
  public int lastExamined() {
    return lastExamined;
  }
}
