package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import dev.schedlab.spi.view.SchedPolicy;
import dev.schedlab.topology.domain.SchedDomain;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@code detach_tasks()} scans the source's {@code cfs_tasks} from the tail and takes the first
 * task that {@code can_migrate_task()} allows: not the running task, not one whose affinity
 * excludes dst, and not a cache-hot one (started less than 500 µs ago) until balancing has failed
 * more than {@code cache_nice_tries} times. At most {@code nr_migrate} tasks are examined per pass.
 * Machine {@code 1n1l4c1t} (one MC domain, cache_nice_tries 1) unless said otherwise.
 */
final class DetachTasksTest {

  private final FakeHost host = FakeHost.of("1n1l4c1t");

  private int balanceOnce(BalancerPieces balancer) {
    return balancer.schedBalanceRq(0, host.domain(0, 0), IdleType.IDLE, new BalanceCost());
  }

  @Test
  void detach_threeTasks_takesTailTaskFirst() {
    FakeHost.FakeTask running = host.addTask(1);
    FakeHost.FakeTask first = host.addTask(1);
    FakeHost.FakeTask second = host.addTask(1);
    host.setNowMs(1000);
    assertThat(host.fromTail(1)).containsExactly(first.id, second.id, running.id);
    assertThat(balanceOnce(host.balancer())).isEqualTo(1);
    assertThat(first.cpu()).isEqualTo(0);
    assertThat(second.cpu()).isEqualTo(1);
  }

  @Test
  void detach_tailTaskPinned_skipsItAndTakesNext() {
    host.addTask(1);
    FakeHost.FakeTask pinned = host.addTask(1, host.mask(1));
    FakeHost.FakeTask free = host.addTask(1);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    assertThat(balanceOnce(balancer)).isEqualTo(1);
    assertThat(pinned.cpu()).isEqualTo(1);
    assertThat(free.cpu()).isEqualTo(0);
    assertThat(balancer.stats().skips(0, MigrationSkip.AFFINE)).isEqualTo(1);
    assertThat(balancer.stats().skips(MigrationSkip.RUNNING)).isZero();
    // The refused task went to the head of the list.
    assertThat(host.fromTail(1).get(host.fromTail(1).size() - 1)).isEqualTo(pinned.id);
  }

  @Test
  void detach_tailTaskCacheHot_skipsItForColdTask() {
    host.addTask(1);
    FakeHost.FakeTask hot = host.addTask(1);
    FakeHost.FakeTask cold = host.addTask(1);
    host.setNowMs(1000);
    hot.execStartNs = host.nowNs - 499_999;
    BalancerPieces balancer = host.balancer();
    assertThat(balanceOnce(balancer)).isEqualTo(1);
    assertThat(hot.cpu()).isEqualTo(1);
    assertThat(cold.cpu()).isEqualTo(0);
    assertThat(balancer.stats().lbTotal(LbField.HOT_GAINED)).isZero();
    assertThat(balancer.stats().skips(0, MigrationSkip.HOT)).isEqualTo(1);
  }

  @Test
  void detach_startedExactlyMigrationCostAgo_notHot() {
    host.addTask(1);
    FakeHost.FakeTask task = host.addTask(1);
    host.setNowMs(1000);
    task.execStartNs = host.nowNs - 500_000;
    assertThat(balanceOnce(host.balancer())).isEqualTo(1);
    assertThat(task.cpu()).isZero();
  }

  @Test
  void detach_allHot_movesHotTaskOnlyAfterCacheNiceTriesFailures() {
    host.addTask(1);
    FakeHost.FakeTask hotA = host.addTask(1);
    FakeHost.FakeTask hotB = host.addTask(1);
    host.setNowMs(1000);
    hotA.execStartNs = host.nowNs - 100_000;
    hotB.execStartNs = host.nowNs - 100_000;
    BalancerPieces balancer = host.balancer();
    // MC cache_nice_tries = 1: failures 0 and 1 refuse hot tasks; with 2 > 1 the tail one goes.
    assertThat(balanceOnce(balancer)).isZero();
    assertThat(balancer.nrBalanceFailed(0, 0)).isEqualTo(1);
    assertThat(balanceOnce(balancer)).isZero();
    assertThat(balancer.nrBalanceFailed(0, 0)).isEqualTo(2);
    assertThat(balanceOnce(balancer)).isEqualTo(1);
    assertThat(hotA.cpu()).isZero();
    assertThat(balancer.nrBalanceFailed(0, 0)).isZero();
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.COUNT)).isEqualTo(3);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.FAILED)).isEqualTo(2);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.GAINED)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.HOT_GAINED)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.BALANCED)).isZero();
    // Each refusing pass passed over both hot tasks and the running one.
    assertThat(stats.skips(0, MigrationSkip.HOT)).isEqualTo(4);
    assertThat(stats.skips(0, MigrationSkip.RUNNING)).isEqualTo(2);
  }

  @Test
  void detach_schedIdleTaskJustRan_neverCacheHot() {
    host.addTask(1);
    FakeHost.FakeTask idleTask = host.addTask(1);
    idleTask.policy = SchedPolicy.IDLE;
    host.setNowMs(1000);
    idleTask.execStartNs = host.nowNs - 1;
    assertThat(balanceOnce(host.balancer())).isEqualTo(1);
    assertThat(idleTask.cpu()).isZero();
  }

  @Test
  void detach_smtDomain_siblingsShareCacheSoNothingIsHot() {
    FakeHost smt = FakeHost.of("1n1l2c2t");
    smt.addTask(1);
    FakeHost.FakeTask task = smt.addTask(1);
    smt.setNowMs(1000);
    task.execStartNs = smt.nowNs - 1;
    SchedDomain smtDomain = smt.domain(0, 0);
    assertThat(smtDomain.name()).isEqualTo("SMT");
    int moved = smt.balancer().schedBalanceRq(0, smtDomain, IdleType.IDLE, new BalanceCost());
    assertThat(moved).isEqualTo(1);
    assertThat(task.cpu()).isZero();
  }

  @Test
  void detach_migrationCostMinusOne_everyTaskHot() {
    host.addTask(1);
    host.addTask(1);
    host.setNowMs(1000);
    BalancerPieces balancer =
        host.balancer(BalancerOptions.defaults().withNiRandom(false).withMigrationCostNs(-1));
    assertThat(balanceOnce(balancer)).isZero();
    assertThat(balancer.stats().lb(0, 0, IdleType.IDLE, LbField.FAILED)).isEqualTo(1);
  }

  @Test
  void detach_nrMigrateTwo_examinesOnlyTwoTasks() {
    host.addTask(1);
    host.addTask(1, host.mask(1));
    host.addTask(1, host.mask(1));
    FakeHost.FakeTask free = host.addTask(1);
    host.setNowMs(1000);
    // From the tail: pinned, pinned, free, running; loop_max = min(2, 4) = 2.
    BalancerPieces balancer =
        host.balancer(new BalancerOptions(false, true, 500_000, 2, true, true));
    BalanceCost cost = new BalanceCost();
    assertThat(balancer.schedBalanceRq(0, host.domain(0, 0), IdleType.IDLE, cost)).isZero();
    assertThat(free.cpu()).isEqualTo(1);
    assertThat(cost.tasksExamined).isEqualTo(2);
  }

  @Test
  void detach_moreThanLoopBreakTasks_releasesLockAndContinues() {
    host.addTask(1);
    for (int k = 0; k < 39; k++) {
      host.addTask(1, host.mask(1));
    }
    FakeHost.FakeTask free = host.addTask(1);
    host.setNowMs(1000);
    // The free task is 40th from the tail: 32 tasks, lock break, then 8 more.
    assertThat(host.fromTail(1).indexOf(free.id)).isEqualTo(39);
    BalancerPieces balancer =
        host.balancer(new BalancerOptions(false, true, 500_000, 64, true, true));
    BalanceCost cost = new BalanceCost();
    assertThat(balancer.schedBalanceRq(0, host.domain(0, 0), IdleType.IDLE, cost)).isEqualTo(1);
    assertThat(free.cpu()).isZero();
    assertThat(cost.tasksExamined).isEqualTo(40);
    assertThat(Arrays.stream(balancer.stats().lockHoldHistogram()).sum())
        .as("two lock holds")
        .isEqualTo(2);
  }

  @Test
  void detach_newlyIdleWithPreemption_stopsAfterOneTask() {
    host.addTasks(1, 5);
    host.setNowMs(1000);
    // 5 tasks vs 0: sibling_imbalance 5, halved 2, but newidle stops after the first task.
    BalancerPieces balancer = host.balancer();
    BalanceCost cost = new BalanceCost();
    assertThat(balancer.schedBalanceRq(0, host.domain(0, 0), IdleType.NEWLY_IDLE, cost))
        .isEqualTo(1);
    BalancerPieces noPreempt =
        host.balancer(new BalancerOptions(false, true, 500_000, 32, false, true));
    assertThat(noPreempt.schedBalanceRq(2, host.domain(2, 0), IdleType.NEWLY_IDLE, cost))
        .isEqualTo(2);
  }

  @Test
  void detach_tasksPinnedAwayFromDstButAllowedOnSibling_movedToSibling() {
    FakeHost smt = FakeHost.of("1n1l2c2t");
    for (int k = 0; k < 3; k++) {
      smt.addTask(2, smt.mask(1, 2, 3));
    }
    smt.setNowMs(1000);
    BalancerPieces balancer = smt.balancer();
    // MC of CPU 0, local group {0,1}: the first refused task names CPU 1 as new_dst_cpu
    // (LBF_DST_PINNED), so the pass retries with dst = 1 and moves one task there.
    assertThat(balancer.schedBalanceRq(0, smt.domain(0, 1), IdleType.IDLE, new BalanceCost()))
        .isEqualTo(1);
    assertThat(smt.migrations).hasSize(1);
    assertThat(smt.migrations.get(0)[2]).isEqualTo(1);
    assertThat(balancer.stats().lb(0, 1, IdleType.IDLE, LbField.GAINED)).isEqualTo(1);
  }

  @Test
  void detach_newlyIdleAndTasksPinnedAwayFromDst_noAlternativeDestination() {
    FakeHost smt = FakeHost.of("1n1l2c2t");
    for (int k = 0; k < 3; k++) {
      smt.addTask(2, smt.mask(1, 2, 3));
    }
    smt.setNowMs(1000);
    BalancerPieces balancer = smt.balancer();
    assertThat(balancer.schedBalanceRq(0, smt.domain(0, 1), IdleType.NEWLY_IDLE, new BalanceCost()))
        .isZero();
    assertThat(smt.migrations).isEmpty();
    assertThat(balancer.stats().lb(0, 1, IdleType.NEWLY_IDLE, LbField.BALANCED)).isEqualTo(1);
  }
}
