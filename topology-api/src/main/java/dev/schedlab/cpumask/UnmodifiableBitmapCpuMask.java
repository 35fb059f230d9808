package dev.schedlab.cpumask;

/**
 * A read-only window onto a mutable mask's words: the equivalent of handing out a {@code const
 * struct cpumask *} to a mask someone else keeps writing. Changes to the owner show through.
 */
final class UnmodifiableBitmapCpuMask extends BitmapCpuMask {

  /** Shares {@code words} with the owning mutable mask. */
  UnmodifiableBitmapCpuMask(int nrCpuIds, long[] words) {
    super(nrCpuIds, words);
  }
}
