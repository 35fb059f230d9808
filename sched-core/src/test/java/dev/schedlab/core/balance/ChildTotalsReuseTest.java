package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
    FakeHost a = FakeHost.of(shape);
    FakeHost b = FakeHost.of(shape);
    SplittableRandom setup = new SplittableRandom(seed);
    populate(a, new SplittableRandom(seed));
    populate(b, new SplittableRandom(seed));
    BalancerOptions options = BalancerOptions.defaults().withNiRandom(false);
    BalancerPieces withReuse = a.balancer(options);
    BalancerPieces without = b.balancer(options);
    without.findSrcGroup.reuseChildTotals = false;
    withReuse.addNrRunning(1, 2);
    without.addNrRunning(1, 2);
    int nrCpus = a.topology.nrCpuIds();
    for (int round = 0; round < 6; round++) {
      long ms = 1 + setup.nextInt(40);
      a.advanceMs(ms);
      b.advanceMs(ms);
      for (int k = 0; k < nrCpus; k++) {
        int cpu = setup.nextInt(nrCpus);
        int kind = a.cfsTasks.get(cpu).isEmpty() ? setup.nextInt(2) : 2 + setup.nextInt(2);
        String where = "seed " + seed + " " + shape + " round " + round + " cpu " + cpu;
        int movedA = walk(withReuse, cpu, kind);
        int movedB = walk(without, cpu, kind);
        assertThat(movedA).as(where).isEqualTo(movedB);
        assertThat(fingerprint(withReuse)).as(where).isEqualTo(fingerprint(without));
      }
    }
    assertThat(without.findSrcGroup.childTotalsReused).isZero();
    return withReuse.findSrcGroup.childTotalsReused;
  }

  static int walk(BalancerPieces balancer, int cpu, int kind) {
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
