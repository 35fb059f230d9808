package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import org.junit.jupiter.api.Test;

/**
 * Affinity failures are handed up a level: when a pass could not move tasks because some were
 * pinned ({@code LBF_SOME_PINNED}) the parent domain's local group gets {@code sgc->imbalance}, so
 * a CPU balancing the parent classifies that group {@code group_imbalanced} and pulls one task; a
 * later pass that could move tasks and found balance clears the flag. Machine {@code 1n2l2c1t}: MC
 * {0,1} and {2,3}, PKG {0-3} with groups {0,1} {2,3}.
 */
final class GroupImbalanceTest {

  @Test
  void groupImbalance_tasksPinnedAwayFromLlcSibling_parentPullsThemElsewhere() {
    FakeHost host = FakeHost.of("1n2l2c1t");
    host.addTask(1, host.mask(1));
    FakeHost.FakeTask notOnZero = host.addTask(1, host.mask(1, 2, 3));
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    int slot = host.domain(0, 1).localGroup().capacitySlot();
    assertThat(host.domain(1, 1).localGroup().capacitySlot()).isEqualTo(slot);

    // MC of CPU 0: neither task may run on CPU 0 -> all pinned, parent group flagged.
    assertThat(balancer.schedBalanceRq(0, host.domain(0, 0), IdleType.IDLE, new BalanceCost()))
        .isZero();
    assertThat(balancer.state.sgcImbalance[slot]).isTrue();
    assertThat(balancer.stats().lb(0, 0, IdleType.IDLE, LbField.BALANCED)).isEqualTo(1);

    // PKG of CPU 2: {0,1} runs 2 tasks on 2 CPUs (not overloaded) but is flagged: imbalanced.
    assertThat(balancer.schedBalanceRq(2, host.domain(2, 1), IdleType.IDLE, new BalanceCost()))
        .isEqualTo(1);
    assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.IMBALANCED);
    assertThat(balancer.lastMigrationType()).isEqualTo(MigrationType.TASK);
    assertThat(notOnZero.cpu()).isEqualTo(2);

    // MC of CPU 0 again: balanced without pinning, so the flag is cleared.
    balancer.schedBalanceRq(0, host.domain(0, 0), IdleType.IDLE, new BalanceCost());
    assertThat(balancer.state.sgcImbalance[slot]).isFalse();
  }

  @Test
  void groupImbalance_withoutFlag_sameGroupClassifiedHasSpare() {
    FakeHost host = FakeHost.of("1n2l2c1t");
    host.addTask(1, host.mask(1));
    host.addTask(1, host.mask(1, 2, 3));
    host.setNowMs(1000);
    BalancerPieces balancer = host.balancer();
    // Without the MC pass first, {0,1} (2 tasks, 2 CPUs, util 1024) has spare capacity; the
    // task still moves, by prefer_sibling: sibling_imbalance 2 - 0 = 2, halved = 1.
    assertThat(balancer.schedBalanceRq(2, host.domain(2, 1), IdleType.IDLE, new BalanceCost()))
        .isEqualTo(1);
    assertThat(balancer.lastBusiestGroupType()).isEqualTo(GroupType.HAS_SPARE);
  }
}
