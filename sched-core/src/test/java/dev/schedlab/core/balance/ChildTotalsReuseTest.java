package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A walk's search that takes the local group's statistics from the child level's sums ({@link
 * FindSrcGroup#beginWalk}) decides exactly as one that scans every CPU: random machines, tasks
 * (loads, pinning, misfits) and walks (newidle, periodic idle and busy), run on two identical fake
 * hosts, one with the reuse switched off; after every walk the moves, every {@code lb_*} counter,
 * the per-domain and per-CPU balancer state and the last search's group statistics must agree. A
 * stale reuse (a sum kept across a move, a shrunken {@code env->cpus}, the wrong level) shows as a
 * difference in the group statistics or the counters.
 */
final class ChildTotalsReuseTest {

  private static final String[] SHAPES = {
    "1n2l4c2t", "2n2l2c2t", "1n1l8c1t", "2n1l4c2t", "1n2l2c4t"
  };

  @Test
  void reuse_randomWalks_matchFullScans() {
    long reused = 0;
    for (int seed = 0; seed < 120; seed++) {
      reused += runScenario(seed);
    }
    // The switch-on side must actually have reused sums, or the comparison proves nothing.
    assertThat(reused).isPositive();
  }

  /** One scenario; returns how many searches of the reusing side took the child's sums. */
  private static long runScenario(int seed) {
    String shape = SHAPES[seed % SHAPES.length];
    BalancerPieces[] sides = populatedSides(seed, shape, 2);
    BalancerPieces withReuse = sides[0];
    BalancerPieces without = sides[1];
    without.findSrcGroup.reuseChildTotals = false;
    compareWalks(seed, shape, sides, ChildTotalsReuseTest::fingerprint);
    assertThat(without.findSrcGroup.childTotalsReused).isZero();
    return withReuse.findSrcGroup.childTotalsReused;
  }

  /**
   * {@code count} balancers (default options, NI_RANDOM off) over identical hosts populated from
   * {@code seed} (see {@link #populate}).
   */
  static BalancerPieces[] populatedSides(int seed, String shape, int count) {
    BalancerOptions options = BalancerOptions.defaults().withNiRandom(false);
    BalancerPieces[] sides = new BalancerPieces[count];
    for (int i = 0; i < count; i++) {
      FakeHost host = FakeHost.of(shape);
      populate(host, new SplittableRandom(seed));
      sides[i] = host.balancer(options);
      sides[i].addNrRunning(1, 2);
    }
    return sides;
  }

  /**
   * Six rounds of random walks (newidle, periodic idle and busy) on random CPUs, the same on every
   * side: after each walk every side must have moved what side 0 moved and show its {@code
   * fingerprint}.
   */
  static void compareWalks(
      int seed,
      String shape,
      BalancerPieces[] sides,
      Function<BalancerPieces, List<Object>> fingerprint) {
    SplittableRandom setup = new SplittableRandom(seed);
    FakeHost first = sides[0].host;
    int nrCpus = first.topology.nrCpuIds();
    for (int round = 0; round < 6; round++) {
      long ms = 1 + setup.nextInt(40);
      for (BalancerPieces side : sides) {
        side.host.advanceMs(ms);
      }
      for (int k = 0; k < nrCpus; k++) {
        int cpu = setup.nextInt(nrCpus);
        int kind = first.cfsTasks.get(cpu).isEmpty() ? setup.nextInt(2) : 2 + setup.nextInt(2);
        String where = "seed " + seed + " " + shape + " round " + round + " cpu " + cpu;
        int moved = walk(sides[0], cpu, kind);
        List<Object> expected = fingerprint.apply(sides[0]);
        for (int i = 1; i < sides.length; i++) {
          assertThat(walk(sides[i], cpu, kind)).as(where + " side " + i).isEqualTo(moved);
          assertThat(fingerprint.apply(sides[i])).as(where + " side " + i).isEqualTo(expected);
        }
      }
    }
  }

  private static int walk(BalancerPieces balancer, int cpu, int kind) {
    BalanceCost cost = new BalanceCost();
    switch (kind) {
      case 0:
        return balancer.newidleBalance(cpu, cost);
      case 1:
        balancer.balanceDomains(cpu, IdleType.IDLE, cost);
        return (int) cost.cpusScanned;
      default:
        balancer.balanceDomains(cpu, IdleType.NOT_IDLE, cost);
        return (int) cost.cpusScanned;
    }
  }

  /** Random tasks: 0-3 per CPU, random load/util/runnable, some pinned to two CPUs, misfits. */
  static void populate(FakeHost host, SplittableRandom random) {
    int nrCpus = host.topology.nrCpuIds();
    host.setNowMs(1000 + random.nextInt(1000));
    for (int cpu = 0; cpu < nrCpus; cpu++) {
      int tasks = random.nextInt(10) < 4 ? 0 : 1 + random.nextInt(3);
      for (int t = 0; t < tasks; t++) {
        CpuMask allowed =
            random.nextInt(5) == 0
                ? host.mask(cpu, random.nextInt(nrCpus))
                : FakeHost.CpusMask.all(host.topology);
        FakeHost.FakeTask task = host.addTask(cpu, allowed);
        task.load = 1 + random.nextInt(FakeHost.HOG * 2);
        task.util = 1 + random.nextInt(FakeHost.HOG);
        task.runnable = 1 + random.nextInt(FakeHost.HOG);
      }
      if (random.nextInt(6) == 0) {
        host.misfit[cpu] = 1 + random.nextInt(FakeHost.HOG);
      }
      host.avgIdleNs[cpu] = 100_000L + random.nextInt(5_000_000);
    }
  }

  /** Everything a walk can change that the two sides must agree on. */
  static List<Object> fingerprint(BalancerPieces balancer) {
    List<Object> out = new ArrayList<>();
    FakeHost host = balancer.host;
    LbStats stats = balancer.stats();
    int nrCpus = host.topology.nrCpuIds();
    for (int cpu = 0; cpu < nrCpus; cpu++) {
      for (int level = 0; level < stats.nrLevels(); level++) {
        for (IdleType idle : IdleType.values()) {
          for (LbField field : LbField.values()) {
            out.add(stats.lb(cpu, level, idle, field));
          }
        }
        for (AlbField field : AlbField.values()) {
          out.add(stats.alb(cpu, level, field));
        }
      }
      out.add(balancer.state.nextBalance[cpu]);
      out.add(balancer.state.maxIdleBalanceCostNs[cpu]);
      for (SchedDomain sd : host.domains.domains(cpu)) {
        SchedDomainState s = balancer.state.domain(sd);
        out.add(List.of(s.balanceIntervalMs, s.nrBalanceFailed, s.lastBalance));
        out.add(List.of(s.maxNewidleLbCostNs, s.newidleCall, s.newidleSuccess, s.newidleRatio));
      }
      out.add(host.fromTail(cpu));
    }
    for (boolean imbalance : balancer.state.sgcImbalance) {
      out.add(imbalance);
    }
    out.add(balancer.state.rdOverloaded);
    for (int[] move : host.migrations) {
      out.add(List.of(move[0], move[1], move[2], move[3]));
    }
    for (int[] request : host.activeBalanceRequests) {
      out.add(List.of(request[0], request[1]));
    }
    out.add(describe(balancer.sds.localStat));
    out.add(describe(balancer.sds.busiestStat));
    out.add(List.of(balancer.sds.totalLoad, balancer.sds.totalCapacity, balancer.sds.avgLoad));
    return out;
  }

  private static List<Object> describe(SgLbStats s) {
    return List.of(
        s.avgLoad,
        s.groupLoad,
        s.groupCapacity,
        s.groupUtil,
        s.groupRunnable,
        s.sumNrRunning,
        s.sumHNrRunning,
        s.idleCpus,
        s.groupWeight,
        s.groupType,
        s.groupSmtBalance,
        s.groupMisfitTaskLoad,
        s.minCapacity,
        s.maxCapacity);
  }
}
