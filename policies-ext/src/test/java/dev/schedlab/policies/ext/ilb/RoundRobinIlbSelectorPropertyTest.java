package dev.schedlab.policies.ext.ilb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.policies.ext.fakes.Machines;
import dev.schedlab.spi.view.ArrayCpuState;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Over sequences of calls on random states of machines from 1 to 8192 CPUs (word boundaries
 * included), the word-at-a-time selector chooses the CPU and reports the examined count of a plain
 * CPU-by-CPU transcription of the RFC's walk, which keeps its own {@code ilb_cpu_last}.
 */
final class RoundRobinIlbSelectorPropertyTest {

  @Property(tries = 300)
  void findNewIlb_callSequences_matchTheCpuByCpuWalk(
      @ForAll @IntRange(min = 1, max = 8192) int nrCpus,
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 100) int idlePercent,
      @ForAll @IntRange(min = 0, max = 100) int nohzPercent) {
    SplittableRandom random = new SplittableRandom(seed);
    RoundRobinIlbSelector selector = new RoundRobinIlbSelector();
    int referenceLast = 0;
    ArrayCpuState state = new ArrayCpuState(Machines.adjacent(nrCpus + "c"));
    for (int call = 0; call < 20; call++) {
      state.allIdle(true);
      MutableCpuMask nohz = CpuMasks.mutable(nrCpus);
      MutableCpuMask housekeeping = CpuMasks.mutable(nrCpus);
      for (int cpu = 0; cpu < nrCpus; cpu++) {
        if (random.nextInt(100) >= idlePercent) {
          state.nrRunning(cpu, 1);
        }
        if (random.nextInt(100) < nohzPercent) {
          nohz.set(cpu);
        }
        if (random.nextInt(10) > 0) {
          housekeeping.set(cpu);
        }
      }
      int kicker = random.nextInt(nrCpus);

      int chosen = selector.findNewIlb(kicker, nohz, housekeeping, state);

      int start = referenceLast + 1 >= nrCpus ? 0 : referenceLast + 1;
      int expected = CpuMask.NO_CPU;
      int examined = 0;
      for (int i = 0; i < nrCpus; i++) {
        int cpu = (start + i) % nrCpus;
        if (!nohz.test(cpu)) {
          continue;
        }
        examined++;
        if (housekeeping.test(cpu) && cpu != kicker && state.isIdle(cpu)) {
          expected = cpu;
          break;
        }
      }
      if (expected != CpuMask.NO_CPU) {
        referenceLast = expected;
      }
      assertThat(chosen).as("call %d", call).isEqualTo(expected);
      assertThat(selector.lastExamined()).as("examined, call %d", call).isEqualTo(examined);
      assertThat(selector.ilbCpuLast()).isEqualTo(referenceLast);
    }
  }
}
