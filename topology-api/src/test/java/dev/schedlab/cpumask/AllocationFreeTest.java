package dev.schedlab.cpumask;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedlab.cpumask.ScratchMaskPool.MisusePolicy;
import java.lang.management.ManagementFactory;
import org.eclipse.collections.api.block.procedure.primitive.IntProcedure;
import org.junit.jupiter.api.Test;

/**
 * Mask operations, cursor walks, distribute picks and scratch-mask borrowing allocate nothing on
 * the heap once set up, measured with the JVM's per-thread allocation counter.
 */
final class AllocationFreeTest {

  private static final int ROUNDS = 20_000;

  private final MutableCpuMask idle = CpuMasks.mutable(352);
  private final MutableCpuMask result = CpuMasks.mutable(352);
  private final CpuMask housekeeping = CpuMasks.range(352, 8, 351);
  private final CpuMask node0 = CpuMasks.parseCpuList("0-87,176-263", 352);
  private final CpuMask siblings = CpuMasks.of(352, 7, 183);
  private final ScratchMaskPool pool = new ScratchMaskPool(352, MisusePolicy.THROW);
  private final DistributeCursor cursor = new DistributeCursor();
  private final CpuCursor walk = new CpuCursor();
  private long sink;
  private final IntProcedure accumulate = cpu -> sink += cpu;

  private void workload(int round) {
    idle.clearAll();
    idle.setRange(round % 300, round % 300 + 40);
    idle.set(351);
    result.and(idle, housekeeping);
    result.orWith(node0);
    result.andNotWith(idle);
    result.removeAll(node0);
    result.removeAll(siblings);
    result.xor(result, node0);
    result.copyFrom(idle);
    sink += result.weight() + result.weightAnd(node0) + result.first() + result.last();
    sink += result.nextWrap(round % 352) + result.firstAnd(node0) + result.nextAndNot(5, node0);
    sink += result.isSubsetOf(housekeeping) ? 1 : 0;
    sink += result.intersects(node0) ? 1 : 0;
    sink += result.equals(idle) ? 1 : 0;
    sink += result.hashCode();
    result.forEachCpu(accumulate);
    result.forEachCpuAnd(node0, accumulate);
    result.forEachCpuWrap(round % 352, accumulate);
    for (int cpu = walk.overAnd(result, node0).next(); cpu != CpuMask.NO_CPU; cpu = walk.next()) {
      sink += cpu;
    }
    for (int cpu = result.first(); cpu != CpuMask.NO_CPU; cpu = result.next(cpu)) {
      result.clear(cpu + 1 < 352 ? cpu + 1 : cpu);
    }
    sink += cursor.anyDistribute(node0) + cursor.anyAndDistribute(idle, node0);
    try (ScratchMask outer = pool.acquire(round % 352, 0)) {
      outer.and(idle, node0);
      outer.removeAll(siblings);
      result.andNot(node0, outer);
      try (ScratchMask inner = pool.acquire(round % 352, 1)) {
        inner.copyFrom(outer);
        sink += inner.weight();
      }
    }
  }

  @Test
  void steadyStateOperations_manyRounds_allocateNothing() {
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    assumeTrue(threads instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean counter = (com.sun.management.ThreadMXBean) threads;
    assumeTrue(counter.isThreadAllocatedMemorySupported());
    assumeTrue(counter.isThreadAllocatedMemoryEnabled());
    for (int round = 0; round < ROUNDS; round++) {
      workload(round);
    }
    long before = counter.getCurrentThreadAllocatedBytes();
    for (int round = 0; round < ROUNDS; round++) {
      workload(round);
    }
    long allocated = counter.getCurrentThreadAllocatedBytes() - before;
    // One 16-byte object per round would show as 320 KB; the slack covers the counter itself.
    assertThat(allocated).isLessThan(8 * 1024);
    assertThat(sink).isNotZero();
  }
}
