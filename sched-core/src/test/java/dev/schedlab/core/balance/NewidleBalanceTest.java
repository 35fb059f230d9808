package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import org.junit.jupiter.api.Test;

/**
 * {@code sched_balance_newidle()}: runs only when the root domain is overloaded and {@code
 * avg_idle} covers the base domain's {@code max_newidle_lb_cost}; walks the domains bottom-up while
 * the accumulated cost plus the next domain's max cost fits in {@code avg_idle}; stops at the first
 * pull; records each domain's cost from the cost model (base 1000 ns charged to the first domain
 * run, 40 ns per CPU scanned, 300 per domain, 100 per task examined, 1500 per task moved);
 * NI_RANDOM skips a domain when a 1024-sided die exceeds {@code 1 + newidle_ratio}; the ratio is
 * recomputed every 512 attempts; {@code max_newidle_lb_cost} decays by 253/256 once more than a
 * second has passed. Machine {@code 1n2l2c1t}: domain0 MC {0,1}, domain1 PKG {0-3}.
 */
final class NewidleBalanceTest {

  private final FakeHost host = FakeHost.of("1n2l2c1t");

  private BalancerPieces balancer(BalancerOptions options) {
    BalancerPieces balancer = host.balancer(options);
    balancer.addNrRunning(1, 2);
    return balancer;
  }

  private static BalancerOptions plain() {
    return BalancerOptions.defaults().withNiRandom(false);
  }

  @Test
  void newidle_rootNotOverloaded_doesNotBalance() {
    host.addTasks(1, 2);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer(plain());
    assertThat(balancer.state.rdOverloaded).isFalse();
    assertThat(balancer.newidleBalance(0, new BalanceCost())).isZero();
    assertThat(balancer.stats().lbTotal(LbField.COUNT)).isZero();
    assertThat(host.blockedAverageUpdates[0]).isZero();
  }

  @Test
  void newidle_addNrRunningToTwo_setsRootOverloaded() {
    BalancerPieces balancer = host.balancer(plain());
    balancer.addNrRunning(2, 3);
    assertThat(balancer.state.rdOverloaded).isFalse();
    balancer.addNrRunning(1, 2);
    assertThat(balancer.state.rdOverloaded).isTrue();
  }

  @Test
  void newidle_avgIdleBelowBaseMaxCost_doesNotBalance() {
    host.addTasks(1, 2);
    host.setNowMs(1000);
    BalancerPieces balancer = balancer(plain());
    balancer.domain(0, 0).maxNewidleLbCostNs = 1_000_001;
    assertThat(balancer.newidleBalance(0, new BalanceCost())).isZero();
    assertThat(balancer.stats().lbTotal(LbField.COUNT)).isZero();
  }

  @Test
  void newidle_pullInLlc_stopsBeforePkgAndRecordsCost() {
    host.addTasks(1, 2);
    host.addTasks(2, 3);
    host.setNowMs(1000);
    BalancerPieces balancer = balancer(plain().withMigrationCostNs(0));
    BalanceCost cost = new BalanceCost();
    assertThat(balancer.newidleBalance(0, cost)).isEqualTo(1);
    assertThat(host.migrations).hasSize(1);
    assertThat(host.migrations.get(0)[1]).isEqualTo(1);
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.NEWLY_IDLE, LbField.GAINED)).isEqualTo(1);
    assertThat(stats.lb(0, 1, IdleType.NEWLY_IDLE, LbField.COUNT)).isZero();
    assertThat(host.blockedAverageUpdates[0]).isEqualTo(1);
    // 2 CPUs scanned, 1 domain, 1 task examined, 1 moved, plus the base: 80+300+100+1500+1000.
    assertThat(balancer.maxNewidleLbCostNs(0, 0)).isEqualTo(2980);
    assertThat(balancer.maxIdleBalanceCostNs(0)).isEqualTo(2980);
    assertThat(cost.cpusScanned).isEqualTo(2);
    assertThat(cost.domainsBalanced).isEqualTo(1);
    assertThat(cost.tasksExamined).isEqualTo(1);
    assertThat(cost.tasksMoved).isEqualTo(1);
  }

  @Test
  void newidle_nothingInLlc_pullsAcrossLlcsAndSumsCosts() {
    host.addTask(1);
    host.addTasks(2, 3);
    host.setNowMs(1000);
    BalancerPieces balancer = balancer(plain().withMigrationCostNs(0));
    assertThat(balancer.newidleBalance(0, new BalanceCost())).isEqualTo(1);
    assertThat(host.migrations.get(0)).containsExactly(2, 2, 0, 1);
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.NEWLY_IDLE, LbField.NOBUSYG)).isEqualTo(1);
    // PKG: {2,3} overloaded (runnable 3072 > 2048 x 1.17), no SD_SHARE_LLC: util
    // max(2048, 1024) - 1024 = 1024.
    assertThat(stats.lb(0, 1, IdleType.NEWLY_IDLE, LbField.IMBALANCE_UTIL)).isEqualTo(1024);
    // MC: 2 CPUs + domain + base = 1380; PKG: 4 CPUs + domain + 1 examined + 1 moved = 2060.
    assertThat(balancer.maxNewidleLbCostNs(0, 0)).isEqualTo(1380);
    assertThat(balancer.maxNewidleLbCostNs(0, 1)).isEqualTo(2060);
    assertThat(balancer.maxIdleBalanceCostNs(0)).isEqualTo(1380 + 2060);
  }

  @Test
  void newidle_nextDomainCostExceedsAvgIdle_stopsWalk() {
    host.addTask(1);
    host.addTasks(2, 3);
    host.setNowMs(1000);
    BalancerPieces balancer = balancer(plain());
    // avg_idle 1 ms < 1380 (MC) + 999000 (PKG's max cost).
    balancer.domain(0, 1).maxNewidleLbCostNs = 999_000;
    assertThat(balancer.newidleBalance(0, new BalanceCost())).isZero();
    assertThat(balancer.stats().lb(0, 0, IdleType.NEWLY_IDLE, LbField.COUNT)).isEqualTo(1);
    assertThat(balancer.stats().lb(0, 1, IdleType.NEWLY_IDLE, LbField.COUNT)).isZero();
  }

  @Test
  void newidle_niRandomRollAboveRatio_skipsDomainAndTriesNext() {
    host.addTasks(1, 2);
    host.addTasks(2, 3);
    host.setNowMs(1000);
    BalancerPieces balancer = balancer(BalancerOptions.defaults());
    balancer.domain(0, 0).newidleRatio = 100;
    // MC: 102 > 1 + 100 skips; PKG (ratio 512): 0 <= 513 runs.
    host.randomValues.add(102);
    host.randomValues.add(0);
    assertThat(balancer.newidleBalance(0, new BalanceCost())).isEqualTo(1);
    assertThat(host.randomDraws).isEqualTo(2);
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.NEWLY_IDLE, LbField.COUNT)).isZero();
    assertThat(stats.lb(0, 1, IdleType.NEWLY_IDLE, LbField.COUNT)).isEqualTo(1);
    assertThat(host.migrations.get(0)[1]).isEqualTo(2);
  }

  @Test
  void newidle_niRandomRollEqualToOnePlusRatio_runsDomain() {
    host.addTasks(1, 2);
    host.setNowMs(1000);
    BalancerPieces balancer = balancer(BalancerOptions.defaults());
    balancer.domain(0, 0).newidleRatio = 100;
    host.randomValues.add(101);
    assertThat(balancer.newidleBalance(0, new BalanceCost())).isEqualTo(1);
    assertThat(host.randomDraws).isEqualTo(1);
  }

  @Test
  void newidle_niRandomFullRatio_drawsNoRandomNumber() {
    host.addTasks(1, 2);
    host.setNowMs(1000);
    BalancerPieces balancer = balancer(BalancerOptions.defaults());
    balancer.domain(0, 0).newidleRatio = 1024;
    assertThat(balancer.newidleBalance(0, new BalanceCost())).isEqualTo(1);
    assertThat(host.randomDraws).isZero();
  }

  private int failedAttemptsUntilRatioUpdate(BalancerPieces balancer) {
    for (int attempt = 0; attempt < 512; attempt++) {
      assertThat(balancer.newidleBalance(0, new BalanceCost())).isZero();
    }
    return balancer.newidleRatio(0, 0);
  }

  @Test
  void newidleRatio_512FailuresWithoutNiRate_becomesHalvedSuccessCount() {
    host.addTasks(1, 2);
    // Every task is hot and newidle never raises nr_balance_failed: each attempt fails.
    BalancerPieces balancer = balancer(plain().withNiRate(false).withMigrationCostNs(-1));
    host.setNowMs(1000);
    assertThat(failedAttemptsUntilRatioUpdate(balancer)).isEqualTo(256);
  }

  @Test
  void newidleRatio_512FailuresOverOneSecondWithNiRate_addsElapsedTime() {
    host.addTasks(1, 2);
    BalancerPieces balancer = balancer(plain().withMigrationCostNs(-1));
    host.setNowMs(1000);
    // 1e9 ns >> 22 = 238, plus the 256 successes newidle_success starts with.
    assertThat(failedAttemptsUntilRatioUpdate(balancer)).isEqualTo(238 + 256);
  }

  @Test
  void newidleRatio_512WeightedSuccesses_saturatesRatio() {
    host.addTasks(1, 2);
    BalancerPieces balancer = balancer(BalancerOptions.defaults().withNiRate(false));
    balancer.domain(0, 0).newidleRatio = 100;
    host.setNowMs(1000);
    for (int attempt = 0; attempt < 512; attempt++) {
      host.randomValues.add(0);
      assertThat(balancer.newidleBalance(0, new BalanceCost())).isEqualTo(1);
      // The pulled task exits and a new one arrives on CPU 1, so every attempt succeeds.
      host.removeTask(host.migrations.get(host.migrations.size() - 1)[0]);
      host.addTask(1);
    }
    // Each success counts (1024 + 50) / 101 = 10: 256 + 5120 caps at 1024 (unweighted: 768).
    assertThat(balancer.newidleRatio(0, 0)).isEqualTo(1024);
  }

  @Test
  void maxNewidleLbCost_moreThanOneSecondSinceStamp_decaysBy253Over256() {
    BalancerPieces balancer = host.balancer(plain().withMigrationCostNs(0));
    balancer.domain(0, 0).maxNewidleLbCostNs = 25_600;
    host.setNowMs(1000);
    balancer.balanceDomains(0, IdleType.IDLE, new BalanceCost());
    assertThat(balancer.maxNewidleLbCostNs(0, 0)).isEqualTo(25_600);
    host.setNowMs(1001);
    balancer.balanceDomains(0, IdleType.IDLE, new BalanceCost());
    assertThat(balancer.maxNewidleLbCostNs(0, 0)).isEqualTo(25_300);
    // The decay also refreshes rq->max_idle_balance_cost from the sum over domains.
    assertThat(balancer.maxIdleBalanceCostNs(0)).isEqualTo(25_300);
  }
}
