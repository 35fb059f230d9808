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
 * when {@code f} is missing (the pass tests for {@code f} only below the first CPU of {@code FI} in
 * each word, so it is never above {@code r}) nothing is pruned in range and that count is the
 * answer; when {@code f} and {@code r} share a word of an in-word layout (SMT4/SMT8 adjacent
 * numbering) one subtraction on that word finishes it (see {@code visitedInWord}); otherwise a
 * second pass counts from {@code f}'s word. The choice and the examined count are the walk's
 * exactly (the property tests compare both with the walk for every revision). This form changes no
 * mask, so it borrows no scratch mask; its only state is a per-instance array of {@code R}'s words,
 * each written (from {@code f}'s word up to {@code r}'s) before it is read in the same call. It is
 * not in the kernel, which tests CPUs one at a time: it is the simulator computing the same answer
 * from the state view's incrementally maintained idle masks.
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

  /** {@link SmtThreadLayout#inWord} of the layout (false without one). */
  private final boolean inWord;

  /** {@link SmtThreadLayout#inWordFirst} and {@link SmtThreadLayout#inWordLast}, or 0. */
  private final long inWordFirst;

  private final long inWordLast;

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
    this.inWord = layout != null && layout.inWord;
    this.inWordFirst = layout == null ? 0 : layout.inWordFirst;
    this.inWordLast = layout == null ? 0 : layout.inWordLast;
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
    boolean smtActive = state.smtActive();
    if (layout != null || (!smtActive && wordParallelAllowed)) {
      return selectByWords(thisCpu, nohzIdleMask, housekeeping, state, smtActive);
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

  /**
   * The word-parallel form of the walk (class comment); same choice, same examined count.
   *
   * <p>Its bytecode (285 bytes) is kept under HotSpot's {@code -XX:FreqInlineSize} (325 on x86-64),
   * so C2 inlines it into {@link #findNewIlb}, and {@link #examinedThrough} and {@link
   * #visitedInWord} into it: a choice in the first words, with or without a fallback in the same
   * word, is then one straight loop in the caller. The width check and the count from a fallback in
   * an earlier word are methods of their own. At 518 bytes it was a real call, 3 ns of the 352-CPU
   * SMT2 mostly-idle call of {@code IlbSelectBenchmark} (benchmarks/README.md); check with {@code
   * -XX:+PrintInlining} after changing it.
   */
  private int selectByWords(
      int thisCpu,
      CpuMask nohzIdleMask,
      CpuMask housekeeping,
      CpuStateView state,
      boolean smtActive) {
    requireMachineWidth(nohzIdleMask, housekeeping);
    CpuMask idle = state.idleMask();
    CpuMask idleCore = smtActive ? state.idleCoreMask() : idle;
    // No kicker (NO_CPU) gives a word index past the last word, which no loop pass matches.
    int kickerWord = skipsKicker ? thisCpu >>> 6 : -1;
    int fallback = CpuMask.NO_CPU;
    // The walk visits every candidate before the fallback (nothing is pruned until one exists):
    // "before" counts the candidates of the words the loop has left behind, kicker included (the
    // walk counts it as examined).
    int before = 0;
    for (int w = 0, words = reach.length; w < words; w++) {
      long raw = nohzIdleMask.word(w) & housekeeping.word(w);
      if (raw == 0) {
        continue;
      }
      long candidates = w == kickerWord ? raw & ~(1L << thisCpu) : raw;
      long whole = candidates & idleCore.word(w);
      if (fallback == CpuMask.NO_CPU) {
        // Only the candidates below this word's first fully idle CPU can be the fallback: one
        // above the choice changes neither the choice nor the count. With SMT off, idleCore is
        // idle, so no candidate is partial.
        long partial = candidates & ((whole & -whole) - 1) & idle.word(w);
        if (partial != 0) {
          fallback = (w << 6) | Long.numberOfTrailingZeros(partial);
        }
      }
      if (whole != 0) {
        int chosen = (w << 6) | Long.numberOfTrailingZeros(whole);
        lastExamined =
            examinedThrough(
                nohzIdleMask,
                housekeeping,
                state,
                thisCpu,
                chosen,
                fallback,
                before,
                raw,
                candidates ^ whole);
        return chosen;
      }
      before += Long.bitCount(raw);
    }
    lastExamined =
        fallback == CpuMask.NO_CPU
            ? before
            : examinedPastFallback(
                nohzIdleMask, housekeeping, state, thisCpu, CpuMask.NO_CPU, fallback);
    return fallback;
  }

  /**
   * {@link #selectByWords}' examined count when the walk chose {@code chosen} in the word whose
   * candidates are {@code raw} ({@code notIdleCore}: those the walk may test there outside fully
   * idle cores), after {@code before} candidates in lower words; the fallback is below it or
   * missing. Its own method so that both stay small enough for C2 to inline.
   */
  private int examinedThrough(
      CpuMask nohzIdleMask,
      CpuMask housekeeping,
      CpuStateView state,
      int thisCpu,
      int chosen,
      int fallback,
      int before,
      long raw,
      long notIdleCore) {
    // A long shift counts modulo 64, so this keeps bits 0..chosen & 63.
    long range = -1L >>> (63 - chosen);
    if (fallback == CpuMask.NO_CPU) {
      // P is empty: every candidate up to the choice was visited.
      return before + Long.bitCount(raw & range);
    }
    int word = chosen >>> 6;
    if (fallback >>> 6 == word && inWord) {
      // The fallback, the choice and so all of P in range share one word.
      long pruners = prunesBusy ? -1L << fallback : state.idleMask().word(word);
      return before + visitedInWord(raw, notIdleCore & pruners, range);
    }
    return examinedPastFallback(nohzIdleMask, housekeeping, state, thisCpu, chosen, fallback);
  }

  /** Throws unless both masks have the machine's width (out of {@link #selectByWords}). */
  private void requireMachineWidth(CpuMask nohzIdleMask, CpuMask housekeeping) {
    if (nohzIdleMask.nrCpuIds() != nrCpuIds || housekeeping.nrCpuIds() != nrCpuIds) {
      throw new IllegalArgumentException(
          "mask widths "
              + nohzIdleMask.nrCpuIds()
              + " and "
              + housekeeping.nrCpuIds()
              + " differ from nr_cpu_ids "
              + nrCpuIds);
    }
  }

  /**
   * {@link #selectByWords}' examined count when the walk found a fallback {@code f} below its end
   * (the choice {@code chosen}, or the end of the candidates when there is none); SMT is active.
   * That is the candidates in words up to the end's ({@code lastRange} limiting the last), less
   * those with an SMT sibling below them in {@code P} (class comment); {@code P} is empty below
   * {@code f}. Kept out of {@link #selectByWords}, which stays small enough to be inlined.
   */
  private int examinedPastFallback(
      CpuMask nohzIdleMask,
      CpuMask housekeeping,
      CpuStateView state,
      int thisCpu,
      int chosen,
      int fallback) {
    CpuMask idle = state.idleMask();
    CpuMask idleCore = state.idleCoreMask();
    int kickerWord = skipsKicker ? thisCpu >>> 6 : -1; // as in selectByWords
    long notKicker = ~(1L << thisCpu);
    boolean none = chosen == CpuMask.NO_CPU;
    int lastWord = none ? reach.length - 1 : chosen >>> 6;
    long lastRange = none ? -1L : -1L >>> (63 - (chosen & 63));
    int fallbackWord = fallback >>> 6;
    long fromFallback = -1L << fallback;
    int examined = 0;
    for (int w = 0; w < fallbackWord; w++) {
      examined += Long.bitCount(nohzIdleMask.word(w) & housekeeping.word(w));
    }
    if (inWord) {
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
   * {@link #examinedPastFallback} from the fallback's word on, for a layout whose cores are runs of
   * consecutive CPUs aligned within words ({@link SmtThreadLayout#inWord}): "a lower sibling in
   * {@code P}" is then "above the lowest bit of {@code P} in its own run of bits", one word at a
   * time, with nothing carried between words.
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
    int examined = 0;
    for (int w = fallbackWord; w <= lastWord; w++) {
      long candidates = nohzIdleMask.word(w) & housekeeping.word(w);
      long notIdleCore =
          (w == kickerWord ? candidates & notKicker : candidates) & ~idleCore.word(w);
      long pruners = prunesBusy ? (w == fallbackWord ? fromFallback : -1L) : idle.word(w);
      examined += visitedInWord(candidates, notIdleCore & pruners, w == lastWord ? lastRange : -1L);
    }
    return examined;
  }

  /**
   * Visited candidates of one word of an in-word layout: {@code candidates} within {@code range},
   * less those with a lower SMT sibling in {@code prunes} (this word's {@code P}).
   *
   * <p>In each core's run of bits those are the bits above the lowest bit of {@code P}, or none
   * when the run holds no bit of {@code P}: the run's value {@code v} and {@code v - 1} differ
   * exactly at and below that lowest bit. All runs are decremented at once by a subtraction that
   * cannot borrow across runs: each run's last bit is set first, and its true value is put back
   * afterwards (Warren, <i>Hacker's Delight</i>, 2nd ed., §2-18, "Multibyte Add, Subtract, Absolute
   * Value"). An empty run wraps to all ones, which leaves it unpruned. Straight-line code, whatever
   * the width, where a prefix OR needs log2(threads) steps.
   */
  private int visitedInWord(long candidates, long prunes, long range) {
    long first = inWordFirst;
    long last = inWordLast;
    long minusOne = ((prunes | last) - first) ^ ((prunes ^ ~first) & last);
    // prunes ^ minusOne: the bits at or below each run's lowest bit of P, all of an empty run.
    return Long.bitCount(candidates & (prunes ^ minusOne) & range);
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
