package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The cost model is linear in the counted work with the stated defaults (1000 ns base, 40 per CPU
 * scanned, 300 per domain, 100 per task examined, 1500 per task moved) and rejects negative costs;
 * the balancer options default to the kernel's values and reject out-of-range tunables.
 */
final class BalanceCostModelTest {

  @Test
  void toNs_countedWork_linearWithBase() {
    BalanceCost cost = new BalanceCost();
    cost.cpusScanned = 16;
    cost.domainsBalanced = 2;
    cost.tasksExamined = 3;
    cost.tasksMoved = 1;
    BalanceCostModel model = BalanceCostModel.defaults();
    assertThat(model.variableNs(cost)).isEqualTo(16 * 40 + 2 * 300 + 3 * 100 + 1500);
    assertThat(model.toNs(cost)).isEqualTo(1000 + 16 * 40 + 2 * 300 + 3 * 100 + 1500);
    assertThat(model.lockHoldNs(3, 1)).isEqualTo(3 * 100 + 1500);
  }

  @Test
  void toNs_overriddenModel_usesGivenNumbers() {
    BalanceCost cost = new BalanceCost();
    cost.cpusScanned = 1;
    assertThat(new BalanceCostModel(0, 7, 0, 0, 0).toNs(cost)).isEqualTo(7);
  }

  @Test
  void constructor_negativeCost_rejectedWithRange() {
    assertThatThrownBy(() -> new BalanceCostModel(0, -1, 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("perCpuScannedNs -1");
  }

  @Test
  void options_defaults_kernelValues() {
    assertThat(BalancerOptions.defaults())
        .isEqualTo(new BalancerOptions(true, true, 500_000, 32, true, true));
    assertThatThrownBy(() -> BalancerOptions.defaults().withMigrationCostNs(-2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1..");
    assertThatThrownBy(() -> new BalancerOptions(true, true, 0, -1, true, true))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
