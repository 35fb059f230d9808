package dev.schedlab.oracle.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.oracle.kernel.KernelSchedstat.IdleType;
import dev.schedlab.oracle.kernel.KernelSchedstat.LbField;
import org.junit.jupiter.api.Test;

/**
 * Version 15 schedstat lines parse in 6.1's idle-type order (CPU_IDLE, busy, newly idle; eight
 * counters each), the cpu line's goidle and wakeup counts come from their places, and SCHED
 * softirqs sum over CPUs.
 */
final class KernelSchedstatTest {

  private static final String V15 =
      String.join(
          "\n",
          "version 15",
          "timestamp 4294893182",
          "cpu0 0 0 100 40 30 20 1299917061 292886742 443",
          "domain0 0003 11 10 1 5 0 0 0 0  22 21 1 7 1 0 0 0  33 30 3 9 2 0 0 0"
              + "  0 0 0 0 0 0 0 0 0 0 0 0",
          "domain1 000f 1 1 0 0 0 0 0 0  2 2 0 0 0 0 0 0  3 3 0 0 0 0 0 0  0 0 0 0 0 0 0 0 0 0 0 0",
          "cpu1 0 0 7 6 5 4 3 2 1");

  @Test
  void parse_v15_readsIdleTypesInSixOneOrder() {
    KernelSchedstat s = KernelSchedstat.parse(V15);
    assertThat(s.cpus()).hasSize(2);
    KernelSchedstat.Cpu cpu0 = s.cpus().get(0);
    assertThat(cpu0.schedGoidle()).isEqualTo(40);
    assertThat(cpu0.ttwuCount()).isEqualTo(30);
    assertThat(cpu0.ttwuLocal()).isEqualTo(20);
    KernelSchedstat.Domain d0 = cpu0.domains().get(0);
    assertThat(d0.mask()).isEqualTo("0-1");
    assertThat(d0.lb(IdleType.IDLE, LbField.COUNT)).isEqualTo(11);
    assertThat(d0.lb(IdleType.BUSY, LbField.COUNT)).isEqualTo(22);
    assertThat(d0.lb(IdleType.BUSY, LbField.IMBALANCE)).isEqualTo(7);
    assertThat(d0.lb(IdleType.NEWLY_IDLE, LbField.FAILED)).isEqualTo(3);
    assertThat(d0.lb(IdleType.NEWLY_IDLE, LbField.GAINED)).isEqualTo(2);
    assertThat(s.cpus().get(1).domains()).isEmpty();
  }

  @Test
  void parse_otherVersion_isRejected() {
    assertThatThrownBy(() -> KernelSchedstat.parse("version 17\ncpu0 0 0 0 0 0 0 0 0 0\n"))
        .hasMessageContaining("version 17");
  }

  @Test
  void schedSoftirqs_sumsTheSchedRow() {
    String softirqs = "       CPU0 CPU1\n     TIMER: 5 6\n     SCHED: 10 32\n";
    assertThat(KernelSchedstat.schedSoftirqs(softirqs)).isEqualTo(42);
    assertThat(GuestDiagnosis.perCpu(softirqs).get("SCHED")).containsExactly(10, 32);
  }
}
