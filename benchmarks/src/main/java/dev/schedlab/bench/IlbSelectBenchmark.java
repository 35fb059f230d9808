package dev.schedlab.bench;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.CpuMasks;
import dev.schedlab.cpumask.MutableCpuMask;
import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.policies.fair.ilb.IdleCoreIlbSelector;
import dev.schedlab.policies.fair.ilb.IlbPruning;
import dev.schedlab.spi.FirstIdleIlbSelector;
import dev.schedlab.spi.view.ArrayCpuState;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.BitSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@code find_new_ilb()} call: the idle-core selector ({@code idleCore}, the v4 rule merged for
 * Linux 7.3; on these constant-offset SMT machines its word-parallel form over the state view's
 * {@code idleMask()}/{@code idleCoreMask()}, which the engine maintains incrementally and so does
 * {@link ArrayCpuState}, whose {@code is_core_idle()} reads per-CPU sibling lists built once as the
 * engine's own view does) against the same rule written plainly with {@link BitSet} ({@code
 * idleCoreBitSet}: the kernel's walk over a reused candidate set, testing {@code idle_cpu()} and
 * {@code is_core_idle()} per visited CPU and pruning siblings, so it too allocates nothing once
 * sized), with the 7.1 first-idle selector ({@code firstIdle}, also word-parallel over {@code
 * idleMask()}) for scale.
 *
 * <p>Machines ({@code threads} per core): SMT2 with split sibling numbering (CPU n and n + cores
 * are siblings, as on Vera and x86): 352 CPUs is Vera ({@code 2n1l88c2t}), 4096 is {@code
 * 4n4l128c2t}, 8192 is {@code 8n4l128c2t}; SMT4 and SMT8 with adjacent numbering (a core's threads
 * are consecutive CPUs, as on POWER): the same node and LLC counts with half or a quarter of the
 * cores per LLC ({@code 2n1l44c4t}, {@code 2n1l22c8t}, ...). The kicker is the lowest busy CPU;
 * every CPU is a housekeeping CPU. Scenarios:
 *
 * <ul>
 *   <li>{@code GEMM_HALF_BUSY}: the Vera GEMM of seeds-digest §1, one CPU-bound thread per core on
 *       thread 0, the core's other threads idle and tickless. No core is fully idle, so idle-core
 *       walks every idle CPU before taking its fallback, the worst case of "may scan more CPUs",
 *       while first-idle stops at the first one.
 *   <li>{@code MOSTLY_IDLE}: 90 % of CPUs idle at random (fixed seed).
 *   <li>{@code MOSTLY_BUSY}: 10 % of CPUs idle at random.
 *   <li>{@code BUSY_95}: 5 % of CPUs idle at random: on SMT8 almost no core is fully idle, so the
 *       walk prunes siblings across the whole machine.
 * </ul>
 *
 * In the random scenarios the NOHZ idle mask holds every idle CPU plus 5 % of the busy ones (CPUs
 * woken since their last tick stay in {@code nohz.idle_cpus_mask} until their first busy tick,
 * kernel-facts §3.3). Set-up checks that all forms of the rule choose the same CPU.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class IlbSelectBenchmark {

  /** Machine states measured. */
  public enum Scenario {
    GEMM_HALF_BUSY,
    MOSTLY_IDLE,
    MOSTLY_BUSY,
    BUSY_95
  }

  private static final long SEED = 20_261_130L;

  /** 352: NVIDIA Vera; 4096 and 8192: {@code NR_CPUS} of big configurations. */
  @Param({"352", "4096", "8192"})
  public int nrCpuIds;

  @Param({"GEMM_HALF_BUSY", "MOSTLY_IDLE", "MOSTLY_BUSY", "BUSY_95"})
  public Scenario scenario;

  /** SMT threads per core: 2 (split numbering), 4 and 8 (adjacent numbering). */
  @Param({"2", "4", "8"})
  public int threads;

  private int kicker;
  private CpuMask nohzIdleMask;
  private CpuMask housekeeping;
  private ArrayCpuState state;
  private IdleCoreIlbSelector idleCore;
  private FirstIdleIlbSelector firstIdle;
  private BitSetIdleCoreRule idleCoreBitSet;

  @Setup
  public void setUp() {
    Topology topology = topology(nrCpuIds, threads);
    boolean[] idle = new boolean[nrCpuIds];
    MutableCpuMask nohz = CpuMasks.mutable(nrCpuIds);
    SplittableRandom random = new SplittableRandom(SEED);
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      idle[cpu] =
          switch (scenario) {
            // thread 0 of every core runs a GEMM thread
            case GEMM_HALF_BUSY -> cpu != topology.smtSiblings(cpu).first();
            case MOSTLY_IDLE -> random.nextInt(100) < 90;
            case MOSTLY_BUSY -> random.nextInt(100) < 10;
            case BUSY_95 -> random.nextInt(100) < 5;
          };
      if (idle[cpu] || (scenario != Scenario.GEMM_HALF_BUSY && random.nextInt(100) < 5)) {
        nohz.set(cpu);
      }
    }
    kicker = 0;
    while (idle[kicker]) {
      kicker++;
    }
    nohzIdleMask = nohz;
    housekeeping = CpuMasks.full(nrCpuIds);
    state = new ArrayCpuState(topology).idleFrom(idle);
    idleCore =
        new IdleCoreIlbSelector(
            topology,
            new ScratchMaskPool(nrCpuIds, ScratchMaskPool.MisusePolicy.THROW),
            IlbPruning.V4);
    firstIdle = new FirstIdleIlbSelector();
    idleCoreBitSet = new BitSetIdleCoreRule(topology, idle, state);

    int ours = idleCore.findNewIlb(kicker, nohzIdleMask, housekeeping, state);
    int baseline = idleCoreBitSet.findNewIlb(toBitSet(nohzIdleMask), toBitSet(housekeeping));
    if (ours != baseline) {
      throw new IllegalStateException(
          "idle-core chose " + ours + " but the BitSet rule chose " + baseline);
    }
    idleCoreBitSet.nohz = toBitSet(nohzIdleMask);
    idleCoreBitSet.housekeeping = toBitSet(housekeeping);
  }

  @Benchmark
  public int idleCore() {
    return idleCore.findNewIlb(kicker, nohzIdleMask, housekeeping, state);
  }

  @Benchmark
  public int idleCoreBitSet() {
    return idleCoreBitSet.findNewIlb(idleCoreBitSet.nohz, idleCoreBitSet.housekeeping);
  }

  @Benchmark
  public int firstIdle() {
    return firstIdle.findNewIlb(kicker, nohzIdleMask, housekeeping, state);
  }

  private static Topology topology(int nrCpuIds, int threads) {
    String nodesAndLlcs =
        switch (nrCpuIds) {
          case 352 -> "2n1l";
          case 4096 -> "4n4l";
          case 8192 -> "8n4l";
          default -> throw new IllegalArgumentException("no machine with " + nrCpuIds + " CPUs");
        };
    int llcs = nrCpuIds == 352 ? 2 : nrCpuIds == 4096 ? 16 : 32;
    if (threads != 2 && threads != 4 && threads != 8) {
      throw new IllegalArgumentException("threads " + threads + " is not 2, 4 or 8");
    }
    String shape = nodesAndLlcs + nrCpuIds / llcs / threads + "c" + threads + "t";
    SiblingNumbering numbering = threads == 2 ? SiblingNumbering.SPLIT : SiblingNumbering.ADJACENT;
    return Shape.parse(shape).toTopology(numbering);
  }

  private static BitSet toBitSet(CpuMask mask) {
    BitSet bits = new BitSet(mask.nrCpuIds());
    for (int cpu = mask.first(); cpu != CpuMask.NO_CPU; cpu = mask.next(cpu)) {
      bits.set(cpu);
    }
    return bits;
  }

  /**
   * The merged idle-core rule written plainly with {@link BitSet}: a reused candidate set, sibling
   * sets precomputed per CPU, the same ascending walk with the same pruning, and the same {@code
   * is_core_idle()} as the selectors get (the {@link ArrayCpuState}), so only the mask work
   * differs.
   */
  static final class BitSetIdleCoreRule {
    private final BitSet[] siblings;
    private final boolean[] idle;
    private final ArrayCpuState state;
    private final boolean smt;
    private final BitSet candidates;
    BitSet nohz;
    BitSet housekeeping;

    BitSetIdleCoreRule(Topology topology, boolean[] idle, ArrayCpuState state) {
      this.idle = idle;
      this.state = state;
      this.smt = topology.isSmt();
      this.siblings = new BitSet[topology.nrCpuIds()];
      for (int cpu = 0; cpu < siblings.length; cpu++) {
        siblings[cpu] = toBitSet(topology.smtSiblings(cpu));
      }
      this.candidates = new BitSet(topology.nrCpuIds());
    }

    int findNewIlb(BitSet nohzIdle, BitSet housekeepingCpus) {
      candidates.clear();
      candidates.or(nohzIdle);
      candidates.and(housekeepingCpus);
      int fallback = -1;
      for (int cpu = candidates.nextSetBit(0); cpu >= 0; cpu = candidates.nextSetBit(cpu + 1)) {
        if (!idle[cpu]) {
          if (smt && fallback >= 0) {
            candidates.andNot(siblings[cpu]);
          }
          continue;
        }
        if (smt && !state.isCoreIdle(cpu)) {
          if (fallback < 0) {
            fallback = cpu;
          }
          candidates.andNot(siblings[cpu]);
          continue;
        }
        return cpu;
      }
      return fallback;
    }
  }
}
