package dev.schedlab.core.engine;

/**
 * One {@code struct sched_avg}: the PELT sums and averages of a task entity or a cfs_rq. Updates
 * follow {@code ___update_load_sum()}, {@code accumulate_sum()} and {@code ___update_load_avg()} in
 * kernel/sched/pelt.c. Time is simulated ns; the kernel's {@code clock_pelt} scaling by capacity
 * and frequency is not modelled (the engine states this).
 */
final class PeltAverage {

  long lastUpdateTime;
  long loadSum;
  long runnableSum;
  long utilSum;
  long periodContrib;
  long loadAvg;
  long runnableAvg;
  long utilAvg;

  /**
   * Equivalent of {@code ___update_load_sum(now, sa, load, runnable, running)}: accumulates the
   * time since the last update with the given state. Returns whether a period boundary was crossed
   * (then the averages must be recomputed).
   */
  boolean updateSum(long now, long load, long runnable, boolean running) {
    long delta = now - lastUpdateTime;
    if (delta < 0) {
      lastUpdateTime = now;
      return false;
    }
    delta >>>= 10;
    if (delta == 0) {
      return false;
    }
    lastUpdateTime += delta << 10;
    if (load == 0) {
      runnable = 0;
      running = false;
    }
    return accumulate(delta, load, runnable, running) != 0;
  }

  /** Equivalent of {@code accumulate_sum()}; returns the number of periods crossed. */
  private long accumulate(long deltaUs, long load, long runnable, boolean running) {
    long contrib = deltaUs;
    long delta = deltaUs + periodContrib;
    long periods = delta / 1024;
    if (periods != 0) {
      loadSum = Pelt.decayLoad(loadSum, periods);
      runnableSum = Pelt.decayLoad(runnableSum, periods);
      utilSum = Pelt.decayLoad(utilSum, periods);
      delta %= 1024;
      if (load != 0) {
        contrib = Pelt.accumulateSegments(periods, 1024 - periodContrib, delta);
      }
    }
    periodContrib = delta;
    if (load != 0) {
      loadSum += load * contrib;
    }
    if (runnable != 0) {
      runnableSum += (runnable * contrib) << Pelt.SCHED_CAPACITY_SHIFT;
    }
    if (running) {
      utilSum += contrib << Pelt.SCHED_CAPACITY_SHIFT;
    }
    return periods;
  }

  /** Equivalent of {@code get_pelt_divider()}. */
  long divider() {
    return Pelt.PELT_MIN_DIVIDER + periodContrib;
  }

  /** Equivalent of {@code ___update_load_avg(sa, load)}. */
  void updateAvg(long weight) {
    long divider = divider();
    loadAvg = weight * loadSum / divider;
    runnableAvg = runnableSum / divider;
    utilAvg = utilSum / divider;
  }

  /**
   * Equivalent of {@code enqueue_load_avg()} plus the util and runnable parts of {@code
   * attach_entity_load_avg()}: adds an entity's averages into this cfs_rq.
   */
  void add(PeltAverage se, long seWeight) {
    loadAvg += se.loadAvg;
    loadSum += seWeight * se.loadSum;
    utilAvg += se.utilAvg;
    utilSum += se.utilSum;
    runnableAvg += se.runnableAvg;
    runnableSum += se.runnableSum;
  }

  /**
   * Equivalent of {@code dequeue_load_avg()} plus the util and runnable parts of {@code
   * detach_entity_load_avg()}: removes an entity's averages, clamping at zero and keeping each sum
   * at least its average times {@code PELT_MIN_DIVIDER}, as the kernel does against rounding drift.
   */
  void subtract(PeltAverage se, long seWeight) {
    loadAvg = Math.max(0, loadAvg - se.loadAvg);
    loadSum = Math.max(loadSum - seWeight * se.loadSum, loadAvg * Pelt.PELT_MIN_DIVIDER);
    utilAvg = Math.max(0, utilAvg - se.utilAvg);
    utilSum = Math.max(utilSum - se.utilSum, utilAvg * Pelt.PELT_MIN_DIVIDER);
    runnableAvg = Math.max(0, runnableAvg - se.runnableAvg);
    runnableSum = Math.max(runnableSum - se.runnableSum, runnableAvg * Pelt.PELT_MIN_DIVIDER);
  }

  /**
   * The entity side of {@code attach_entity_load_avg()}: aligns the entity with the cfs_rq's period
   * and rebuilds its sums from its averages against the cfs_rq's divider.
   */
  void alignTo(PeltAverage cfsRq, long seWeight) {
    lastUpdateTime = cfsRq.lastUpdateTime;
    periodContrib = cfsRq.periodContrib;
    long divider = divider();
    utilSum = utilAvg * divider;
    runnableSum = runnableAvg * divider;
    loadSum = loadAvg * divider;
    loadSum = seWeight < loadSum ? loadSum / seWeight : 1;
  }
}
