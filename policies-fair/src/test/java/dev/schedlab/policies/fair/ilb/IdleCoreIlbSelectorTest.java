package dev.schedlab.policies.fair.ilb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.ScratchMask;
import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.policies.fair.testing.Machines;
import dev.schedlab.spi.FirstIdleIlbSelector;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.testkit.fakes.FakePolicyContext;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import java.lang.management.ManagementFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The idle-core selector on hand-made states of an 8-CPU SMT2 machine numbered like Vera (CPU n and
 * n+4 are siblings): it skips an idle CPU whose sibling is busy when a fully idle core exists,
 * falls back to the first idle CPU of a busy core otherwise, resolves its {@code pruning}
 * parameter, and allocates nothing per call. The word-parallel form (this machine's threads are at
 * constant offsets) borrows no scratch mask; the walk, taken on a hybrid machine (cores {0,4},
 * {1,5}, {2,6}, {3}, {7}), borrows and returns slot 0 of the kicker's scratch pool (so a slot
 * already held is misuse) and still chooses correctly when the pool yields no mask.
 */
final class IdleCoreIlbSelectorTest {

  private final Topology topology = Machines.smt(8, 2, SiblingNumbering.SPLIT);
  private final ArrayCpuState state = new ArrayCpuState(topology).allIdle(false);
  private final CpuMask everyCpu = CpuMasks.full(8);
  private final Topology hybrid = hybrid();
  private final ArrayCpuState hybridState = new ArrayCpuState(hybrid).allIdle(false);

  private static Topology hybrid() {
    TopologyBuilder builder = Topology.builder(8).name("hybrid8");
    int[] coreOf = {0, 1, 2, 3, 0, 1, 2, 4};
    for (int cpu = 0; cpu < 8; cpu++) {
      builder.addCpu(cpu, 0, 0, 0, TopologyBuilder.UNKNOWN, coreOf[cpu], 0);
    }
    return builder.build();
  }

  private IlbSelector hybridSelector(ScratchMaskPool pool) {
    IdleCoreIlbSelectorProvider provider = new IdleCoreIlbSelectorProvider();
    return provider.create(
        FakePolicyContext.of(
            provider,
            hybrid,
            hybridState,
            Map.of(IdleCoreIlbSelectorProvider.PRUNING, "v4"),
            pool));
  }

  private IlbSelector selector(ScratchMaskPool pool, String pruning) {
    IdleCoreIlbSelectorProvider provider = new IdleCoreIlbSelectorProvider();
    return provider.create(
        FakePolicyContext.of(
            provider, topology, state, Map.of(IdleCoreIlbSelectorProvider.PRUNING, pruning), pool));
  }

  private IlbSelector selector() {
    return selector(new ScratchMaskPool(8, ScratchMaskPool.MisusePolicy.THROW), "v4");
  }

  @Test
  void findNewIlb_idleCpuWithBusySiblingBeforeAFullyIdleCore_choosesTheFullyIdleCore() {
    state.allIdle(true).idle(0, false).idle(5, false); // core {1,5} partially busy, {2,6} idle

    int chosen = selector().findNewIlb(0, everyCpu, everyCpu, state);
    int firstIdle = new FirstIdleIlbSelector().findNewIlb(0, everyCpu, everyCpu, state);

    assertThat(chosen).isEqualTo(2);
    assertThat(firstIdle).isEqualTo(1);
  }

  @Test
  void findNewIlb_noFullyIdleCore_fallsBackToTheFirstIdleCpu() {
    state.allIdle(false).idle(3, true).idle(5, true).idle(6, true);

    assertThat(selector().findNewIlb(0, everyCpu, everyCpu, state)).isEqualTo(3);
  }

  @Test
  void findNewIlb_noIdleCandidate_returnsNoCpuAfterExaminingEveryCandidate() {
    state.allIdle(false).idle(7, true);
    CpuMask nohz = CpuMasks.parseCpuList("1-6", 8);
    IlbSelector selector = selector();

    assertThat(selector.findNewIlb(0, nohz, everyCpu, state)).isEqualTo(CpuMask.NO_CPU);
    assertThat(selector.lastExamined()).isEqualTo(6);
  }

  @Test
  void findNewIlb_idleCpuOutsideHousekeeping_isNeverChosen() {
    state.allIdle(true).idle(0, false);
    CpuMask housekeeping = CpuMasks.parseCpuList("0,3,7", 8); // nohz_full=1-2,4-6

    // CPU 3's sibling 7 is idle: core {3,7} is fully idle.
    assertThat(selector().findNewIlb(0, everyCpu, housekeeping, state)).isEqualTo(3);
  }

  @Test
  void findNewIlb_busyCpuAfterFallback_prunesItsSiblingsOnlyFromV3On() {
    // 0 busy (kicker), 1 idle with 5 busy -> fallback 1, prunes 5; 2 busy -> v3/v4 prune 6;
    // 3 busy -> prune 7; nothing fully idle is left: fallback 1.
    state.allIdle(false).idle(1, true).idle(6, true).idle(7, true);
    ScratchMaskPool pool = new ScratchMaskPool(8, ScratchMaskPool.MisusePolicy.THROW);
    IlbSelector v2 = selector(pool, "v2");
    IlbSelector v3 = selector(pool, "v3");
    IlbSelector v4 = selector(pool, "v4");

    assertThat(v2.findNewIlb(0, everyCpu, everyCpu, state)).isEqualTo(1);
    assertThat(v3.findNewIlb(0, everyCpu, everyCpu, state)).isEqualTo(1);
    assertThat(v4.findNewIlb(0, everyCpu, everyCpu, state)).isEqualTo(1);
    // v2 visits 0,1,2,3,4,6,7 (5 pruned); v3/v4 visit 0,1,2,3,4 (5,6,7 pruned)
    assertThat(v2.lastExamined()).isEqualTo(7);
    assertThat(v3.lastExamined()).isEqualTo(5);
    assertThat(v4.lastExamined()).isEqualTo(5);
  }

  @Test
  void findNewIlb_regularMachine_isWordParallelAndBorrowsNoScratchMask() {
    ScratchMaskPool pool = new ScratchMaskPool(8, ScratchMaskPool.MisusePolicy.THROW);
    state.allIdle(false).idle(1, true).idle(6, true).idle(7, true);
    IdleCoreIlbSelector selector = (IdleCoreIlbSelector) selector(pool, "v4");

    int chosen;
    try (ScratchMask held = pool.acquire(0, 0)) {
      chosen = selector.findNewIlb(0, everyCpu, everyCpu, state);
    }

    assertThat(selector.isWordParallel()).isTrue();
    assertThat(chosen).isEqualTo(1);
    assertThat(selector.lastExamined()).isEqualTo(5); // as the walk in the pruning test above
    assertThat(pool.misuseCount()).isZero();
  }

  @Test
  void findNewIlb_walkAfterTheCall_releasesSlotZeroOfTheKicker() {
    ScratchMaskPool pool = new ScratchMaskPool(8, ScratchMaskPool.MisusePolicy.THROW);
    hybridState.allIdle(true).idle(3, false);
    IlbSelector selector = hybridSelector(pool);

    assertThat(((IdleCoreIlbSelector) selector).isWordParallel()).isFalse();
    assertThat(selector.findNewIlb(3, everyCpu, everyCpu, hybridState)).isEqualTo(0);
    assertThat(pool.isHeld(3, IdleCoreIlbSelector.SCRATCH_SLOT)).isFalse();
    assertThat(pool.misuseCount()).isZero();
  }

  @Test
  void findNewIlb_walkWithKickerSlotZeroAlreadyHeldUnderThrow_failsAsMisuse() {
    ScratchMaskPool pool = new ScratchMaskPool(8, ScratchMaskPool.MisusePolicy.THROW);
    hybridState.allIdle(true).idle(3, false);
    IlbSelector selector = hybridSelector(pool);

    try (ScratchMask held = pool.acquire(3, 0)) {
      assertThatThrownBy(() -> selector.findNewIlb(3, everyCpu, everyCpu, hybridState))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("slot 0 of CPU 3");
    }
  }

  @Test
  void findNewIlb_walkWhenPoolYieldsNoMaskUnderWarnOnce_choosesTheSameCpuWithoutPruning() {
    ScratchMaskPool pool = new ScratchMaskPool(8, ScratchMaskPool.MisusePolicy.WARN_ONCE);
    // 0 busy; 1 idle next to busy 5: fallback, prunes 5; 2 busy prunes 6; 3, 4 busy; 7 alone
    // and idle: chosen. Pruned walk visits 0,1,2,3,4,7; unpruned all 8.
    hybridState.allIdle(false).idle(1, true).idle(6, true).idle(7, true);
    IlbSelector selector = hybridSelector(pool);
    int expected = selector.findNewIlb(0, everyCpu, everyCpu, hybridState);
    int prunedWalk = selector.lastExamined();

    int chosen;
    try (ScratchMask held = pool.acquire(0, 0)) {
      chosen = selector.findNewIlb(0, everyCpu, everyCpu, hybridState);
    }

    assertThat(chosen).isEqualTo(expected).isEqualTo(7);
    assertThat(prunedWalk).isEqualTo(6);
    assertThat(selector.lastExamined()).isEqualTo(8);
    assertThat(pool.misuseCount()).isEqualTo(1);
  }

  @Test
  void pruningParameter_default_isV4AndOtherWordsAreRejected() {
    IdleCoreIlbSelectorProvider provider = new IdleCoreIlbSelectorProvider();

    Parameters defaults = Parameters.defaults(provider.descriptor());

    assertThat(defaults.getString(IdleCoreIlbSelectorProvider.PRUNING)).isEqualTo("v4");
    assertThat(((IdleCoreIlbSelector) selector()).pruning()).isEqualTo(IlbPruning.V4);
    assertThatThrownBy(() -> provider.descriptor().resolve(Map.of("pruning", "v5")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("v2|v3|v4");
  }

  @Test
  void findNewIlb_warmedUp_allocatesNothingPerCall() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    state.allIdle(false).idle(5, true).idle(6, true).idle(2, true);
    IlbSelector selector = selector();
    IlbSelector firstIdle = new FirstIdleIlbSelector();
    int sink = 0;
    for (int i = 0; i < 20_000; i++) {
      sink += selector.findNewIlb(0, everyCpu, everyCpu, state);
      sink += firstIdle.findNewIlb(0, everyCpu, everyCpu, state);
    }

    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < 10_000; i++) {
      sink += selector.findNewIlb(0, everyCpu, everyCpu, state);
      sink += firstIdle.findNewIlb(0, everyCpu, everyCpu, state);
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;

    assertThat(sink).isEqualTo(30_000 * (2 + 2)); // both choose CPU 2
    // Any per-call allocation would cost at least 16 B x 20,000 calls; allow only noise.
    assertThat(allocated).isLessThan(4096);
  }
}
