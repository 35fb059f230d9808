package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedGroup;
import org.junit.jupiter.api.Test;

/**
 * {@code update_sd_pick_busiest()} ranks groups by type, and among overloaded groups by {@code
 * avg_load}, keeping the earlier group (in the circular order starting after the local group) on a
 * tie; the task is then pulled from that group. {@code sched_balance_find_src_group()} on its own
 * leaves the domain's statistics in its {@code sd_lb_stats} and the decision in the env, and moves
 * nothing; a busy dst with nobody overloaded is balanced even though a busiest group was found.
 * Machine {@code 1n1l4c1t}, dst CPU 0 idle unless said otherwise.
 */
final class BusiestGroupTest {

  private final FakeHost host = FakeHost.of("1n1l4c1t");

  private int sourceOfPull() {
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    assertThat(balancer.schedBalanceRq(0, host.domain(0, 0), IdleType.IDLE, new BalanceCost()))
        .isPositive();
    assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.OVERLOADED);
    assertThat(host.migrations).extracting(m -> m[1]).containsOnly(host.migrations.get(0)[1]);
    return host.migrations.get(0)[1];
  }

  @Test
  void pickBusiest_equalAvgLoad_keepsFirstGroup() {
    host.addTasks(1, 3);
    host.addTasks(2, 3);
    assertThat(sourceOfPull()).isEqualTo(1);
  }

  @Test
  void pickBusiest_higherAvgLoadLater_replacesEarlierGroup() {
    host.addTasks(1, 3);
    host.addTasks(2, 4);
    assertThat(sourceOfPull()).isEqualTo(2);
  }

  @Test
  void pickBusiest_overloadedBeatsMoreTasksOfLowerType() {
    host.addTasks(1, 2);
    // CPU 2 runs 3 light tasks: util and runnable 3 x 100, not overloaded (has spare).
    for (int k = 0; k < 3; k++) {
      FakeHost.FakeTask light = host.addTask(2);
      light.util = 100;
      light.runnable = 100;
    }
    assertThat(sourceOfPull()).isEqualTo(1);
  }

  @Test
  void findSrcGroup_twoOverloadedGroups_statisticsAndHalfTheTaskGap() {
    host.addTasks(1, 3);
    host.addTasks(2, 4);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    LbEnv env = balancer.rq.prepareEnv(0, host.domain(0, 0), IdleType.IDLE);
    SchedGroup busiest = balancer.findSrcGroup.findSrcGroup(env, new BalanceCost());
    SdLbStats sds = balancer.sds;
    assertThat(busiest).isSameAs(sds.busiest);
    assertThat(busiest.span().test(2)).isTrue();
    assertThat(sds.busiestStat.groupType).isEqualTo(GroupType.OVERLOADED);
    assertThat(sds.busiestStat.avgLoad).isEqualTo(4 * 1024);
    assertThat(sds.busiestStat.sumNrRunning).isEqualTo(4);
    assertThat(sds.local.span().test(0)).isTrue();
    assertThat(sds.localStat.groupType).isEqualTo(GroupType.HAS_SPARE);
    assertThat(sds.totalLoad).isEqualTo(7 * 1024);
    assertThat(sds.totalCapacity).isEqualTo(4 * 1024);
    // Local has spare inside the LLC, single-CPU groups: sibling_imbalance 4 - 0, halved.
    assertThat(env.migrationType).isEqualTo(MigrationType.TASK);
    assertThat(env.imbalance).isEqualTo(2);
    assertThat(host.migrations).isEmpty();
  }

  @Test
  void findSrcGroup_busyDstNobodyOverloaded_balancedThoughBusiestGroupFound() {
    host.addTask(0);
    host.addTask(1);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    LbEnv env = balancer.rq.prepareEnv(0, host.domain(0, 0), IdleType.NOT_IDLE);
    // {1}: one hog, util 1024 x 117 > 1024 x 100: fully busy, as is local {0}; busy dst and
    // nobody overloaded: balanced.
    assertThat(balancer.findSrcGroup.findSrcGroup(env, new BalanceCost())).isNull();
    assertThat(balancer.sds.busiest.span().test(1)).isTrue();
    assertThat(balancer.sds.busiestStat.groupType).isEqualTo(GroupType.FULLY_BUSY);
    assertThat(balancer.sds.localStat.groupType).isEqualTo(GroupType.FULLY_BUSY);
    assertThat(env.imbalance).isZero();
  }
}
