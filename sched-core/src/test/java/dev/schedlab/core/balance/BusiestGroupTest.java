package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import org.junit.jupiter.api.Test;

/**
 * {@code update_sd_pick_busiest()} ranks groups by type, and among overloaded groups by {@code
 * avg_load}, keeping the earlier group (in the circular order starting after the local group) on
 * a tie; the task is then pulled from that group. Machine {@code 1n1l4c1t}, dst CPU 0 idle.
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
}
