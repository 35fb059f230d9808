package dev.schedlab.hw.perf;

import dev.schedlab.spi.view.WorkClass;

/**
 * The generic SMT co-run rule: a thread's speed, relative to running alone on its core, when {@code
 * k} of its SMT siblings are busy.
 *
 * <p>One number per work class, the co-run factor {@code f} = a thread's speed with exactly one
 * busy sibling, defines the whole curve: the core delivers {@code 1 + k (2f - 1)} threads' worth of
 * work with {@code k + 1} threads busy, shared equally, so a thread runs at {@code (1 + k (2f - 1))
 * / (k + 1)}. With {@code f} in [0.5, 1] core throughput never falls below one thread's (SMT never
 * hurts the core as a whole) and each extra thread adds the same increment, the simplest curve that
 * matches the usual "SMT2 gives +x %" figures. Memory-bound threads have their own factor because
 * they stall on DRAM, not on the pipeline.
 */
public final class SmtCoRun {

  private final double computeFactor;
  private final double memoryFactor;
  private final double[] computeSpeed;
  private final double[] memorySpeed;

  /**
   * @param computeFactor speed of a compute-bound thread with one busy sibling, in [0.5, 1]
   * @param memoryFactor speed of a memory-bound thread with one busy sibling, in [0.5, 1]
   * @param maxSiblings the most siblings any CPU has (tables are precomputed up to it)
   */
  public SmtCoRun(double computeFactor, double memoryFactor, int maxSiblings) {
    check("compute", computeFactor);
    check("memory", memoryFactor);
    this.computeFactor = computeFactor;
    this.memoryFactor = memoryFactor;
    this.computeSpeed = table(computeFactor, maxSiblings);
    this.memorySpeed = table(memoryFactor, maxSiblings);
  }

  /** Speed relative to running alone when {@code busySiblings} siblings are busy. */
  public double speed(WorkClass workClass, int busySiblings) {
    double[] t = workClass == WorkClass.MEMORY ? memorySpeed : computeSpeed;
    return busySiblings < t.length ? t[busySiblings] : curve(factor(workClass), busySiblings);
  }

  /** The co-run factor of {@code workClass}. */
  public double factor(WorkClass workClass) {
    return workClass == WorkClass.MEMORY ? memoryFactor : computeFactor;
  }

  static double curve(double f, int k) {
    return (1 + k * (2 * f - 1)) / (k + 1);
  }

  private static double[] table(double f, int maxSiblings) {
    double[] t = new double[Math.max(1, maxSiblings + 1)];
    for (int k = 0; k < t.length; k++) {
      t[k] = curve(f, k);
    }
    return t;
  }

  private static void check(String what, double f) {
    if (!(f >= 0.5 && f <= 1.0)) {
      throw new IllegalArgumentException(
          what + " SMT co-run factor " + f + " is out of range: allowed 0.5..1");
    }
  }
}
