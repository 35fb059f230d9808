package dev.schedlab.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.spi.view.CpuStateView;
import java.lang.reflect.Proxy;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link FirstIdleIlbSelector}, done a word at a time over {@code idleMask()}, against the
 * CPU-by-CPU walk it replaces (ascending over NOHZ ∩ housekeeping, skip the kicker, first {@code
 * idle_cpu()}): the same CPU and the same examined count on 20,000 random states of widths 1-300
 * (word boundaries included), with the kicker idle or busy, in the candidates or not.
 */
final class FirstIdleIlbSelectorWalkTest {

  private static CpuStateView state(CpuMask idle) {
    return (CpuStateView)
        Proxy.newProxyInstance(
            CpuStateView.class.getClassLoader(),
            new Class<?>[] {CpuStateView.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "idleMask" -> idle;
                  case "isIdle" -> idle.test((Integer) args[0]);
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private static MutableCpuMask random(int n, int percent, SplittableRandom random) {
    MutableCpuMask mask = CpuMasks.mutable(n);
    for (int cpu = 0; cpu < n; cpu++) {
      if (random.nextInt(100) < percent) {
        mask.set(cpu);
      }
    }
    return mask;
  }

  @Test
  void findNewIlb_randomStates_matchesTheWalkInCpuAndExaminedCount() {
    SplittableRandom random = new SplittableRandom(9);
    FirstIdleIlbSelector selector = new FirstIdleIlbSelector();
    int chosenSome = 0;
    for (int i = 0; i < 20_000; i++) {
      int n = 1 + random.nextInt(300);
      MutableCpuMask idle = random(n, random.nextInt(101), random);
      MutableCpuMask nohz = random(n, random.nextInt(101), random);
      MutableCpuMask housekeeping = random(n, 50 + random.nextInt(51), random);
      int kicker = random.nextInt(n);

      int walked = CpuMask.NO_CPU;
      int examined = 0;
      for (int cpu = nohz.firstAnd(housekeeping);
          cpu != CpuMask.NO_CPU;
          cpu = nohz.nextAnd(cpu, housekeeping)) {
        examined++;
        if (cpu != kicker && idle.test(cpu)) {
          walked = cpu;
          break;
        }
      }

      int chosen = selector.findNewIlb(kicker, nohz, housekeeping, state(idle));

      assertThat(chosen).as("state %d", i).isEqualTo(walked);
      assertThat(selector.lastExamined()).as("state %d", i).isEqualTo(examined);
      chosenSome += chosen == CpuMask.NO_CPU ? 0 : 1;
    }
    assertThat(chosenSome).isBetween(1_000, 19_000);
  }
}
