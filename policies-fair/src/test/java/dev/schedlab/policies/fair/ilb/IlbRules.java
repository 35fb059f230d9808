package dev.schedlab.policies.fair.ilb;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.Topology;
import java.util.BitSet;

/**
 * Plain transcriptions of the ILB rules over {@link BitSet}, written independently of the
 * selectors: the 7.1 walk, the idle-core walk with each revision's pruning (to count examined
 * CPUs), and the idle-core choice stated without any walk.
 */
final class IlbRules {

  /** A choice and the number of CPUs the walk visited. */
  record Walk(int cpu, int examined) {}

  private final BitSet[] siblings;
  private final boolean smt;

  IlbRules(Topology topology) {
    siblings = new BitSet[topology.nrCpuIds()];
    for (int cpu = 0; cpu < siblings.length; cpu++) {
      siblings[cpu] = toBitSet(topology.smtSiblings(cpu));
    }
    smt = topology.isSmt();
  }

  static BitSet toBitSet(CpuMask mask) {
    BitSet bits = new BitSet(mask.nrCpuIds());
    for (int cpu = mask.first(); cpu != CpuMask.NO_CPU; cpu = mask.next(cpu)) {
      bits.set(cpu);
    }
    return bits;
  }

  /** Linux 7.1 {@code find_new_ilb()}: first idle candidate that is not the kicker. */
  Walk firstIdle(int thisCpu, BitSet nohz, BitSet housekeeping, boolean[] idle) {
    BitSet candidates = (BitSet) nohz.clone();
    candidates.and(housekeeping);
    int examined = 0;
    for (int cpu = candidates.nextSetBit(0); cpu >= 0; cpu = candidates.nextSetBit(cpu + 1)) {
      examined++;
      if (cpu != thisCpu && idle[cpu]) {
        return new Walk(cpu, examined);
      }
    }
    return new Walk(-1, examined);
  }

  /**
   * The idle-core walk of seeds-digest §1, with the pruning of a revision: {@code
   * pruneBusySiblings} (v3, v4) and {@code skipKicker} (v2, v3).
   */
  Walk idleCoreWalk(
      int thisCpu,
      BitSet nohz,
      BitSet housekeeping,
      boolean[] idle,
      boolean pruneBusySiblings,
      boolean skipKicker) {
    BitSet candidates = (BitSet) nohz.clone();
    candidates.and(housekeeping);
    int fallback = -1;
    int examined = 0;
    for (int cpu = candidates.nextSetBit(0); cpu >= 0; cpu = candidates.nextSetBit(cpu + 1)) {
      examined++;
      if (skipKicker && cpu == thisCpu) {
        continue;
      }
      if (!idle[cpu]) {
        if (smt && fallback >= 0 && pruneBusySiblings) {
          candidates.andNot(siblings[cpu]);
        }
        continue;
      }
      if (smt && !coreIdle(cpu, idle)) {
        if (fallback < 0) {
          fallback = cpu;
        }
        candidates.andNot(siblings[cpu]);
        continue;
      }
      return new Walk(cpu, examined);
    }
    return new Walk(fallback, examined);
  }

  /**
   * The idle-core choice without a walk: the lowest candidate that is idle on a fully idle core,
   * else the lowest idle candidate, else none. Holds when the kicker is busy.
   */
  int idleCoreChoice(BitSet nohz, BitSet housekeeping, boolean[] idle) {
    BitSet candidates = (BitSet) nohz.clone();
    candidates.and(housekeeping);
    int lowestIdle = -1;
    for (int cpu = candidates.nextSetBit(0); cpu >= 0; cpu = candidates.nextSetBit(cpu + 1)) {
      if (!idle[cpu]) {
        continue;
      }
      if (coreIdle(cpu, idle)) {
        return cpu;
      }
      if (lowestIdle < 0) {
        lowestIdle = cpu;
      }
    }
    return lowestIdle;
  }

  boolean coreIdle(int cpu, boolean[] idle) {
    BitSet core = siblings[cpu];
    for (int sibling = core.nextSetBit(0); sibling >= 0; sibling = core.nextSetBit(sibling + 1)) {
      if (!idle[sibling]) {
        return false;
      }
    }
    return true;
  }
}
