package dev.schedlab.policies.fair.ilb;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.PluginProvider;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.testkit.fakes.FakePolicyContext;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Runs first-idle and the three idle-core revisions on one state and compares them with {@link
 * IlbRules}; collects the first failures as readable lines instead of failing on the first, so a
 * sweep of millions of states reports what went wrong where.
 */
final class IlbCheck {

  private static final int MAX_FAILURES = 20;

  final Topology topology;
  final ArrayCpuState state;
  final ScratchMaskPool pool;
  final IlbSelector firstIdle;
  final IlbSelector v2;
  final IlbSelector v3;
  final IlbSelector v4;

  /** The same revisions kept on the walk, whatever the topology. */
  final IlbSelector[] walks;

  final IlbRules rules;
  final boolean[] idle;
  final List<String> failures = new ArrayList<>();
  long checks;

  IlbCheck(Topology topology, ScratchMaskPool pool) {
    this.topology = topology;
    this.pool = pool;
    this.state = new ArrayCpuState(topology).allIdle(false);
    this.idle = new boolean[topology.nrCpuIds()];
    FirstIdleIlbSelectorProvider firstIdleProvider = new FirstIdleIlbSelectorProvider();
    this.firstIdle = firstIdleProvider.create(context(firstIdleProvider, Map.of()));
    this.v2 = idleCore("v2");
    this.v3 = idleCore("v3");
    this.v4 = idleCore("v4");
    this.walks =
        new IlbSelector[] {
          new IdleCoreIlbSelector(topology, pool, IlbPruning.V2, false),
          new IdleCoreIlbSelector(topology, pool, IlbPruning.V3, false),
          new IdleCoreIlbSelector(topology, pool, IlbPruning.V4, false)
        };
    this.rules = new IlbRules(topology);
  }

  IlbCheck(Topology topology) {
    this(topology, new ScratchMaskPool(topology.nrCpuIds(), ScratchMaskPool.MisusePolicy.THROW));
  }

  private IlbSelector idleCore(String pruning) {
    IdleCoreIlbSelectorProvider provider = new IdleCoreIlbSelectorProvider();
    return provider.create(context(provider, Map.of(IdleCoreIlbSelectorProvider.PRUNING, pruning)));
  }

  private FakePolicyContext context(PluginProvider provider, Map<String, String> overrides) {
    return FakePolicyContext.of(provider, topology, state, overrides, pool);
  }

  /** Sets the idle state of every CPU; the selectors see it through the fake view. */
  void idle(boolean[] values) {
    System.arraycopy(values, 0, idle, 0, idle.length);
    state.idleFrom(values);
  }

  /** Sets CPU {@code cpu} idle for bit {@code cpu} of {@code bits}. */
  void idleBits(long bits) {
    for (int cpu = 0; cpu < idle.length; cpu++) {
      idle[cpu] = (bits >>> cpu & 1L) != 0;
    }
    state.idleFrom(idle);
  }

  /**
   * Checks one kick from busy CPU {@code kicker}. The masks are given twice, as CpuMask for the
   * selectors and as BitSet for the rules.
   */
  void check(int kicker, CpuMask nohz, CpuMask housekeeping, BitSet nohzBits, BitSet hkBits) {
    checks++;
    if (idle[kicker]) {
      throw new IllegalArgumentException("the kicker must be busy: CPU " + kicker);
    }
    IlbRules.Walk first = rules.firstIdle(kicker, nohzBits, hkBits, idle);
    IlbRules.Walk walk2 = rules.idleCoreWalk(kicker, nohzBits, hkBits, idle, false, true);
    IlbRules.Walk walk3 = rules.idleCoreWalk(kicker, nohzBits, hkBits, idle, true, true);
    IlbRules.Walk walk4 = rules.idleCoreWalk(kicker, nohzBits, hkBits, idle, true, false);
    int choice = rules.idleCoreChoice(nohzBits, hkBits, idle);

    compare("first-idle", kicker, nohz, housekeeping, firstIdle, first, first.cpu());
    compare("idle-core v2", kicker, nohz, housekeeping, v2, walk2, choice);
    compare("idle-core v3", kicker, nohz, housekeeping, v3, walk3, choice);
    compare("idle-core v4", kicker, nohz, housekeeping, v4, walk4, choice);
    if (!(v4.lastExamined() <= v3.lastExamined() && v3.lastExamined() <= v2.lastExamined())) {
      fail("examined not v4 <= v3 <= v2", kicker, nohz, housekeeping);
    }
    if (v4.lastExamined() < firstIdle.lastExamined()) {
      fail("idle-core examined fewer than first-idle", kicker, nohz, housekeeping);
    }
    if (pool.isHeld(kicker, IdleCoreIlbSelector.SCRATCH_SLOT)) {
      fail("scratch slot left held", kicker, nohz, housekeeping);
    }
    checkAgainstWalk(kicker, nohz, housekeeping);
  }

  /**
   * Each revision's selector against its twin kept on the walk: the same CPU and the same examined
   * count. Any kicker, idle or busy, in the candidates or not.
   */
  void checkAgainstWalk(int kicker, CpuMask nohz, CpuMask housekeeping) {
    IlbSelector[] selectors = {v2, v3, v4};
    for (int i = 0; i < selectors.length; i++) {
      int fast = selectors[i].findNewIlb(kicker, nohz, housekeeping, state);
      int walked = walks[i].findNewIlb(kicker, nohz, housekeeping, state);
      if (fast != walked || selectors[i].lastExamined() != walks[i].lastExamined()) {
        fail(
            "v"
                + (i + 2)
                + " chose "
                + fast
                + " examining "
                + selectors[i].lastExamined()
                + ", its walk "
                + walked
                + " examining "
                + walks[i].lastExamined(),
            kicker,
            nohz,
            housekeeping);
      }
    }
  }

  private void compare(
      String name,
      int kicker,
      CpuMask nohz,
      CpuMask housekeeping,
      IlbSelector selector,
      IlbRules.Walk expectedWalk,
      int expectedCpu) {
    int got = selector.findNewIlb(kicker, nohz, housekeeping, state);
    if (got != expectedCpu || expectedWalk.cpu() != expectedCpu) {
      fail(
          name
              + " chose "
              + got
              + ", rule "
              + expectedCpu
              + ", walk transcription "
              + expectedWalk.cpu(),
          kicker,
          nohz,
          housekeeping);
    } else if (selector.lastExamined() != expectedWalk.examined()) {
      fail(
          name
              + " examined "
              + selector.lastExamined()
              + ", transcription "
              + expectedWalk.examined(),
          kicker,
          nohz,
          housekeeping);
    }
  }

  private void fail(String what, int kicker, CpuMask nohz, CpuMask housekeeping) {
    if (failures.size() < MAX_FAILURES) {
      StringBuilder idleList = new StringBuilder();
      for (int cpu = 0; cpu < idle.length; cpu++) {
        if (idle[cpu]) {
          idleList.append(idleList.length() == 0 ? "" : ",").append(cpu);
        }
      }
      failures.add(
          topology.name()
              + ": "
              + what
              + " (kicker "
              + kicker
              + ", idle "
              + idleList
              + ", nohz "
              + nohz.toCpuList()
              + ", housekeeping "
              + housekeeping.toCpuList()
              + ")");
    }
  }
}
