package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.core.balance.BalanceOutcome;
import dev.schedlab.core.balance.LbField;
import dev.schedlab.core.stats.Schedstat;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.view.IdleType;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The listener hooks a Perfetto timeline is built from agree with the run's own counters: one
 * {@code taskWakeup} per {@code ttwu_count} (plus one per fork), one {@code balanceAttempt} per
 * {@code lb_count} of each idle type, pulls that add up to {@code lb_gained}, and a {@code
 * taskDequeued} before every switch away from a task that does not run on.
 */
final class TimelineHooksTest {

  private static final long MS = 1_000_000;

  /** Counts what the hooks report. */
  private static final class Counting implements SimulationListener {
    long wakeups;
    long forks;
    long dequeues;
    long exits;
    long badWakeups;
    final Map<IdleType, Long> attempts = new EnumMap<>(IdleType.class);
    final Map<IdleType, Long> moved = new EnumMap<>(IdleType.class);
    final Map<BalanceOutcome, Long> outcomes = new EnumMap<>(BalanceOutcome.class);

    @Override
    public void taskWakeup(
        long nowNs, int taskId, int wakingCpu, int prevCpu, int targetCpu, boolean fork) {
      if (fork) {
        forks++;
      } else {
        wakeups++;
      }
      if (wakingCpu < 0 || prevCpu < 0 || targetCpu < 0) {
        badWakeups++;
      }
    }

    @Override
    public void taskDequeued(long nowNs, int cpu, int taskId, boolean exited) {
      dequeues++;
      if (exited) {
        exits++;
      }
    }

    @Override
    public void balanceAttempt(
        long nowNs,
        int cpu,
        int dstCpu,
        int level,
        IdleType idle,
        BalanceOutcome outcome,
        int movedTasks,
        int srcCpu) {
      attempts.merge(idle, 1L, Long::sum);
      moved.merge(idle, (long) movedTasks, Long::sum);
      outcomes.merge(outcome, 1L, Long::sum);
      assertThat(outcome == BalanceOutcome.PULLED).isEqualTo(movedTasks > 0);
    }
  }

  @Test
  void hooks_matchTheRunsCounters() {
    Counting counting = new Counting();
    EngineRun sim =
        EngineFixture.on("1n2l2c2t")
            .duration(300 * MS)
            .tasks(
                host -> {
                  for (int i = 0; i < 12; i++) {
                    host.spawn(
                        TaskSpec.normal("sleeper" + i),
                        ScriptedWorkload.runSleep(300_000 + 40_000 * i, 200_000 + 30_000 * i),
                        i % 2);
                  }
                  host.spawn(
                      TaskSpec.normal("once"), ScriptedWorkload.runOnceThenBlock(1_000_000), 0);
                })
            .build()
            .listener(counting);
    SimulationResult result = sim.run();

    long ttwu = 0;
    for (Schedstat.CpuEntry cpu : result.schedstat().cpus()) {
      ttwu += cpu.counters().ttwuCount();
    }
    assertThat(counting.wakeups).isPositive().isEqualTo(ttwu);
    assertThat(counting.forks).isEqualTo(13);
    assertThat(counting.badWakeups).isZero();
    // Every wakeup follows a sleep; "once" blocks for good after its one run.
    assertThat(counting.dequeues).isBetween(counting.wakeups, counting.wakeups + 13);
    assertThat(counting.exits).isZero();
    for (IdleType idle : IdleType.values()) {
      assertThat(counting.attempts.getOrDefault(idle, 0L))
          .as("attempts %s", idle)
          .isEqualTo(result.lbStats().lbTotal(idle, LbField.COUNT));
      // Active balancing's pushes count as lb_gained of CPU_IDLE too, outside any attempt.
      long gained = result.lbStats().lbTotal(idle, LbField.GAINED);
      long moved = counting.moved.getOrDefault(idle, 0L);
      if (idle == IdleType.IDLE) {
        assertThat(moved).as("moved %s", idle).isLessThanOrEqualTo(gained);
      } else {
        assertThat(moved).as("moved %s", idle).isEqualTo(gained);
      }
    }
    assertThat(counting.attempts.getOrDefault(IdleType.NEWLY_IDLE, 0L)).isPositive();
    assertThat(counting.outcomes.getOrDefault(BalanceOutcome.FAILED, 0L))
        .isLessThanOrEqualTo(result.lbStats().lbTotal(LbField.FAILED));
  }
}
