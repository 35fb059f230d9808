package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import org.junit.jupiter.api.Test;

/**
 * {@code need_active_balance()}: a task imbalance that keeps failing asks for an active balance
 * once {@code nr_balance_failed > cache_nice_tries + 2} (the 4th consecutive failure in MC, where
 * cache_nice_tries = 1); a lone task on a reduced-capacity CPU asks at once. The stopper ({@code
 * active_load_balance_cpu_stop()}) then pushes the first task from the tail that may run on the
 * target, the preempted running task included, and counts {@code alb_*}; no request is made when
 * the busiest CPU's running task may not run on the balancing CPU.
 */
final class ActiveBalanceTest {

  /** Balances CPU 0's domain at {@code level} as an idle CPU, {@code times} times. */
  private static void balanceTimes(FakeHost host, BalancerPieces balancer, int level, int times) {
    for (int pass = 0; pass < times; pass++) {
      balancer.schedBalanceRq(0, host.domain(0, level), IdleType.IDLE, new BalanceCost());
    }
  }

  @Test
  void activeBalance_pinnedQueuedTask_requestedOnFourthFailure() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    FakeHost.FakeTask running = host.addTask(1);
    FakeHost.FakeTask pinned = host.addTask(1, host.mask(1));
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    balanceTimes(host, balancer, 0, 3);
    assertThat(balancer.nrBalanceFailed(0, 0)).isEqualTo(3);
    assertThat(host.activeBalanceRequests).isEmpty();
    balanceTimes(host, balancer, 0, 1);
    assertThat(balancer.nrBalanceFailed(0, 0)).isEqualTo(4);
    assertThat(host.activeBalanceRequests).containsExactly(new int[] {1, 0});
    assertThat(balancer.balanceIntervalMs(0, 0)).isEqualTo(4);

    host.runActiveBalance(balancer, 1, 0, new BalanceCost());
    assertThat(running.cpu()).as("the preempted running task is pushed").isZero();
    assertThat(pinned.cpu()).isEqualTo(1);
    LbStats stats = balancer.stats();
    assertThat(stats.alb(0, 0, AlbField.COUNT)).isEqualTo(1);
    assertThat(stats.alb(0, 0, AlbField.PUSHED)).isEqualTo(1);
    assertThat(stats.alb(0, 0, AlbField.FAILED)).isZero();
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.GAINED)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.FAILED)).isEqualTo(4);
    assertThat(balancer.nrBalanceFailed(0, 0)).isZero();
  }

  @Test
  void activeBalance_twoBusySiblingsIdleCore_spreadsAfterFourFailures() {
    FakeHost host = FakeHost.of("1n1l2c2t");
    FakeHost.FakeTask onTwo = host.addTask(2);
    host.addTask(3);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    balanceTimes(host, balancer, 1, 4);
    assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.SMT_BALANCE);
    assertThat(balancer.stats().lb(0, 1, IdleType.IDLE, LbField.IMBALANCE_TASK)).isEqualTo(4);
    assertThat(host.activeBalanceRequests).containsExactly(new int[] {2, 0});
    host.runActiveBalance(balancer, 2, 0, new BalanceCost());
    assertThat(onTwo.cpu()).isZero();
    assertThat(balancer.stats().alb(0, 1, AlbField.PUSHED)).isEqualTo(1);
  }

  @Test
  void activeBalance_reducedCapacitySourceWithOneTask_requestedAtOnce() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTask(1);
    host.capacity[1] = 512;
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    balanceTimes(host, balancer, 0, 1);
    // Non-asym misfit: the reduced-capacity CPU's load is the imbalance.
    assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.MISFIT_TASK);
    assertThat(balancer.lastMigrationType()).isEqualTo(MigrationType.LOAD);
    assertThat(balancer.lastImbalance()).isEqualTo(1024);
    assertThat(host.activeBalanceRequests).containsExactly(new int[] {1, 0});
  }

  @Test
  void activeBalance_runningTaskPinnedAway_noRequestAndIntervalBacksOff() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTask(1, host.mask(1));
    host.capacity[1] = 512;
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    balanceTimes(host, balancer, 0, 1);
    assertThat(host.activeBalanceRequests).isEmpty();
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.FAILED)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.BALANCED)).isZero();
    assertThat(balancer.balanceIntervalMs(0, 0)).isEqualTo(8);
  }

  @Test
  void activeBalance_onlyPinnedTasksLeft_countsFailed() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTask(1, host.mask(1));
    host.addTask(1, host.mask(1));
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    host.runActiveBalance(balancer, 1, 0, new BalanceCost());
    assertThat(balancer.stats().alb(0, 0, AlbField.COUNT)).isEqualTo(1);
    assertThat(balancer.stats().alb(0, 0, AlbField.FAILED)).isEqualTo(1);
    assertThat(host.migrations).isEmpty();
  }
}
