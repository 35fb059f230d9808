package dev.schedlab.hw.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The Olympus idle-qualification interval counts whole cycles at the core clock: a sibling idle for
 * 10,239 cycles still slows its core, one idle for 10,240 cycles no longer does, at any clock; a
 * wakeup inside the window restarts it; a CPU that never ran does not count.
 */
final class SiblingQualificationTest {

  private static final long T0 = 1_000_000;

  @Test
  void interferes_at1GHz_10239CyclesSlowed10240CyclesQualified() {
    SiblingQualification q = new SiblingQualification(10_240, 1e9);
    FakePerfState s = new FakePerfState(2).at(T0 - 500).wake(1).at(T0).sleep(1);
    assertThat(q.interferes(1, s.at(T0 + 10_239))).isTrue();
    assertThat(q.interferes(1, s.at(T0 + 10_240))).isFalse();
  }

  @Test
  void interferes_at3GHz_boundaryIsTheFirstWholeNanosecondPast10240Cycles() {
    // 3413 ns = 10,239 cycles; 3414 ns = 10,242 cycles (10,240 cycles = 3413.33 ns)
    SiblingQualification q = new SiblingQualification(10_240, 3e9);
    assertThat(q.intervalNs()).isEqualTo(3414);
    FakePerfState s = new FakePerfState(2).at(T0).wake(1).sleep(1);
    assertThat(q.interferes(1, s.at(T0 + 3413))).isTrue();
    assertThat(q.interferes(1, s.at(T0 + 3414))).isFalse();
  }

  @Test
  void intervalNs_exactQuotient_isNotRoundedUp() {
    assertThat(new SiblingQualification(10_240, 2.5e9).intervalNs()).isEqualTo(4096);
    assertThat(new SiblingQualification(10_240, 3.2e9).intervalNs()).isEqualTo(3200);
  }

  @Test
  void interferes_wakeInsideWindow_restartsIt() {
    SiblingQualification q = new SiblingQualification(10_240, 1e9);
    FakePerfState s = new FakePerfState(2).at(T0).wake(1).sleep(1);
    s.at(T0 + 5_000).wake(1).at(T0 + 5_100).sleep(1);
    assertThat(q.interferes(1, s.at(T0 + 10_240))).as("old window would have closed").isTrue();
    assertThat(q.windowEndNs(1, s)).isEqualTo(T0 + 5_100 + 10_240);
    assertThat(q.interferes(1, s.at(T0 + 5_100 + 10_240))).isFalse();
  }

  @Test
  void interferes_busyOrNeverBusySibling_alwaysRespectivelyNever() {
    SiblingQualification q = new SiblingQualification(10_240, 1e9);
    FakePerfState s = new FakePerfState(3).at(T0).wake(1);
    assertThat(q.interferes(1, s)).isTrue();
    assertThat(q.windowEndNs(1, s)).isEqualTo(Long.MAX_VALUE);
    assertThat(q.interferes(2, s)).isFalse();
    assertThat(q.windowEndNs(2, s)).isEqualTo(Long.MAX_VALUE);
  }
}
