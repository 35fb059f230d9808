package dev.schedlab.policies.fair.ilb;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ScratchMask;
import dev.schedlab.cpumask.ScratchMaskPool;
import dev.schedlab.spi.IlbSelector;
import dev.schedlab.spi.view.CpuStateView;
import dev.schedlab.topology.Topology;
import java.util.Objects;

/**
 * {@code find_new_ilb()} as changed by "sched/fair: Prefer fully idle cores for NOHZ balancing"
 * (fair.c@293f9611ae73, merged for Linux 7.3; kernel-facts §3.5, seeds-digest §1): prefer an idle
 * CPU whose whole SMT core is idle, so the ILB does not run next to a busy sibling.
 *
 * <p>The rule, for the candidates {@code nohz.idle_cpus_mask ∩
 * housekeeping_cpumask(HK_TYPE_KERNEL_NOISE)} walked in ascending order while the walk may shrink
 * them:
 *
 * <ul>
 *   <li>a CPU that is not {@code idle_cpu()}: with SMT active and a fallback already found, remove
 *       its SMT siblings from the candidates ({@link IlbPruning#V3} onwards); go on;
 *   <li>an idle CPU whose core is not fully idle ({@code !is_core_idle()}), with SMT active:
 *       remember it as the fallback if there is none yet, remove its siblings, go on;
 *   <li>any other idle CPU (a fully idle core, or SMT off): choose it;
 *   <li>end of the walk: the fallback, possibly none.
 * </ul>
 *
 * <p>A pruned CPU shares a core that is not fully idle with a CPU already examined, and a fallback
 * already exists when it is pruned, so pruning never changes the choice. With a busy kicker (the
 * kick comes from a busy CPU's tick) the choice is "the lowest candidate CPU that is idle on a
 * fully idle core, else the lowest idle candidate CPU" for every {@link IlbPruning} revision;
 * pruning only shortens the walk, which {@link #lastExamined()} reports.
 *
 * <p><b>Word-parallel form</b> (used when the machine's SMT threads sit at constant offsets, see
 * {@link SmtThreadLayout}, or SMT is off). Write {@code C} for the candidates, {@code C'} for
 * {@code C} without the kicker when the revision skips it ({@code C} otherwise), {@code I} for
 * {@link CpuStateView#idleMask()} and {@code FI} for {@link CpuStateView#idleCoreMask()}. Then:
 *
 * <ul>
 *   <li>the walk chooses {@code r = first(C' ∩ FI)}: a CPU of a fully idle core is never pruned
 *       (its siblings are all in {@code FI} too, and those never prune), and every candidate below
 *       it is rejected;
 *   <li>else it returns {@code f = first(C' ∩ I \ FI)}: nothing is pruned before the first fallback
 *       exists (a busy CPU prunes only once it does), so {@code f} is visited;
 *   <li>a visited candidate {@code s} prunes its higher siblings exactly when {@code s ∈ C' \ FI}
 *       and either {@code s ∈ I} or (the revision prunes busy CPUs' siblings and {@code s > f});
 *       call that set {@code P}. A candidate {@code c} is not visited exactly when some sibling
 *       {@code s < c} is in {@code P} (the lowest such sibling is itself visited: only members of
 *       {@code P} prune). The walk covers {@code C ∩ [0, r]}, or all of {@code C} without {@code
 *       r}, so {@link #lastExamined()} is the weight of {@code C ∩ [0, r]} less the candidates
 *       there with a sibling below them in {@code P}.
 * </ul>
 *
 * With thread {@code j} of every core at {@code base + d_j}, "some lower sibling in {@code P}" is,
 * on thread {@code j}, the set {@code R_{j-1}} shifted up by {@code d_j - d_{j-1}} bits, where
 * {@code R_0 = P ∩ T_0} and {@code R_j = (P ∩ T_j) ∪ (R_{j-1} shifted)} ({@code T_j}: every core's
 * thread {@code j}): a CPU's lower siblings are the thread below it and that thread's lower
 * siblings. That is one shift per thread and 64-CPU word (7 on SMT8, where a shift per pair of
 * threads would be 28). One pass finds {@code r} and {@code f} and counts the candidates of the
 * words it leaves behind (nothing is pruned before {@code f}), both only up to {@code r}'s word;
 * when {@code f} is missing or above {@code r} nothing is pruned in range and that count is the
 * answer; when {@code f} and {@code r} share a word of an in-word layout (SMT4/SMT8 adjacent
 * numbering) that word's prefix OR finishes it; otherwise a second pass counts from {@code f}'s
 * word. The choice and the examined count are the walk's exactly (the property tests compare both
 * with the walk for every revision). This form changes no mask, so it borrows no scratch mask; its
 * only state is a per-instance array of {@code R}'s words, each written (from {@code f}'s word up
 * to {@code r}'s) before it is read in the same call. It is not in the kernel, which tests CPUs one
 * at a time: it is the simulator computing the same answer from the state view's incrementally
 * maintained idle masks.
 *
 * <p><b>Walk</b> (any other topology: hybrid core widths, holes in the possible CPUs, irregular
 * imported sibling sets). As in the kernel, the candidates are written into a per-CPU scratch mask,
 * here slot {@value #SCRATCH_SLOT} of the kicking CPU borrowed from the simulation's {@link
 * ScratchMaskPool} for the length of the call (the kernel uses {@code select_rq_mask} with
 * interrupts off; the scratch-mask draft of seeds-digest §2 makes it slot 0 of a per-CPU pool).
 * Each prune is the kernel's {@code cpumask_andnot(cpus, cpus, cpu_smt_mask(cpu))}, done as one
 * {@code cpumask_clear_cpu()} per sibling from lists built at creation: the walk never needs the
 * "still non-empty" answer, and on a wide machine each core's {@code cpu_smt_mask()} is a separate
 * 1 KiB bitmap, so reading it at every step costs either a full-width pass (quadratic when no core
 * is fully idle) or a cache miss per prune, where the lists are a few sequential ints. If the pool
 * yields no mask (misuse under {@link ScratchMaskPool.MisusePolicy#WARN_ONCE}), the walk runs over
 * the two input masks without pruning: the same choice at a higher examined count.
 *
 * <p>Nothing is allocated per call in either form.
 *
 * <p>One instance per simulation; not thread-safe.
 */
public final class IdleCoreIlbSelector implements IlbSelector {

  /** The scratch slot borrowed on the kicking CPU; nothing else holds a slot during the kick. */
  public static final int SCRATCH_SLOT = 0;

  private final Topology topology;
  private final ScratchMaskPool scratchMasks;
  private final IlbPruning pruning;

  /** CPU {@code c}'s SMT siblings (itself included) are {@code siblingCpus[siblingStart[c]..]}. */
  private final int[] siblingStart;

  private final int[] siblingCpus;

  /** Null when the walk must be used (see the class comment). */
  private final SmtThreadLayout layout;

  /** The word-parallel form's {@code R}, by word; valid from the fallback's word on, per call. */
  private final long[] reach;

  private final boolean wordParallelAllowed;

  /** The machine's {@code nr_cpu_ids}, read once (the call reads fields, not the topology). */
  private final int nrCpuIds;

  /** {@link IlbPruning#skipsKicker()} of the revision. */
  private final boolean skipsKicker;

  /** {@link IlbPruning#prunesBusyCpuSiblings()} of the revision. */
  private final boolean prunesBusy;

  /** {@link SmtThreadLayout#inWordKeep} of the layout, or null. */
  private final long[] inWordKeep;

  private int lastExamined;

  /**
   * A selector for one simulation.
   *
   * @param topology the machine, for {@code cpu_smt_mask()}
   * @param scratchMasks the simulation's per-CPU scratch masks
   * @param pruning which revision's pruning to apply
   */
  public IdleCoreIlbSelector(Topology topology, ScratchMaskPool scratchMasks, IlbPruning pruning) {
    this(topology, scratchMasks, pruning, true);
  }

  /**
   * A selector that may be kept on the walk even where the word-parallel form applies, so tests can
   * compare the two on the same states.
   */
  IdleCoreIlbSelector(
      Topology topology, ScratchMaskPool scratchMasks, IlbPruning pruning, boolean wordParallel) {
    this.topology = Objects.requireNonNull(topology, "topology");
    this.scratchMasks = Objects.requireNonNull(scratchMasks, "scratchMasks");
    this.pruning = Objects.requireNonNull(pruning, "pruning");
    int nrCpuIds = topology.nrCpuIds();
    this.siblingStart = new int[nrCpuIds + 1];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      int siblings = topology.isPossible(cpu) ? topology.smtSiblings(cpu).weight() : 0;
      siblingStart[cpu + 1] = siblingStart[cpu] + siblings;
    }
    this.siblingCpus = new int[siblingStart[nrCpuIds]];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      if (topology.isPossible(cpu)) {
        CpuMask core = topology.smtSiblings(cpu);
        int next = siblingStart[cpu];
        for (int sibling = core.first(); sibling != CpuMask.NO_CPU; sibling = core.next(sibling)) {
          siblingCpus[next++] = sibling;
        }
      }
    }
    this.layout = wordParallel ? SmtThreadLayout.of(topology) : null;
    this.reach = new long[(nrCpuIds + 63) >>> 6];
    this.wordParallelAllowed = wordParallel;
    this.nrCpuIds = nrCpuIds;
    this.skipsKicker = pruning.skipsKicker();
    this.prunesBusy = pruning.prunesBusyCpuSiblings();
    this.inWordKeep = layout == null ? null : layout.inWordKeep;
  }

  /** Whether calls with SMT active take the word-parallel form (else the walk). */
  public boolean isWordParallel() {
    return layout != null;
  }

  /** The pruning revision this selector applies. */
  public IlbPruning pruning() {
    return pruning;
  }

  @Override
  public int findNewIlb(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    if (layout != null || (!state.smtActive() && wordParallelAllowed)) {
      return selectByWords(thisCpu, nohzIdleMask, housekeeping, state);
    }
    return selectByWalk(thisCpu, nohzIdleMask, housekeeping, state);
  }

  /** The walk over a borrowed scratch mask (class comment). */
  private int selectByWalk(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    try (ScratchMask candidates = scratchMasks.acquire(thisCpu, SCRATCH_SLOT)) {
      if (candidates == null) {
        return walkWithoutScratch(thisCpu, nohzIdleMask, housekeeping, state);
      }
      candidates.and(nohzIdleMask, housekeeping);
      return walk(thisCpu, candidates, state);
    }
  }

  /** The word-parallel form of the walk (class comment); same choice, same examined count. */
  private int selectByWords(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    int words = reach.length;
    if (nohzIdleMask.nrCpuIds() != nrCpuIds || housekeeping.nrCpuIds() != nrCpuIds) {
      throw new IllegalArgumentException(
          "mask widths "
              + nohzIdleMask.nrCpuIds()
              + " and "
              + housekeeping.nrCpuIds()
              + " differ from nr_cpu_ids "
              + nrCpuIds);
    }
    boolean smtActive = state.smtActive();
    CpuMask idle = state.idleMask();
    CpuMask idleCore = smtActive ? state.idleCoreMask() : idle;
    int kickerWord = skipsKicker && thisCpu >= 0 ? thisCpu >>> 6 : -1;
    long notKicker = ~(1L << thisCpu);
    int chosen = CpuMask.NO_CPU;
    int fallback = CpuMask.NO_CPU;
    int lastWord = words - 1;
    // The walk visits every candidate before the fallback (nothing is pruned until one exists):
    // "before" counts the candidates of the words the loop has left behind, "raw" is the
    // candidate word the loop stopped at (kicker included: the walk counts it as examined).
    int before = 0;
    long raw = 0;
    long stopCandidates = 0;
    long stopWhole = 0;
    for (int w = 0; w < words; w++) {
      raw = nohzIdleMask.word(w) & housekeeping.word(w);
      if (raw == 0) {
        continue;
      }
      long candidates = w == kickerWord ? raw & notKicker : raw;
      long whole = candidates & idleCore.word(w);
      if (smtActive && fallback == CpuMask.NO_CPU) {
        long partial = candidates & idle.word(w) & ~whole;
        if (partial != 0) {
          fallback = (w << 6) | Long.numberOfTrailingZeros(partial);
        }
      }
      if (whole != 0) {
        chosen = (w << 6) | Long.numberOfTrailingZeros(whole);
        lastWord = w;
        stopCandidates = candidates;
        stopWhole = whole;
        break;
      }
      before += Long.bitCount(raw);
    }
    long lastRange = chosen == CpuMask.NO_CPU ? -1L : -1L >>> (63 - (chosen & 63));
    if (fallback == CpuMask.NO_CPU || (chosen != CpuMask.NO_CPU && fallback > chosen)) {
      // P holds nothing below the end of the walk: every candidate in range is visited.
      lastExamined = chosen == CpuMask.NO_CPU ? before : before + Long.bitCount(raw & lastRange);
    } else if (chosen != CpuMask.NO_CPU && fallback >>> 6 == lastWord && inWordKeep != null) {
      // The fallback, the choice and so all of P in range share one word; the candidates there
      // outside fully idle cores are stopCandidates & ~idleCore, i.e. stopCandidates ^ stopWhole.
      lastExamined =
          before
              + visitedInWord(
                  raw,
                  stopCandidates ^ stopWhole,
                  prunesBusy ? -1L << fallback : idle.word(lastWord),
                  inWordKeep,
                  lastRange);
    } else {
      lastExamined =
          countVisited(
              nohzIdleMask,
              housekeeping,
              idle,
              idleCore,
              kickerWord,
              notKicker,
              fallback,
              lastWord,
              lastRange);
    }
    return chosen != CpuMask.NO_CPU ? chosen : fallback;
  }

  /**
   * The walk's examined count when a fallback {@code f} lies below its end: candidates in words up
   * to {@code lastWord} ({@code lastRange} limiting the last), less those with an SMT sibling below
   * them in {@code P} (class comment). {@code P} is empty below {@code f}.
   */
  private int countVisited(
      CpuMask nohzIdleMask,
      CpuMask housekeeping,
      CpuMask idle,
      CpuMask idleCore,
      int kickerWord,
      long notKicker,
      int fallback,
      int lastWord,
      long lastRange) {
    int fallbackWord = fallback >>> 6;
    long fromFallback = -1L << fallback;
    int examined = 0;
    for (int w = 0; w < fallbackWord; w++) {
      examined += Long.bitCount(nohzIdleMask.word(w) & housekeeping.word(w));
    }
    if (layout.inWordKeep != null) {
      return examined
          + countVisitedInWords(
              nohzIdleMask,
              housekeeping,
              idle,
              idleCore,
              kickerWord,
              notKicker,
              fallbackWord,
              fromFallback,
              lastWord,
              lastRange);
    }
    // reach[w]: the CPUs of word w that are in P or have a lower SMT sibling in P, built thread
    // by thread, so each thread's share is one move of the thread below it (SMT8: 7 moves a
    // word, not one per pair of threads).
    long[] reach = this.reach;
    int threads = layout.threads;
    int[] stepShiftWords = layout.stepShiftWords;
    int[] stepShiftBits = layout.stepShiftBits;
    long[][] threadWords = layout.threadWords;
    for (int w = fallbackWord; w <= lastWord; w++) {
      long candidates = nohzIdleMask.word(w) & housekeeping.word(w);
      long prunes = (w == kickerWord ? candidates & notKicker : candidates) & ~idleCore.word(w);
      if (prunesBusy) {
        prunes &= w == fallbackWord ? fromFallback : -1L;
      } else {
        prunes &= idle.word(w);
      }
      long pruned = 0;
      long here = prunes & threadWords[0][w];
      for (int j = 1; j < threads; j++) {
        long[] lower = threadWords[j - 1];
        int v = w - stepShiftWords[j];
        int bits = stepShiftBits[j];
        long moved = 0;
        if (v >= fallbackWord) {
          long source = v == w ? here : reach[v];
          moved = (source & lower[v]) << bits;
          if (bits != 0 && v > fallbackWord) {
            moved |= (reach[v - 1] & lower[v - 1]) >>> (64 - bits);
          }
        }
        pruned |= moved;
        here |= moved | (prunes & threadWords[j][w]);
      }
      reach[w] = here;
      long range = w == lastWord ? lastRange : -1L;
      examined += Long.bitCount(candidates & ~pruned & range);
    }
    return examined;
  }

  /**
   * {@link #countVisited} from the fallback's word on, for a layout whose cores are runs of
   * consecutive CPUs aligned within words ({@link SmtThreadLayout#inWordKeep}): "a lower sibling in
   * {@code P}" is then a prefix OR inside each run of bits, log2(threads) masked shifts of the word
   * itself, with nothing carried between words.
   */
  private int countVisitedInWords(
      CpuMask nohzIdleMask,
      CpuMask housekeeping,
      CpuMask idle,
      CpuMask idleCore,
      int kickerWord,
      long notKicker,
      int fallbackWord,
      long fromFallback,
      int lastWord,
      long lastRange) {
    long[] keep = layout.inWordKeep;
    int examined = 0;
    for (int w = fallbackWord; w <= lastWord; w++) {
      long candidates = nohzIdleMask.word(w) & housekeeping.word(w);
      long notIdleCore =
          (w == kickerWord ? candidates & notKicker : candidates) & ~idleCore.word(w);
      long pruners = prunesBusy ? (w == fallbackWord ? fromFallback : -1L) : idle.word(w);
      examined +=
          visitedInWord(candidates, notIdleCore, pruners, keep, w == lastWord ? lastRange : -1L);
    }
    return examined;
  }

  /**
   * Visited candidates of one word of an in-word layout: {@code candidates} less those with a lower
   * SMT sibling in {@code P = notIdleCore & pruners} ({@code notIdleCore}: the candidates the walk
   * may test, outside fully idle cores; {@code pruners}: which of them prune in this word), within
   * {@code range}. A prefix OR inside each core's run of bits.
   */
  private static int visitedInWord(
      long candidates, long notIdleCore, long pruners, long[] keep, long range) {
    long atOrBelow = notIdleCore & pruners;
    for (int k = 0, shift = 1; k < keep.length; k++, shift <<= 1) {
      atOrBelow |= (atOrBelow << shift) & keep[k];
    }
    long pruned = (atOrBelow << 1) & keep[0];
    return Long.bitCount(candidates & ~pruned & range);
  }

  private int walk(int thisCpu, ScratchMask candidates, CpuStateView state) {
    boolean smtActive = state.smtActive();
    int fallback = CpuMask.NO_CPU;
    int examined = 0;
    // A cursor loop rereads the live mask, so CPUs pruned ahead of the cursor are never visited.
    for (int cpu = candidates.first(); cpu != CpuMask.NO_CPU; cpu = candidates.next(cpu)) {
      examined++;
      if (skipsKicker && cpu == thisCpu) {
        continue;
      }
      if (!state.isIdle(cpu)) {
        if (smtActive && fallback != CpuMask.NO_CPU && prunesBusy) {
          removeSmtSiblings(candidates, cpu);
        }
        continue;
      }
      if (smtActive && !state.isCoreIdle(cpu)) {
        if (fallback == CpuMask.NO_CPU) {
          fallback = cpu;
        }
        removeSmtSiblings(candidates, cpu);
        continue;
      }
      lastExamined = examined;
      return cpu;
    }
    lastExamined = examined;
    return fallback;
  }

  /** Equivalent of {@code cpumask_andnot(candidates, candidates, cpu_smt_mask(cpu))}. */
  private void removeSmtSiblings(ScratchMask candidates, int cpu) {
    int from = siblingStart[cpu];
    int to = siblingStart[cpu + 1];
    if (from == to) {
      // Not a possible CPU, so it has no core: the topology rejects it as it always did.
      candidates.removeAll(topology.smtSiblings(cpu));
      return;
    }
    for (int i = from; i < to; i++) {
      candidates.clear(siblingCpus[i]);
    }
  }

  private int walkWithoutScratch(
      int thisCpu, CpuMask nohzIdleMask, CpuMask housekeeping, CpuStateView state) {
    boolean smtActive = state.smtActive();
    int fallback = CpuMask.NO_CPU;
    int examined = 0;
    for (int cpu = nohzIdleMask.firstAnd(housekeeping);
        cpu != CpuMask.NO_CPU;
        cpu = nohzIdleMask.nextAnd(cpu, housekeeping)) {
      examined++;
      if ((skipsKicker && cpu == thisCpu) || !state.isIdle(cpu)) {
        continue;
      }
      if (smtActive && !state.isCoreIdle(cpu)) {
        if (fallback == CpuMask.NO_CPU) {
          fallback = cpu;
        }
        continue;
      }
      lastExamined = examined;
      return cpu;
    }
    lastExamined = examined;
    return fallback;
  }

  /**
   * CPUs the last call's walk visited (pruned CPUs are not counted): the selection cost the patch
   * warns may grow ("may scan more CPUs").
   */
  /**
   * True: the walk and the word-parallel form read only their arguments; {@code reach} and the
   * scratch mask are overwritten before they are read.
   */
  @Override
  public boolean dependsOnIdleStateOnly() {
    return true;
  }

  @Override
  public int lastExamined() {
    return lastExamined;
  }
}
