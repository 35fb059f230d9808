package dev.schedlab.core.engine;

/**
 * PELT arithmetic: the decay of a geometric series with {@code y^32 = 1/2} over 1024 µs periods, as
 * {@code decay_load()} and {@code __accumulate_pelt_segments()} in kernel/sched/pelt.c compute it,
 * with the same integer truncations so values match the kernel's.
 */
final class Pelt {

  /** {@code LOAD_AVG_PERIOD}: the half-life in periods. */
  static final int LOAD_AVG_PERIOD = 32;

  /** {@code LOAD_AVG_MAX}: the truncated sum of the full series, {@code sum 1024*y^n}. */
  static final long LOAD_AVG_MAX = 47742;

  /** {@code PELT_MIN_DIVIDER}. */
  static final long PELT_MIN_DIVIDER = LOAD_AVG_MAX - 1024;

  /** {@code SCHED_CAPACITY_SHIFT}. */
  static final int SCHED_CAPACITY_SHIFT = 10;

  /**
   * {@code runnable_avg_yN_inv[n]} = {@code (2^32 - 1) * y^n}, truncated, for n in [0, 32), as
   * Documentation/scheduler/sched-pelt.c generates the table.
   */
  private static final long[] Y_N_INV = new long[LOAD_AVG_PERIOD];

  static {
    double y = Math.pow(0.5, 1.0 / LOAD_AVG_PERIOD);
    for (int n = 0; n < LOAD_AVG_PERIOD; n++) {
      Y_N_INV[n] = (long) (4294967295.0 * Math.pow(y, n));
    }
  }

  private Pelt() {}

  /** Equivalent of {@code decay_load(val, n)}: {@code val * y^n}, truncated. */
  static long decayLoad(long val, long periods) {
    if (periods > LOAD_AVG_PERIOD * 63L) {
      return 0;
    }
    long n = periods;
    long v = val;
    if (n >= LOAD_AVG_PERIOD) {
      v >>>= n / LOAD_AVG_PERIOD;
      n %= LOAD_AVG_PERIOD;
    }
    return mulShift32(v, Y_N_INV[(int) n]);
  }

  /** Equivalent of {@code mul_u64_u32_shr(a, mul, 32)} for non-negative {@code a}. */
  private static long mulShift32(long a, long mul) {
    long high = a >>> 32;
    long low = a & 0xffff_ffffL;
    return high * mul + ((low * mul) >>> 32);
  }

  /**
   * Equivalent of {@code __accumulate_pelt_segments(periods, d1, d3)}: the contribution of a span
   * that ends {@code d3} µs into the current period, began {@code d1} µs before the end of the
   * oldest period, and crosses {@code periods} boundaries.
   */
  static long accumulateSegments(long periods, long d1, long d3) {
    long c1 = decayLoad(d1, periods);
    long c2 = LOAD_AVG_MAX - decayLoad(LOAD_AVG_MAX, periods) - 1024;
    return c1 + c2 + d3;
  }
}
