package dev.schedlab.policies.fair.ilb;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.topology.Topology;
import java.util.Arrays;

/**
 * The SMT numbering of a machine whose threads sit at constant offsets: thread {@code j} of every
 * core is CPU {@code base + offsets[j]}, where {@code base} is the core's lowest CPU and {@code 0 =
 * offsets[0] < offsets[1] < ...} are the same for every core. Both numberings of real machines have
 * this form: split ({@code n} and {@code n + N/2}, Vera and x86) and adjacent ({@code 2k} and
 * {@code 2k+1}). With it, "the SMT siblings above CPU {@code s}" is a shift of {@code s}'s bit by
 * {@code offsets[j] - offsets[i]}, so a whole word of CPUs can be moved onto their siblings at
 * once; chaining the moves from each thread to the next reaches every higher sibling.
 *
 * <p>{@link #of} returns null for anything else: hybrid machines (cores of different widths), an
 * impossible CPU below {@code nr_cpu_ids}, imports with irregular sibling sets. Offline CPUs do not
 * matter: {@code cpu_smt_mask()} here covers possible CPUs, online or not, and that relation is all
 * the layout records.
 */
final class SmtThreadLayout {

  /** Threads per core. */
  final int threads;

  /** {@code offsets[j]}: thread {@code j}'s distance from its core's lowest CPU. */
  final int[] offsets;

  /** {@code threadWords[j]}: the words of the mask of every core's thread {@code j}. */
  final long[][] threadWords;

  /**
   * For each thread {@code j >= 1}: the distance {@code offsets[j] - offsets[j - 1]} from the
   * thread below it, in whole words and remaining bits (index 0 unused). Moving a mask of thread
   * {@code j - 1}'s CPUs up by it lands each CPU on its next-higher sibling.
   */
  final int[] stepShiftWords;

  final int[] stepShiftBits;

  /**
   * Whether the layout is adjacent numbering with a power-of-two width of at most 64: every core a
   * run of consecutive CPUs starting at a multiple of the width, so no core straddles a word.
   */
  final boolean inWord;

  /** For {@link #inWord}: the bits of a word that are thread 0 of their core; else 0. */
  final long inWordFirst;

  /** For {@link #inWord}: the bits of a word that are the last thread of their core; else 0. */
  final long inWordLast;

  private SmtThreadLayout(int[] offsets, long[][] threadWords) {
    this.threads = offsets.length;
    this.offsets = offsets;
    this.threadWords = threadWords;
    this.stepShiftWords = new int[threads];
    this.stepShiftBits = new int[threads];
    for (int j = 1; j < threads; j++) {
      int shift = offsets[j] - offsets[j - 1];
      stepShiftWords[j] = shift >>> 6;
      stepShiftBits[j] = shift & 63;
    }
    this.inWord = isInWord(offsets);
    long first = 0;
    long last = 0;
    if (inWord) {
      for (int bit = 0; bit < 64; bit += threads) {
        first |= 1L << bit;
        last |= 1L << (bit + threads - 1);
      }
    }
    this.inWordFirst = first;
    this.inWordLast = last;
  }

  private static boolean isInWord(int[] offsets) {
    int threads = offsets.length;
    if (threads < 2 || threads > 64 || Integer.bitCount(threads) != 1) {
      return false;
    }
    for (int j = 0; j < threads; j++) {
      if (offsets[j] != j) {
        return false;
      }
    }
    // Cores start at multiples of the width (the lowest CPU of each core is the lowest not yet
    // covered, and every core has the same width), so no core straddles a word.
    return true;
  }

  /** The layout of {@code topology}, or null when its SMT threads are not at constant offsets. */
  static SmtThreadLayout of(Topology topology) {
    int nrCpuIds = topology.nrCpuIds();
    if (topology.possibleMask().weight() != nrCpuIds) {
      return null;
    }
    CpuMask first = topology.smtSiblings(0);
    int threads = first.weight();
    int[] offsets = new int[threads];
    int k = 0;
    for (int s = first.first(); s != CpuMask.NO_CPU; s = first.next(s)) {
      offsets[k++] = s - first.first();
    }
    if (offsets[0] != 0) {
      return null; // CPU 0 is not the lowest CPU of its own core: no such relation
    }
    int words = (nrCpuIds + 63) >>> 6;
    long[][] threadWords = new long[threads][words];
    boolean[] seen = new boolean[nrCpuIds];
    for (int cpu = 0; cpu < nrCpuIds; cpu++) {
      if (seen[cpu]) {
        continue;
      }
      // cpu is the lowest CPU not yet covered, so it must be the lowest CPU of its core.
      CpuMask core = topology.smtSiblings(cpu);
      if (core.weight() != threads || core.first() != cpu) {
        return null;
      }
      int j = 0;
      for (int s = core.first(); s != CpuMask.NO_CPU; s = core.next(s), j++) {
        if (s - cpu != offsets[j] || seen[s] || !core.contentEquals(topology.smtSiblings(s))) {
          return null;
        }
        seen[s] = true;
        threadWords[j][s >>> 6] |= 1L << s;
      }
    }
    return new SmtThreadLayout(Arrays.copyOf(offsets, threads), threadWords);
  }
}
