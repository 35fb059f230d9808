package dev.schedlab.hw.importer;

import java.util.BitSet;

/**
 * A data or unified cache and the online CPUs that share it (instruction caches are not kept: they
 * play no part in sched domains).
 *
 * @param level 1 for L1, 2 for L2, ...
 * @param sizeBytes size in bytes, 0 when unknown
 * @param cpus the sharing CPUs (a copy is kept and returned)
 */
public record CacheRecord(int level, long sizeBytes, BitSet cpus) {

  public CacheRecord {
    if (level < 1) {
      throw new IllegalArgumentException("cache level " + level);
    }
    cpus = (BitSet) cpus.clone();
  }

  @Override
  public BitSet cpus() {
    return (BitSet) cpus.clone();
  }
}
