package dev.schedlab.core.balance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.spi.view.IdleType;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code sched_balance_rq()} entry counts {@code lb_count} and ends in exactly one of
 * balanced, failed, or success (which counts neither), so per CPU × level × idle type {@code
 * lb_count = lb_balanced + lb_failed + successful passes}, a successful pass gains at least one
 * task, and the tasks gained equal the migrations the host saw. Checked over 800 ms of periodic
 * balancing that spreads 12 tasks from CPU 0 over {@code 1n2l2c2t} (8 CPUs).
 */
final class LbCountersTest {

  @Test
  void counters_spreadingRun_countEqualsBalancedPlusFailedPlusSuccesses() {
    FakeHost host = FakeHost.of("1n2l2c2t");
    host.addTasks(0, 12);
    LoadBalancer balancer = host.loadBalancer();
    for (int step = 1; step <= 200; step++) {
      host.setNowMs(4L * step);
      for (int cpu = 0; cpu < 8; cpu++) {
        if (host.jiffies() >= balancer.nextBalance(cpu)) {
          balancer.balanceDomains(
              cpu, host.idle(cpu) ? IdleType.IDLE : IdleType.NOT_IDLE, new BalanceCost());
        }
      }
    }
    LbStats stats = balancer.stats();
    long successes = 0;
    for (int cpu = 0; cpu < 8; cpu++) {
      for (int level = 0; level < 3; level++) {
        for (IdleType idle : IdleType.values()) {
          long count = stats.lb(cpu, level, idle, LbField.COUNT);
          long balanced = stats.lb(cpu, level, idle, LbField.BALANCED);
          long failed = stats.lb(cpu, level, idle, LbField.FAILED);
          long gained = stats.lb(cpu, level, idle, LbField.GAINED);
          long ok = count - balanced - failed;
          assertThat(ok).as("cpu %d level %d %s", cpu, level, idle).isBetween(0L, gained);
          assertThat(ok > 0).as("cpu %d level %d %s", cpu, level, idle).isEqualTo(gained > 0);
          successes += ok;
        }
      }
    }
    assertThat(successes).isPositive();
    assertThat(stats.lbTotal(LbField.GAINED)).isEqualTo(host.migrations.size());
    assertThat(LongStream.range(0, 3).map(level -> stats.migrations((int) level)).sum())
        .isEqualTo(host.migrations.size());
    for (int cpu = 0; cpu < 8; cpu++) {
      assertThat(host.cfsTaskCount(cpu)).as("CPU %d got work", cpu).isPositive();
    }
  }
}
