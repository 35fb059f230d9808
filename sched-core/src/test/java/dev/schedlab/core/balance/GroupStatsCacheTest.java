package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SchedGroup;
import java.util.SplittableRandom;
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
      FakeHost a = FakeHost.of(shape);
      FakeHost b = FakeHost.of(shape);
      ChildTotalsReuseTest.populate(a, new SplittableRandom(seed));
      ChildTotalsReuseTest.populate(b, new SplittableRandom(seed));
      BalancerOptions options = BalancerOptions.defaults().withNiRandom(false);
      BalancerPieces cached = a.balancer(options);
      BalancerPieces plain = b.balancer(options);
      GroupStatsCache cache = cached.useGroupStatsCache();
      cached.addNrRunning(1, 2);
      plain.addNrRunning(1, 2);
      SplittableRandom setup = new SplittableRandom(seed);
      int nrCpus = a.topology.nrCpuIds();
      for (int round = 0; round < 6; round++) {
        long ms = 1 + setup.nextInt(40);
        a.advanceMs(ms);
        b.advanceMs(ms);
        for (int k = 0; k < nrCpus; k++) {
          int cpu = setup.nextInt(nrCpus);
          int kind = a.cfsTasks.get(cpu).isEmpty() ? setup.nextInt(2) : 2 + setup.nextInt(2);
          String where = "seed " + seed + " " + shape + " round " + round + " cpu " + cpu;
          assertThat(ChildTotalsReuseTest.walk(cached, cpu, kind))
              .as(where)
              .isEqualTo(ChildTotalsReuseTest.walk(plain, cpu, kind));
          assertThat(ChildTotalsReuseTest.fingerprint(cached))
              .as(where)
              .isEqualTo(ChildTotalsReuseTest.fingerprint(plain));
        }
      }
      hits += cache.hits;
    }
    // The cached side must actually have reused sums, or the comparison proves nothing.
    assertThat(hits).isPositive();
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
