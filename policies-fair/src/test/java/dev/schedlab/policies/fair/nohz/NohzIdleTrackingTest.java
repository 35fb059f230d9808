package dev.schedlab.policies.fair.nohz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.NohzIdleTracking;
import dev.schedlab.spi.TransitionOnlyNohzIdleTracking;
import org.junit.jupiter.api.Test;

/**
 * The two NOHZ registration rules of seeds-digest §4: transition-only registers a CPU only when its
 * idle entry stops a running tick, so a nohz_full CPU whose tick stopped while it was busy never
 * joins {@code nohz.idle_cpus_mask} however often it goes idle; always-when-stopped registers it on
 * its first idle entry, and registering again changes nothing.
 */
final class NohzIdleTrackingTest {

  private static final int CPU = 5;

  @Test
  void transitionOnly_tickStoppedByThisIdleEntry_registers() {
    assertThat(new TransitionOnlyNohzIdleTracking().registerOnIdleEntry(CPU, false)).isTrue();
  }

  @Test
  void transitionOnly_tickAlreadyStoppedWhileBusy_doesNotRegister() {
    assertThat(new TransitionOnlyNohzIdleTracking().registerOnIdleEntry(CPU, true)).isFalse();
  }

  @Test
  void alwaysWhenStopped_eitherWay_registers() {
    AlwaysWhenStoppedNohzIdleTracking rule = new AlwaysWhenStoppedNohzIdleTracking();

    assertThat(rule.registerOnIdleEntry(CPU, false)).isTrue();
    assertThat(rule.registerOnIdleEntry(CPU, true)).isTrue();
  }

  @Test
  void transitionOnly_busyNohzFullCpuGoesIdleRepeatedly_staysInvisibleToTheIlb() {
    MutableCpuMask idleCpusMask = busyNohzFullCpuGoesIdle(new TransitionOnlyNohzIdleTracking(), 3);

    assertThat(idleCpusMask.test(CPU)).isFalse();
  }

  @Test
  void alwaysWhenStopped_busyNohzFullCpuGoesIdleRepeatedly_isRegisteredOnce() {
    MutableCpuMask idleCpusMask =
        busyNohzFullCpuGoesIdle(new AlwaysWhenStoppedNohzIdleTracking(), 3);

    assertThat(idleCpusMask.toCpuList()).isEqualTo(Integer.toString(CPU));
  }

  /**
   * A nohz_full CPU runs one task with its tick stopped, then goes idle {@code entries} times; the
   * tick never restarts in between (nothing else runs there), so every entry finds it stopped.
   * Registration is {@code nohz_balance_enter_idle()}: setting the bit, idempotent.
   */
  private static MutableCpuMask busyNohzFullCpuGoesIdle(NohzIdleTracking rule, int entries) {
    MutableCpuMask idleCpusMask = CpuMasks.mutable(8);
    boolean tickStopped = true; // stopped while busy: nohz_full with one runnable task
    for (int i = 0; i < entries; i++) {
      if (rule.registerOnIdleEntry(CPU, tickStopped)) {
        idleCpusMask.set(CPU);
      }
    }
    return idleCpusMask;
  }
}
