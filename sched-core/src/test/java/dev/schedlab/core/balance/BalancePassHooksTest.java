package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.BalancePass;
import dev.schedlab.spi.BalancePassState;
import dev.schedlab.spi.view.BalanceActions;
import dev.schedlab.spi.view.IdleType;
import dev.schedlab.topology.domain.SchedDomain;
import dev.schedlab.topology.domain.SdFlags;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link BalancePass} hooks run where DESIGN.md puts them: {@code beforeDomainWalk} once at the
 * start of every periodic pass (not newidle) with the pass's CPU and idle type and the balancer as
 * {@link BalanceActions}; {@code balanceDomain} per domain, false skipping it as if its interval
 * had not expired; {@code narrowSourceCandidates} on a copy of {@code env->cpus} before the busiest
 * runqueue is chosen. {@code migrateOneTask} moves the first allowed queued task from the tail,
 * never the running one.
 */
final class BalancePassHooksTest {

  private static LoadBalancer balancer(FakeHost host, BalancePass... passes) {
    return new LoadBalancer(
        host,
        List.of(passes),
        BalancerOptions.defaults().withNiRandom(false),
        BalanceCostModel.defaults(),
        LoadBalancer.newStats(host.domains));
  }

  /** The same, as pieces, for a test that looks at the per-domain state. */
  private static BalancerPieces pieces(FakeHost host, BalancePass... passes) {
    return new BalancerPieces(
        host, BalancerOptions.defaults().withNiRandom(false), List.of(passes));
  }

  /** SMT buddy push in miniature: push one task to an idle sibling, then skip the SMT level. */
  private static final class PushThenSkipSmt implements BalancePass {
    final List<String> calls = new ArrayList<>();

    @Override
    public void beforeDomainWalk(BalancePassState pass, BalanceActions actions) {
      calls.add("walk " + pass.cpu() + " " + pass.idleType());
      int sibling = pass.cpu() ^ 1;
      if (actions.migrateOneTask(pass.cpu(), sibling)) {
        pass.recordPush(sibling);
      }
    }

    @Override
    public boolean balanceDomain(SchedDomain sd, BalancePassState pass) {
      calls.add("domain " + sd.name());
      return !(pass.pushed() && sd.hasFlag(SdFlags.SD_SHARE_CPUCAPACITY));
    }
  }

  @Test
  void hooks_periodicPass_pushBeforeWalkThenSmtDomainSkipped() {
    FakeHost host = FakeHost.of("1n1l2c2t");
    host.addTasks(0, 2);
    PushThenSkipSmt pass = new PushThenSkipSmt();
    BalancerPieces balancer = pieces(host, pass);
    host.setNowMs(1000);
    balancer.balanceDomains(0, IdleType.NOT_IDLE, new BalanceCost());
    assertThat(pass.calls).containsExactly("walk 0 NOT_IDLE", "domain SMT", "domain MC");
    assertThat(host.migrations).hasSize(1);
    assertThat(host.migrations.get(0)).containsExactly(1, 0, 1, 0);
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.NOT_IDLE, LbField.COUNT)).isZero();
    assertThat(balancer.lastBalance(0, 0)).as("skipped domain keeps last_balance").isZero();
    assertThat(stats.lb(0, 1, IdleType.NOT_IDLE, LbField.COUNT)).isEqualTo(1);
    assertThat(stats.migrations(0)).isEqualTo(1);
    assertThat(stats.lbTotal(LbField.GAINED)).as("a plugin move is not an lb gain").isZero();
  }

  @Test
  void hooks_newidlePass_noWalkHookButDomainHook() {
    FakeHost host = FakeHost.of("1n1l2c2t");
    host.addTasks(1, 2);
    host.setNowMs(1000);
    PushThenSkipSmt pass = new PushThenSkipSmt();
    LoadBalancer balancer = balancer(host, pass);
    balancer.addNrRunning(1, 1, 2);
    assertThat(balancer.newidleBalance(0, new BalanceCost())).isEqualTo(1);
    assertThat(pass.calls).containsExactly("domain SMT");
  }

  @Test
  void hooks_narrowSourceCandidatesToNothing_countsNoBusyQueue() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTasks(1, 3);
    BalancePass exclude =
        new BalancePass() {
          @Override
          public void narrowSourceCandidates(
              SchedDomain sd, BalancePassState pass, MutableCpuMask candidates) {
            candidates.clear(1);
          }
        };
    LoadBalancer balancer = balancer(host, exclude);
    host.setNowMs(1000);
    balancer.balanceDomains(0, IdleType.IDLE, new BalanceCost());
    LbStats stats = balancer.stats();
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.NOBUSYQ)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.BALANCED)).isEqualTo(1);
    assertThat(stats.lb(0, 0, IdleType.IDLE, LbField.IMBALANCE_TASK))
        .as("imbalance is counted only once a busiest runqueue is found")
        .isZero();
    assertThat(host.migrations).isEmpty();
  }

  @Test
  void migrateOneTask_tailQueuedAllowedTask_moves() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTask(1);
    FakeHost.FakeTask pinned = host.addTask(1, host.mask(1));
    FakeHost.FakeTask allowed = host.addTask(1);
    host.setNowMs(1000);
    allowed.execStartNs = host.nowNs;
    LoadBalancer balancer = balancer(host);
    assertThat(host.fromTail(1)).startsWith(pinned.id, allowed.id);
    assertThat(balancer.migrateOneTask(1, 3)).isTrue();
    assertThat(allowed.cpu()).as("hot, but active-balance style").isEqualTo(3);
    assertThat(pinned.cpu()).isEqualTo(1);
  }

  @Test
  void migrateOneTask_onlyRunningTask_doesNotMove() {
    FakeHost host = FakeHost.of("1n1l4c1t");
    host.addTask(1);
    LoadBalancer balancer = balancer(host);
    assertThat(balancer.migrateOneTask(1, 3)).isFalse();
    assertThat(balancer.migrateOneTask(1, 1)).isFalse();
    assertThat(host.migrations).isEmpty();
  }
}
