package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedGroup;
import java.util.List;
import org.eclipse.collections.impl.set.mutable.primitive.IntHashSet;
import org.junit.jupiter.api.Test;

/**
 * The group statistics cache ({@link GroupStatsCache}, {@link GroupStamps}) changes no decision:
 * random walks on two identical fake hosts, one balancer with the cache (every reuse checked
 * against a fresh scan), one without, must agree on everything after every walk; a change the host
 * does not stamp is caught; and each CPU's stamps are exactly the slots of the groups holding it.
 */
final class GroupStatsCacheTest {

  private static final String[] SHAPES = {
    "1n2l4c2t", "2n2l2c2t", "1n1l8c1t", "2n1l4c2t", "1n2l2c4t", "4n1l2c2t"
  };

  @Test
  void cache_randomWalks_matchFullScans() {
    long hits = 0;
    for (int seed = 0; seed < 120; seed++) {
      String shape = SHAPES[seed % SHAPES.length];
      BalancerPieces[] sides = ChildTotalsReuseTest.populatedSides(seed, shape, 2);
      GroupStatsCache cache = sides[1].useGroupStatsCache();
      ChildTotalsReuseTest.compareWalks(seed, shape, sides, ChildTotalsReuseTest::fingerprint);
      hits += cache.hits;
    }
    // The cached side must actually have reused sums, or the comparison proves nothing.
    assertThat(hits).isPositive();
  }

  /**
   * The balanced-attempt memo changes nothing either: three identical hosts, one plain, one
   * replaying, one checking each would-be replay against a full attempt, agree after every walk on
   * everything but the last search's scratch statistics (which a replay leaves as they were).
   */
  @Test
  void memo_randomWalks_matchFullAttempts() {
    long replays = 0;
    long checked = 0;
    for (int seed = 0; seed < 120; seed++) {
      String shape = SHAPES[seed % SHAPES.length];
      BalancerPieces[] sides = ChildTotalsReuseTest.populatedSides(seed, shape, 3);
      BalancedPassMemo replaying = sides[1].useBalancedPassMemo(false);
      BalancedPassMemo checking = sides[2].useBalancedPassMemo(true);
      ChildTotalsReuseTest.compareWalks(seed, shape, sides, GroupStatsCacheTest::withoutScratch);
      replays += replaying.replays;
      checked += checking.checked;
      assertThat(checking.replays).isZero();
    }
    assertThat(replays).as("attempts replayed").isPositive();
    assertThat(checked).as("would-be replays checked").isEqualTo(replays);
  }

  /**
   * A replay backs off from whatever interval the domain has now: here one reset to the minimum
   * after the attempt it replays (as a newidle attempt that found a busiest CPU does).
   */
  @Test
  void memo_replayDoublesAResetInterval() {
    BalancerPieces[] sides = new BalancerPieces[2];
    for (int i = 0; i < 2; i++) {
      FakeHost host = FakeHost.of("1n1l2c2t");
      host.addTask(1, FakeHost.CpusMask.all(host.topology));
      sides[i] = host.balancer();
    }
    BalancedPassMemo memo = sides[1].useBalancedPassMemo(false);
    for (BalancerPieces side : sides) {
      SchedDomain smt = side.host.domains.domains(0).get(0);
      side.schedBalanceRq(0, smt, IdleType.IDLE, new BalanceCost());
      side.state.domain(smt).balanceIntervalMs = smt.minIntervalMs();
      side.schedBalanceRq(0, smt, IdleType.IDLE, new BalanceCost());
    }
    assertThat(memo.replays).isEqualTo(1);
    SchedDomain plainSmt = sides[0].host.domains.domains(0).get(0);
    SchedDomain memoSmt = sides[1].host.domains.domains(0).get(0);
    assertThat(sides[1].state.domain(memoSmt).balanceIntervalMs)
        .isEqualTo(sides[0].state.domain(plainSmt).balanceIntervalMs)
        .isEqualTo(2 * plainSmt.minIntervalMs());
    assertThat(withoutScratch(sides[1])).isEqualTo(withoutScratch(sides[0]));
  }

  /** The fingerprint without its last three entries, the last search's scratch statistics. */
  private static List<Object> withoutScratch(BalancerPieces balancer) {
    List<Object> all = ChildTotalsReuseTest.fingerprint(balancer);
    return all.subList(0, all.size() - 3);
  }

  @Test
  void unstampedChange_isCaughtByVerification() {
    FakeHost host = FakeHost.of("1n1l4c2t");
    FakeHost.FakeTask task = host.addTask(2, FakeHost.CpusMask.all(host.topology));
    BalancerPieces balancer = host.balancer();
    GroupStatsCache cache = balancer.useGroupStatsCache();
    SchedDomain mc = host.domains.domains(0).get(1);
    balancer.schedBalanceRq(0, mc, IdleType.IDLE, new BalanceCost());
    long fills = cache.fills;
    balancer.schedBalanceRq(0, mc, IdleType.IDLE, new BalanceCost());
    assertThat(cache.fills).as("nothing changed: every group reused").isEqualTo(fills);
    assertThat(cache.hits).isPositive();

    task.load += 100;
    host.stamps.cpuChanged(2);
    balancer.schedBalanceRq(0, mc, IdleType.IDLE, new BalanceCost());
    assertThat(cache.fills).as("the stamped group is scanned again").isEqualTo(fills + 1);

    task.load += 100;
    assertThatThrownBy(() -> balancer.schedBalanceRq(0, mc, IdleType.IDLE, new BalanceCost()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stale for group 2-3");
  }

  @Test
  void stamps_coverExactlyTheGroupsHoldingEachCpu() {
    for (String shape : SHAPES) {
      FakeHost host = FakeHost.of(shape);
      GroupStamps stamps = new GroupStamps(host.domains);
      int nrCpus = host.topology.nrCpuIds();
      for (int cpu = 0; cpu < nrCpus; cpu++) {
        IntHashSet expected = new IntHashSet();
        for (int owner = 0; owner < nrCpus; owner++) {
          for (SchedDomain sd : host.domains.domains(owner)) {
            for (SchedGroup sg : sd.groups()) {
              if (sg.span().test(cpu)) {
                expected.add(sg.capacitySlot());
              }
            }
          }
        }
        long[] before = new long[host.domains.capacitySlotCount()];
        for (int slot = 0; slot < before.length; slot++) {
          before[slot] = stamps.stamp(slot);
        }
        stamps.cpuChanged(cpu);
        for (int slot = 0; slot < before.length; slot++) {
          long moved = stamps.stamp(slot) - before[slot];
          assertThat(moved)
              .as(shape + " cpu " + cpu + " slot " + slot)
              .isEqualTo(expected.contains(slot) ? 1 : 0);
        }
      }
    }
  }
}
