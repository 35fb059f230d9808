package dev.schedlab.topology.domain;

import dev.schedlab.cpumask.CpuMask;
import dev.schedlab.cpumask.ImmutableCpuMask;

/**
 * A hash-map key for a mask with a well-mixed hash: {@code CpuMask.hashCode()} folds each word's
 * halves together, so single CPUs {@code c} and {@code c + 32} collide, which turns the builder's
 * maps into linear scans on large machines.
 */
final class MaskKey {

  final ImmutableCpuMask mask;
  private final int hash;

  MaskKey(ImmutableCpuMask mask) {
    this.mask = mask;
    long h = mask.nrCpuIds();
    for (int i = 0, n = mask.wordCount(); i < n; i++) {
      h = (h ^ mask.word(i)) * 0x9E3779B97F4A7C15L;
      h ^= h >>> 29;
    }
    this.hash = (int) (h ^ (h >>> 32));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof MaskKey that
        && (that.mask == mask || (that.hash == hash && that.mask.contentEquals(mask)));
  }

  @Override
  public int hashCode() {
    return hash;
  }

  static MaskKey of(CpuMask mask) {
    return new MaskKey(mask.toImmutable());
  }
}
