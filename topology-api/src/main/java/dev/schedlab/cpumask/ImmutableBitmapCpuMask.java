package dev.schedlab.cpumask;

/**
 * The frozen mask: the equivalent of a {@code const struct cpumask} built once, such as a
 * sched-domain span. Nothing writes its words after construction, so it may be shared freely.
 */
final class ImmutableBitmapCpuMask extends BitmapCpuMask implements ImmutableCpuMask {

  /** Takes ownership of {@code words}; no reference to them may escape elsewhere. */
  ImmutableBitmapCpuMask(int nrCpuIds, long[] words) {
    super(nrCpuIds, words);
  }

  @Override
  public ImmutableCpuMask toImmutable() {
    return this;
  }
}
