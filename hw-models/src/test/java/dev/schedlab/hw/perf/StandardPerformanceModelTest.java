package dev.schedlab.hw.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.spi.view.WorkClass;
import org.junit.jupiter.api.Test;

/**
 * The composed model: speed = capacity/1024 × SMT co-run × migration warm-up × memory share. With
 * the Olympus rule a sibling idle for less than the qualification interval still slows the busy
 * thread, so short repeated sibling wakeups keep it slow while the generic rule lets it run at full
 * speed between them; migrations cost more the farther they go and the cost decays with run time;
 * memory-bound threads of a node share its bandwidth; the reported next-change instants are where
 * the speed actually changes.
 */
final class StandardPerformanceModelTest {

  private static final double F = 0.6;
  private static final long T0 = 10_000_000;

  /** 4 CPUs: cores {0,2} and {1,3}; CPU 1/3 at capacity 512; node 0 = {0,2}, node 1 = {1,3}. */
  private static CpuLayout layout() {
    return CpuLayout.of(
        new int[] {1024, 512, 1024, 512}, new int[][] {{2}, {3}, {0}, {1}}, new int[] {0, 1, 0, 1});
  }

  private static final double[] PENALTY = {0.02, 0.15, 0.30, 0.45};
  private static final long[] HALF_LIFE = {2_000, 20_000, 100_000, 300_000};

  private static StandardPerformanceModel model(boolean olympus) {
    return new StandardPerformanceModel(
        layout(),
        new SmtCoRun(F, 0.9, 1),
        olympus ? new SiblingQualification(10_240, 1e9) : null,
        new MigrationWarmup(PENALTY, HALF_LIFE),
        new MemoryBandwidthShare(100e9, 20e9));
  }

  @Test
  void speed_siblingIdle10239Vs10240Cycles_slowedThenFullSpeed() {
    StandardPerformanceModel m = model(true);
    FakePerfState s = new FakePerfState(4).at(0).wake(0).at(T0).wake(2).at(T0 + 1_000).sleep(2);
    assertThat(m.speed(0, 7, s.at(T0 + 1_000 + 10_239))).isCloseTo(F, within(1e-12));
    assertThat(m.speed(0, 7, s.at(T0 + 1_000 + 10_240))).isEqualTo(1.0);
  }

  @Test
  void nextSpeedChangeNs_insideWindow_isTheWindowEnd() {
    StandardPerformanceModel m = model(true);
    FakePerfState s = new FakePerfState(4).at(0).wake(0).at(T0).wake(2).sleep(2);
    assertThat(m.nextSpeedChangeNs(0, 7, s.at(T0 + 3))).isEqualTo(T0 + 10_240);
    assertThat(m.nextSpeedChangeNs(0, 7, s.at(T0 + 10_240))).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void speed_repeatedShortSiblingWakeups_keepOlympusSlowedButNotGeneric() {
    // the sibling runs 1 µs (say, an ILB pass) every 5 µs: 20 % real overlap
    long period = 5_000;
    long burst = 1_000;
    StandardPerformanceModel olympus = model(true);
    StandardPerformanceModel generic = model(false);
    FakePerfState s = new FakePerfState(4).at(0).wake(0);
    double olympusWork = 0;
    double genericWork = 0;
    long step = 100;
    long end = 200 * period;
    for (long t = 0; t < end; t += step) {
      s.at(T0 + t);
      long phase = t % period;
      if (phase == 0) {
        s.wake(2);
      } else if (phase == burst) {
        s.sleep(2);
      }
      olympusWork += olympus.speed(0, 7, s) * step;
      genericWork += generic.speed(0, 7, s) * step;
      if (t >= period) {
        assertThat(olympus.speed(0, 7, s)).as("at %d ns", t).isCloseTo(F, within(1e-12));
      }
    }
    assertThat(olympusWork / end).isCloseTo(F, within(0.01));
    // generic: slowed only while the sibling really runs (20 % of the time)
    assertThat(genericWork / end).isCloseTo(0.2 * F + 0.8, within(0.01));
  }

  @Test
  void speed_capacity_scalesLinearly() {
    FakePerfState s = new FakePerfState(4).at(T0).wake(1);
    assertThat(model(false).speed(1, 7, s)).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void speed_afterMigration_costGrowsWithDistance() {
    StandardPerformanceModel m = model(false);
    double previous = 1.0;
    for (int d = 1; d <= 4; d++) {
      FakePerfState s = new FakePerfState(4).at(T0).wake(0).migrated(7, d);
      double speed = m.speed(0, 7, s);
      assertThat(speed)
          .as("distance %d", d)
          .isCloseTo(1 - PENALTY[d - 1], within(1e-12))
          .isLessThan(previous);
      previous = speed;
    }
  }

  @Test
  void speed_afterMigration_decaysWithRunTimeAndVanishes() {
    StandardPerformanceModel m = model(false);
    FakePerfState s = new FakePerfState(4).at(T0).wake(0).migrated(7, 3);
    long h = HALF_LIFE[2];
    assertThat(m.speed(0, 7, s.at(T0 + h - 1))).isCloseTo(1 - 0.30, within(1e-12));
    assertThat(m.speed(0, 7, s.at(T0 + h))).isCloseTo(1 - 0.15, within(1e-12));
    assertThat(m.speed(0, 7, s.at(T0 + 3 * h))).isCloseTo(1 - 0.30 / 8, within(1e-12));
    assertThat(m.speed(0, 7, s.at(T0 + MigrationWarmup.STEPS * h))).isEqualTo(1.0);
  }

  @Test
  void nextSpeedChangeNs_warmingUp_pointsAtTheNextStep() {
    StandardPerformanceModel m = model(false);
    FakePerfState s = new FakePerfState(4).at(T0).wake(0).migrated(7, 4);
    long h = HALF_LIFE[3];
    long next = m.nextSpeedChangeNs(0, 7, s.at(T0 + h / 3));
    assertThat(next).isEqualTo(T0 + h);
    double before = m.speed(0, 7, s.at(next - 1));
    assertThat(m.speed(0, 7, s.at(next))).isGreaterThan(before);
    assertThat(m.nextSpeedChangeNs(0, 7, s.at(T0 + MigrationWarmup.STEPS * h)))
        .isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void speed_memoryBound_sharesNodeBandwidthAndSaturates() {
    StandardPerformanceModel m = model(false);
    FakePerfState s = new FakePerfState(4).at(T0).wake(0).workClass(7, WorkClass.MEMORY);
    double threadDemand = 20e9;
    double nodeBandwidth = 100e9;
    for (int n = 1; n <= 20; n++) {
      double speed = m.speed(0, 7, s.memoryBoundRunning(0, n));
      double delivered = n * speed * threadDemand;
      assertThat(delivered)
          .as("%d threads", n)
          .isCloseTo(Math.min(n * threadDemand, nodeBandwidth), within(1.0));
    }
    assertThat(m.speed(0, 8, s.memoryBoundRunning(0, 20))).as("compute task").isEqualTo(1.0);
  }

  @Test
  void speed_memoryBoundOnOtherNode_isNotSlowedByThisNode() {
    StandardPerformanceModel m = model(false);
    FakePerfState s =
        new FakePerfState(4)
            .at(T0)
            .wake(0)
            .workClass(7, WorkClass.MEMORY)
            .memoryBoundRunning(1, 50)
            .memoryBoundRunning(0, 1);
    assertThat(m.speed(0, 7, s)).isEqualTo(1.0);
  }

  @Test
  void speed_memoryBoundWithBusySibling_usesTheMemoryFactor() {
    StandardPerformanceModel m = model(false);
    FakePerfState s =
        new FakePerfState(4)
            .at(T0)
            .wake(0)
            .wake(2)
            .workClass(7, WorkClass.MEMORY)
            .memoryBoundRunning(0, 1);
    assertThat(m.speed(0, 7, s)).isCloseTo(0.9, within(1e-12));
  }
}
