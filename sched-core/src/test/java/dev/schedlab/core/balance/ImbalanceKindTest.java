package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;
import org.junit.jupiter.api.Test;

/**
 * {@code calculate_imbalance()} picks the migration type from the group types: a task count when
 * the local group has spare capacity inside an LLC, utilization across LLCs or nodes, load when
 * both groups are (or will be) overloaded, one misfit task on asymmetric capacity; {@code
 * adjust_numa_imbalance()} lets a node keep a 2-task imbalance. Each case is computed by hand in
 * the comments and checked through the {@code lb_imbalance_*} counters and the moves.
 */
final class ImbalanceKindTest {

  @Test
  void imbalance_idleCpuBesideThreeTaskCpu_migrateOneTask() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTasks(1, 3);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    // {1}: 3 tasks on 1 CPU, util 1024 x 117 > 1024 x 100: overloaded. Local {0} has spare;
    // MC shares the LLC, so a task count: sibling_imbalance = 3 - 0 = 3, halved = 1.
    int moved = balancer.schedBalanceRq(0, host.domain(0, 0), IdleType.IDLE, new BalanceCost());
    assertThat(moved).isEqualTo(1);
    assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.OVERLOADED);
    assertThat(balancer.lastLocalGroupType()).isEqualTo(GroupType.HAS_SPARE);
    assertThat(balancer.lastMigrationType()).isEqualTo(MigrationType.TASK);
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.IMBALANCE_TASK)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.GAINED)).isEqualTo(1);
    assertThat(stats.lbTotal(LbField.IMBALANCE_LOAD)).isZero();
  }

  @Test
  void imbalance_bothOverloaded_migrateLoadToDomainAverage() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTasks(0, 2);
    host.addTasks(1, 4);
    host.addTasks(2, 2);
    host.addTasks(3, 2);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    SchedDomain mc = host.domain(0, 0);
    // avg loads: local 2048, busiest {1} 4096, domain 10240 x 1024 / 4096 = 2560.
    // imbalance = min((4096 - 2560) x 1024, (2560 - 2048) x 1024) / 1024 = 512.
    // A task's load 1024 > 512: nothing moves while nr_balance_failed = 0.
    assertThat(balancer.schedBalanceRq(0, mc, IdleType.NOT_IDLE, new BalanceCost())).isZero();
    assertThat(balancer.lastMigrationType()).isEqualTo(MigrationType.LOAD);
    assertThat(balancer.lastImbalance()).isEqualTo(512);
    assertThat(balancer.nrBalanceFailed(0, 0)).isEqualTo(1);
    // Every queued task was too heavy for the imbalance; the running one cannot move at all.
    assertThat(balancer.stats().skips(0, MigrationSkip.OVER_IMBALANCE)).isEqualTo(3);
    assertThat(balancer.stats().skips(0, MigrationSkip.RUNNING)).isEqualTo(1);
    // With one failure the load is halved for the test (shr_bound): 512 <= 512 moves.
    assertThat(balancer.schedBalanceRq(0, mc, IdleType.NOT_IDLE, new BalanceCost())).isEqualTo(1);
    assertThat(host.migrations).hasSize(1);
    assertThat(host.migrations.get(0)).containsExactly(3, 1, 0, 0);
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.NOT_IDLE, LbField.IMBALANCE_LOAD)).isEqualTo(1024);
    assertThat(stats.lb(0, 0, IdleType.NOT_IDLE, LbField.FAILED)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.NOT_IDLE, LbField.GAINED)).isEqualTo(1);
    assertThat(balancer.nrBalanceFailed(0, 0)).isZero();
  }

  @Test
  void imbalance_overloadedRemoteNode_migrateUtilAcrossNuma() {
    FakeHost host = FakeHost.of("2n1l2c1t");
    host.addTasks(2, 3);
    host.addTask(3);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    SchedDomain numa = host.domain(0, 1);
    assertThat(numa.hasFlag(SdFlags.SD_NUMA)).isTrue();
    // {2,3}: 4 tasks on 2 CPUs, util 2048: overloaded. No SD_SHARE_LLC: fill local's spare
    // capacity, max(2048, 0) - 0 = 2048 of util. CPU 2 (3 tasks) is the source; tasks of util
    // 1024 each: two move.
    int moved = balancer.schedBalanceRq(0, numa, IdleType.IDLE, new BalanceCost());
    assertThat(balancer.lastMigrationType()).isEqualTo(MigrationType.UTIL);
    assertThat(balancer.stats().lb(0, 1, IdleType.IDLE, LbField.IMBALANCE_UTIL)).isEqualTo(2048);
    assertThat(moved).isEqualTo(2);
    assertThat(host.migrations).extracting(m -> m[1]).containsOnly(2);
    assertThat(balancer.stats().migrations(1)).isEqualTo(2);
  }

  @Test
  void imbalance_twoTasksOnRemoteNode_adjustNumaImbalanceKeepsThem() {
    FakeHost host = FakeHost.of("2n1l2c1t");
    host.addTask(2);
    host.addTask(3);
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    SchedDomain numa = host.domain(0, 1);
    assertThat(numa.imbNumaNr()).isEqualTo(1);
    // {2,3} fully busy, sibling_imbalance 2 - 0 = 2 forces a look, but dst would run 0 + 1 <=
    // imb_numa_nr 1 tasks and 2 <= NUMA_IMBALANCE_MIN: imbalance 0, no busiest group.
    assertThat(balancer.schedBalanceRq(0, numa, IdleType.IDLE, new BalanceCost())).isZero();
    assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.FULLY_BUSY);
    assertThat(balancer.stats().lb(0, 1, IdleType.IDLE, LbField.NOBUSYG)).isEqualTo(1);
    assertThat(host.migrations).isEmpty();
  }

  private static Topology bigLittle() {
    TopologyBuilder builder = Topology.builder(4).name("big-little");
    for (int cpu = 0; cpu < 4; cpu++) {
      builder.addCpu(cpu, 0, 0, 0, TopologyBuilder.UNKNOWN, cpu, 0);
    }
    return builder.capacity(2, 512).capacity(3, 512).build();
  }

  @Test
  void imbalance_misfitOnLittleCpu_migrateMisfitThroughActiveBalance() {
    FakeHost host = new FakeHost(bigLittle(), 1000);
    SchedDomain mc = host.domain(0, 0);
    assertThat(mc.hasFlag(SdFlags.SD_ASYM_CPUCAPACITY)).isTrue();
    FakeHost.FakeTask task = host.addTask(2);
    host.misfit[2] = 1024;
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    // {2}: one task, misfit load 1024, dst capacity 1024 > 512 x 1078/1024: misfit group; the
    // running task cannot be detached, so the pass fails and asks for an active balance.
    assertThat(balancer.schedBalanceRq(0, mc, IdleType.IDLE, new BalanceCost())).isZero();
    assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.MISFIT_TASK);
    assertThat(balancer.lastMigrationType()).isEqualTo(MigrationType.MISFIT);
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.IMBALANCE_MISFIT)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.FAILED)).isEqualTo(1);
    assertThat(balancer.nrBalanceFailed(0, 0)).as("misfit does not count failures").isZero();
    assertThat(host.activeBalanceRequests).containsExactly(new int[] {2, 0});

    host.runActiveBalance(balancer, 2, 0, new BalanceCost());
    assertThat(task.cpu()).isEqualTo(0);
    assertThat(stats.alb(0, 0, AlbField.COUNT)).isEqualTo(1);
    assertThat(stats.alb(0, 0, AlbField.PUSHED)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.GAINED)).isEqualTo(1);
  }

  @Test
  void imbalance_misfitThatDstCannotHelp_notPulledToLittleCpu() {
    FakeHost host = new FakeHost(bigLittle(), 1000);
    host.addTask(0);
    host.misfit[0] = 1024;
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    // dst 3 (512) is not bigger than the big CPU 0: no misfit group, nothing to do.
    balancer.schedBalanceRq(3, host.domain(3, 0), IdleType.IDLE, new BalanceCost());
    assertThat(balancer.lastBusiestGroupType()).isNotEqualTo(GroupType.MISFIT_TASK);
    assertThat(balancer.stats().lbTotal(LbField.IMBALANCE_MISFIT)).isZero();
    assertThat(host.migrations).isEmpty();
  }
}
