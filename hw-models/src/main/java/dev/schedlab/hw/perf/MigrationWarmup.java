package dev.schedlab.hw.perf;

/**
 * The cache-cold slowdown after a migration. Right after a move across distance {@code d} (1 = to
 * an SMT sibling, 2 = within the LLC, 3 = to another LLC of the node, 4 = to another node, as
 * {@link dev.schedlab.spi.PerfStateView#lastMigrationDistance} reports it) the thread loses a
 * fraction {@code penalty[d]} of its speed; the loss halves every {@code halfLife[d]} of run time
 * as the caches refill, in steps so that the speed stays piecewise constant (the engine needs a
 * next-change instant), and vanishes after {@link #STEPS} half-lives (below 1/256 of the penalty).
 */
public final class MigrationWarmup {

  /** Half-lives after which the penalty is dropped. */
  public static final int STEPS = 8;

  private final double[] penalty = new double[5];
  private final long[] halfLifeNs = new long[5];

  /**
   * @param penalties speed lost right after a move, indexed by distance 1..4 (array of 4), each in
   *     [0, 0.95]
   * @param halfLivesNs run time that halves the loss, indexed by distance 1..4 (array of 4), each ≥
   *     0 (0 = no penalty at that distance)
   */
  public MigrationWarmup(double[] penalties, long[] halfLivesNs) {
    if (penalties.length != 4 || halfLivesNs.length != 4) {
      throw new IllegalArgumentException("expected 4 penalties and 4 half-lives (distances 1..4)");
    }
    for (int d = 1; d <= 4; d++) {
      double p = penalties[d - 1];
      if (!(p >= 0 && p <= 0.95)) {
        throw new IllegalArgumentException(
            "migration penalty " + p + " at distance " + d + " is out of range: allowed 0..0.95");
      }
      if (halfLivesNs[d - 1] < 0) {
        throw new IllegalArgumentException("negative warm-up half-life at distance " + d);
      }
      penalty[d] = p;
      halfLifeNs[d] = halfLivesNs[d - 1];
    }
  }

  /** No slowdown after any migration. */
  public static MigrationWarmup none() {
    return new MigrationWarmup(new double[4], new long[4]);
  }

  /** Speed factor in (0, 1] after a move of {@code distance}, having run {@code runNs} since. */
  public double factor(int distance, long runNs) {
    if (distance <= 0 || distance > 4 || halfLifeNs[distance] == 0 || penalty[distance] == 0) {
      return 1.0;
    }
    long steps = runNs / halfLifeNs[distance];
    if (steps >= STEPS) {
      return 1.0;
    }
    return 1.0 - penalty[distance] / (1L << steps);
  }

  /**
   * Run time from now until the factor next changes, or {@link Long#MAX_VALUE} when it no longer
   * will.
   */
  public long nsUntilChange(int distance, long runNs) {
    if (factor(distance, runNs) == 1.0) {
      return Long.MAX_VALUE;
    }
    long h = halfLifeNs[distance];
    return (runNs / h + 1) * h - runNs;
  }
}
