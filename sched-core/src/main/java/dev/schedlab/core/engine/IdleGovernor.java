package dev.schedlab.core.engine;

/**
 * The idle governor's tick decision, as the menu governor makes it ({@code menu_select()} in
 * drivers/cpuidle/governors/menu.c, whose {@code get_typical_interval()} this follows in spirit;
 * teo decides the tick the same way): before an idle period, predict its length from the lengths of
 * the last {@value #INTERVALS} idle periods, and keep the tick running when the prediction is
 * shorter than a tick. Used only with {@code EngineOptions.retainShortIdleTick}.
 *
 * <p>The prediction is the mean of the recent periods when they agree: their standard deviation is
 * at most {@value #SMALL_STDDEV_NS} ns, or at most a sixth of the mean. When they do not, the
 * period farthest from the mean is set aside and the rest are tried again, as long as at least
 * three quarters of the history remains; otherwise there is no prediction (the governor would fall
 * back on the next timer event, which the model does not track for idle CPUs, so the tick stops).
 * An idle CPU woken by its own retained tick records {@link #TICK_WAKEUP_NS}: the governors
 * discount tick wakeups when no timer is near, so a CPU that stays idle stops its tick after a few
 * ticks.
 */
final class IdleGovernor {

  /** Idle periods remembered, as menu's {@code INTERVALS}. */
  static final int INTERVALS = 8;

  /** A standard deviation this small (20 µs) always counts as agreement. */
  static final long SMALL_STDDEV_NS = 20_000;

  /** What a tick wakeup of an idle CPU records: a long period (1 s). */
  static final long TICK_WAKEUP_NS = 1_000_000_000L;

  /** No prediction. */
  static final long UNKNOWN = Long.MAX_VALUE;

  private IdleGovernor() {}

  /** Remembers an idle period of {@code ns} on {@code rq}. */
  static void record(CpuRunqueue rq, long ns) {
    rq.idleIntervals[rq.idleIntervalNext] = Math.max(0, ns);
    rq.idleIntervalNext = (rq.idleIntervalNext + 1) % INTERVALS;
    if (rq.idleIntervalCount < INTERVALS) {
      rq.idleIntervalCount++;
    }
  }

  /**
   * The predicted length of the next idle period of {@code rq}, ns, or {@link #UNKNOWN}. No
   * allocation: the excluded range narrows instead of copying the history.
   */
  static long typicalIntervalNs(CpuRunqueue rq) {
    int count = rq.idleIntervalCount;
    if (count < INTERVALS) {
      return UNKNOWN;
    }
    long low = -1;
    long high = Long.MAX_VALUE;
    while (true) {
      int n = 0;
      double sum = 0;
      double sumSq = 0;
      long min = Long.MAX_VALUE;
      long max = -1;
      for (int i = 0; i < count; i++) {
        long v = rq.idleIntervals[i];
        if (v <= low || v >= high) {
          continue;
        }
        n++;
        sum += v;
        sumSq += (double) v * v;
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      if (n * 4 < INTERVALS * 3) {
        return UNKNOWN;
      }
      double mean = sum / n;
      double variance = Math.max(0, sumSq / n - mean * mean);
      if (variance <= (double) SMALL_STDDEV_NS * SMALL_STDDEV_NS || mean * mean > 36 * variance) {
        return (long) mean;
      }
      // Set aside the period farthest from the mean and try again.
      if (mean - min > max - mean) {
        low = min;
      } else {
        high = max;
      }
    }
  }

  /** Whether the governor keeps the tick for the idle period {@code rq} is entering. */
  static boolean retainsTick(CpuRunqueue rq, long tickNs) {
    return typicalIntervalNs(rq) < tickNs;
  }
}
