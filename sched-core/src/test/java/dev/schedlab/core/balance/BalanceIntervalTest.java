package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import org.junit.jupiter.api.Test;

/**
 * {@code get_sd_balance_interval()} turns {@code balance_interval} (ms, × busy_factor 16 when busy)
 * into jiffies rounding up, minus one jiffy when busy, clamped to [1, HZ × CPUs / 10]; {@code
 * balance_interval} doubles up to {@code max_interval} while balanced (up to 512 ms when all tasks
 * were pinned) and returns to {@code min_interval} after an imbalance; {@code rq->next_balance} is
 * the earliest domain deadline.
 */
final class BalanceIntervalTest {

  @Test
  void interval_hz250Llc16_idle4BusySixtyThreeJiffies() {
    FakeHost host =
        new FakeHost(Shape.parse("1n1l16c1t").toTopology(SiblingNumbering.ADJACENT), 250);
    BalancerPieces balancer = host.balancer();
    // kernel-facts §2.2 example: 16 ms -> ceil(16/4) = 4; 256 ms -> 64 - 1 = 63.
    assertThat(balancer.sdBalanceInterval(host.domain(0, 0), false)).isEqualTo(4);
    assertThat(balancer.sdBalanceInterval(host.domain(0, 0), true)).isEqualTo(63);
  }

  @Test
  void interval_hz1000_msEqualJiffies() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    BalancerPieces balancer = host.balancer();
    assertThat(balancer.sdBalanceInterval(host.domain(0, 0), false)).isEqualTo(4);
    assertThat(balancer.sdBalanceInterval(host.domain(0, 0), true)).isEqualTo(63);
  }

  @Test
  void interval_hz100SmtDomain_roundsUpToOneJiffy() {
    FakeHost host =
        new FakeHost(Shape.parse("1n1l2c2t").toTopology(SiblingNumbering.ADJACENT), 100);
    BalancerPieces balancer = host.balancer();
    // 2 ms at 10 ms per jiffy rounds up to 1; busy 32 ms -> 4 - 1 = 3.
    assertThat(balancer.sdBalanceInterval(host.domain(0, 0), false)).isEqualTo(1);
    assertThat(balancer.sdBalanceInterval(host.domain(0, 0), true)).isEqualTo(3);
  }

  @Test
  void balanceInterval_balancedPasses_doublesUpToMaxInterval() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    for (int cpu = 0; cpu < 4; cpu++) {
      host.addTask(cpu);
    }
    BalancerPieces balancer = host.balancer();
    assertThat(balancer.balanceIntervalMs(0, 0)).isEqualTo(4);
    host.setNowMs(1000);
    balancer.balanceDomains(0, IdleType.NOT_IDLE, new BalanceCost());
    assertThat(balancer.balanceIntervalMs(0, 0)).isEqualTo(8);
    // Busy: 8 ms x 16 = 128 jiffies - 1.
    assertThat(balancer.nextBalance(0)).isEqualTo(1000 + 127);
    host.setNowMs(2000);
    balancer.balanceDomains(0, IdleType.NOT_IDLE, new BalanceCost());
    assertThat(balancer.balanceIntervalMs(0, 0)).as("max_interval = 2 x 4 ms").isEqualTo(8);
    assertThat(balancer.stats().lb(0, 0, IdleType.NOT_IDLE, LbField.BALANCED)).isEqualTo(2);
  }

  @Test
  void balanceInterval_intervalNotExpired_domainNotBalanced() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTask(0);
    BalancerPieces balancer = host.balancer();
    host.setNowMs(1000);
    balancer.balanceDomains(0, IdleType.NOT_IDLE, new BalanceCost());
    host.setNowMs(1000 + 126);
    balancer.balanceDomains(0, IdleType.NOT_IDLE, new BalanceCost());
    assertThat(balancer.stats().lb(0, 0, IdleType.NOT_IDLE, LbField.COUNT)).isEqualTo(1);
    assertThat(balancer.lastBalance(0, 0)).isEqualTo(1000);
    host.setNowMs(1000 + 127);
    balancer.balanceDomains(0, IdleType.NOT_IDLE, new BalanceCost());
    assertThat(balancer.stats().lb(0, 0, IdleType.NOT_IDLE, LbField.COUNT)).isEqualTo(2);
  }

  @Test
  void balanceInterval_imbalanceFound_resetsToMinInterval() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    BalancerPieces balancer = host.balancer();
    host.setNowMs(1000);
    balancer.balanceDomains(0, IdleType.IDLE, new BalanceCost());
    assertThat(balancer.balanceIntervalMs(0, 0)).isEqualTo(8);
    host.addTasks(1, 3);
    host.setNowMs(2000);
    balancer.balanceDomains(0, IdleType.IDLE, new BalanceCost());
    assertThat(host.migrations).hasSize(1);
    assertThat(balancer.balanceIntervalMs(0, 0)).isEqualTo(4);
    // Moved a task, so CPU 0 is busy now: 4 ms x 16 - 1.
    assertThat(balancer.nextBalance(0)).isEqualTo(2000 + 63);
  }

  @Test
  void balanceInterval_allPinned_doublesPastMaxIntervalUpTo512() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTask(1, host.mask(1));
    host.addTask(1, host.mask(1));
    BalancerPieces balancer = host.balancer();
    long now = 1000;
    for (int pass = 0; pass < 10; pass++) {
      host.setNowMs(now);
      balancer.balanceDomains(0, IdleType.IDLE, new BalanceCost());
      now += 1000;
    }
    // 4 -> 8 -> ... -> 512, then no further.
    assertThat(balancer.balanceIntervalMs(0, 0)).isEqualTo(512);
    assertThat(balancer.stats().lb(0, 0, IdleType.IDLE, LbField.BALANCED)).isEqualTo(10);
    assertThat(balancer.stats().lb(0, 0, IdleType.IDLE, LbField.FAILED)).isZero();
  }

  @Test
  void resetBalanceInterval_afterBackOff_minIntervalAndNextBalanceSoon() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    BalancerPieces balancer = host.balancer();
    host.setNowMs(1000);
    balancer.balanceDomains(0, IdleType.IDLE, new BalanceCost());
    assertThat(balancer.nextBalance(0)).isEqualTo(1008);
    host.setNowMs(1002);
    balancer.passes.resetBalanceInterval(0);
    assertThat(balancer.balanceIntervalMs(0, 0)).isEqualTo(4);
    assertThat(balancer.lastBalance(0, 0)).isEqualTo(1002);
    assertThat(balancer.nextBalance(0)).isEqualTo(1006);
  }

  @Test
  void spreadBalanceStamps_eachDomainDueWithinItsIdleInterval_nextBalanceEarliest() {
    // 2 nodes x 8 cores: MC (8 CPUs, 8 ms) and NUMA/PKG above it (16 CPUs, 16 ms).
    FakeHost host = FakeHost.of("2n1l8c1t");
    BalancerPieces balancer = host.balancer();
    host.setNowMs(500);
    balancer.spreadBalanceStamps(new java.util.SplittableRandom(7));
    int levels = host.domains().domains(0).size();
    assertThat(levels).isGreaterThanOrEqualTo(2);
    java.util.Set<Long> topPhases = new java.util.HashSet<>();
    for (int cpu = 0; cpu < 16; cpu++) {
      long earliest = Long.MAX_VALUE;
      for (int level = 0; level < levels; level++) {
        long interval = balancer.sdBalanceInterval(host.domain(cpu, level), false);
        long last = balancer.lastBalance(cpu, level);
        assertThat(last).isBetween(500 - interval + 1, 500L);
        earliest = Math.min(earliest, last + interval);
      }
      assertThat(balancer.nextBalance(cpu)).isEqualTo(earliest).isGreaterThan(500);
      topPhases.add(balancer.lastBalance(cpu, levels - 1));
    }
    // Not all in phase: 16 draws from 16 values are all equal with probability 16^-15.
    assertThat(topPhases).hasSizeGreaterThan(1);
  }

  @Test
  void spreadBalanceStamps_sameSeed_sameStamps() {
    long[] first = new long[16];
    long[] second = new long[16];
    for (long[] out : new long[][] {first, second}) {
      FakeHost host = FakeHost.of("2n1l8c1t");
      BalancerPieces balancer = host.balancer();
      balancer.spreadBalanceStamps(new java.util.SplittableRandom(3));
      for (int cpu = 0; cpu < 16; cpu++) {
        out[cpu] = balancer.nextBalance(cpu);
      }
    }
    assertThat(second).containsExactly(first);
  }
}
