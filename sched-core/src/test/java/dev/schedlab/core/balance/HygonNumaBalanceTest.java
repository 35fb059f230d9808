package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.Topology;
import dev.schedlab.topology.TopologyBuilder;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;
import org.junit.jupiter.api.Test;

/**
 * {@code sched_balance_rq()} on the NUMA levels of the Hygon 7447v layout that {@code
 * hw.hygon-7447v} assumed until 2026-11-30 (2 sockets × 4 dies, a node and an L3 per die, 24 cores
 * per die, SMT2 with siblings {@code n} and {@code n + 192}, AMD EPYC distances 10/16/32; now
 * {@code -M remote_distance=32 -M peer_die_distance=32}, the default being Hygon's 10/16/22/28), in
 * the situation that the STREAM run of docs/reproductions.md §3 reached with that table: the whole
 * team on socket 0, socket 1 idle.
 *
 * <p>Each step is compared with {@code kernel/sched/fair.c} (kernel-facts §2.3-2.9): {@code
 * should_we_balance()} lets only the first idle CPU of socket 1 (CPU 96) try the cross-socket
 * level; with one running task per CPU, socket 0 is {@code group_fully_busy}, {@code
 * calculate_imbalance()} asks for {@code (192 - 0) / 2 = 96} tasks ({@code migrate_task}; {@code
 * adjust_numa_imbalance()} keeps it, being above {@code NUMA_IMBALANCE_MIN}), {@code
 * sched_balance_find_src_rq()} picks CPU 0 (first of the equal maxima), whose single running task
 * cannot be detached, so the attempt fails without entering {@code detach_tasks()}; {@code
 * need_active_balance()} asks for the stopper only once {@code nr_balance_failed > cache_nice_tries
 * + 2 = 4}, i.e. on the fifth consecutive failure. With two tasks per CPU, socket 0 is overloaded,
 * the imbalance is {@code migrate_util}, and a queued task that ran within {@code
 * sysctl_sched_migration_cost} is refused until {@code nr_balance_failed > cache_nice_tries = 2}.
 */
final class HygonNumaBalanceTest {

  private static final int CPUS = 384;
  private static final int CORES = 192;
  private static final int CORES_PER_NODE = 24;
  private static final int TOP = 3;

  /** The former hw.hygon-7447v layout (SLIT 32 across sockets), built here: no hw-models here. */
  static Topology hygon() {
    TopologyBuilder b = Topology.builder(CPUS).name("hygon-7447v");
    for (int cpu = 0; cpu < CPUS; cpu++) {
      int core = cpu % CORES;
      int node = core / CORES_PER_NODE;
      b.addCpu(cpu, node / 4, node % 4, node % 4, core, core, node);
    }
    int[][] distance = new int[8][8];
    for (int i = 0; i < 8; i++) {
      for (int j = 0; j < 8; j++) {
        distance[i][j] = i == j ? 10 : i / 4 == j / 4 ? 16 : 32;
      }
    }
    return b.distances(distance).build();
  }

  private final FakeHost host = new FakeHost(hygon(), 1000);

  private static boolean onSocket0(int cpu) {
    return cpu % CORES < 96;
  }

  private int balanceTop(BalancerPieces balancer, int cpu) {
    return balancer.schedBalanceRq(cpu, host.domain(cpu, TOP), IdleType.IDLE, new BalanceCost());
  }

  @Test
  void domains_areTheKernelsNumaLevelsWithTheirImbNumaNr() {
    var chain = host.domains.domains(96);
    assertThat(chain).extracting(SchedDomain::name).containsExactly("SMT", "MC", "NUMA", "NUMA");
    assertThat(chain).extracting(SchedDomain::cacheNiceTries).containsExactly(0, 1, 2, 2);
    // The imb_numa_nr pass of build_sched_domains() runs before cpu_attach_domain() drops the
    // degenerate NODE level (48 CPUs, equal to the die's MC span). NODE is the first level above
    // the LLC: one LLC under it, so imb = 48 >> 3 = 6, imb_span = the first SD_NUMA ancestor (192).
    // The 192-CPU level keeps 6 * 192 / 192 = 6; the 384-CPU level gets 6 * 384 / 192 = 12.
    assertThat(chain.get(2).imbNumaNr()).isEqualTo(6);
    assertThat(chain.get(TOP).imbNumaNr()).isEqualTo(12);
    // Distance 32 > RECLAIM_DISTANCE: no fork/exec balancing and no wake affinity across sockets.
    assertThat(chain.get(TOP).hasFlag(SdFlags.SD_BALANCE_FORK)).isFalse();
    assertThat(chain.get(TOP).hasFlag(SdFlags.SD_WAKE_AFFINE)).isFalse();
    assertThat(chain.get(2).hasFlag(SdFlags.SD_BALANCE_FORK)).isTrue();
    assertThat(chain.get(TOP).span().weight()).isEqualTo(CPUS);
  }

  @Test
  void oneRunningTaskPerSocket0Cpu_failsWithoutDetaching_activeBalanceOnFifthFailure() {
    for (int cpu = 0; cpu < CPUS; cpu++) {
      if (onSocket0(cpu)) {
        host.addTask(cpu);
      }
    }
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    // should_we_balance(): only the first idle CPU on an idle core of socket 1 balances.
    assertThat(balanceTop(balancer, 97)).isZero();
    LbStats stats = balancer.stats();
    assertThat(stats.lb(97, TOP, IdleType.IDLE, LbField.BALANCED)).isEqualTo(1);
    assertThat(balancer.lastImbalance()).isZero();

    for (int attempt = 1; attempt <= 5; attempt++) {
      assertThat(balanceTop(balancer, 96)).isZero();
      assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.FULLY_BUSY);
      assertThat(balancer.lastLocalGroupType()).isEqualTo(GroupType.HAS_SPARE);
      assertThat(balancer.lastMigrationType()).isEqualTo(MigrationType.TASK);
      assertThat(balancer.lastImbalance()).isEqualTo(96);
      assertThat(stats.lb(96, TOP, IdleType.IDLE, LbField.FAILED)).isEqualTo(attempt);
      assertThat(balancer.nrBalanceFailed(96, TOP)).isEqualTo(attempt);
      // Nothing was examined: the source runs one task, so detach_tasks() is not entered.
      assertThat(host.migrations).isEmpty();
      // need_active_balance(): migrate_task and nr_balance_failed > cache_nice_tries + 2 = 4.
      assertThat(host.activeBalanceRequests).hasSize(attempt < 5 ? 0 : 1);
    }
    assertThat(host.activeBalanceRequests.get(0)).containsExactly(0, 96);
    host.runActiveBalance(balancer, 0, 96, new BalanceCost());
    assertThat(host.migrations).hasSize(1);
    assertThat(host.migrations.get(0)[2]).isEqualTo(96);
    assertThat(balancer.nrBalanceFailed(96, TOP)).isZero();
  }

  @Test
  void twoTasksPerSocket0Cpu_hotQueuedTaskRefusedUntilFailuresExceedCacheNiceTries() {
    for (int cpu = 0; cpu < CPUS; cpu++) {
      if (onSocket0(cpu)) {
        host.addTask(cpu);
        host.addTask(cpu);
      }
    }
    host.setNowMs(1000);
    // Every queued task stopped running 100 µs ago: cache-hot (migration cost 500 µs).
    for (FakeHost.FakeTask task : host.tasks) {
      task.execStartNs = host.nowNs - 100_000;
    }
    BalancerPieces balancer = host.balancer();
    for (int attempt = 1; attempt <= 3; attempt++) {
      assertThat(balanceTop(balancer, 96)).isZero();
      assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.OVERLOADED);
      // Local has spare, busiest overloaded, domain without SD_SHARE_LLC: fill local's capacity.
      assertThat(balancer.lastMigrationType()).isEqualTo(MigrationType.UTIL);
      assertThat(balancer.lastImbalance()).isEqualTo(192L * 1024);
      assertThat(balancer.nrBalanceFailed(96, TOP)).isEqualTo(attempt);
    }
    // migrate_util never asks for active balance.
    assertThat(host.activeBalanceRequests).isEmpty();
    // Fourth attempt: 3 > cache_nice_tries 2, so the hot task goes; one task, since an idle dst
    // stops detaching when the source is down to one task.
    assertThat(balanceTop(balancer, 96)).isEqualTo(1);
    assertThat(host.migrations).hasSize(1);
    assertThat(host.migrations.get(0)[1]).isZero();
    assertThat(balancer.stats().lb(96, TOP, IdleType.IDLE, LbField.HOT_GAINED)).isEqualTo(1);
    assertThat(balancer.nrBalanceFailed(96, TOP)).isZero();
  }

  @Test
  void adjustNumaImbalance_keepsSmallImbalancesWhileDstRunsFewTasks() {
    // dst_running <= imb_numa_nr: an imbalance of at most NUMA_IMBALANCE_MIN (2) is allowed.
    assertThat(NumaImbalance.adjust(2, 4, 4)).isZero();
    assertThat(NumaImbalance.adjust(3, 4, 4)).isEqualTo(3);
    assertThat(NumaImbalance.adjust(2, 5, 4)).isEqualTo(2);
  }
}
