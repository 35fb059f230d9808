package dev.schedlab.core.stats;

import java.util.Arrays;

/**
 * One {@code domain<K>} line of {@code /proc/schedstat} version 17.
 *
 * @param level {@code K}: position in the CPU's domain walk from the base
 * @param name {@code sd->name} ({@code SMT}, {@code MC}, {@code NUMA}...)
 * @param spanHex the span in the kernel's {@code %*pb} form
 * @param lb the 33 load-balance counters: three blocks of eleven in idle-type order (busy, idle,
 *     newly idle), each {@code lb_count, lb_balanced, lb_failed, lb_imbalance_load,
 *     lb_imbalance_util, lb_imbalance_task, lb_imbalance_misfit, lb_gained, lb_hot_gained,
 *     lb_nobusyq, lb_nobusyg}
 * @param alb {@code alb_count, alb_failed, alb_pushed}
 * @param ttwuWakeRemote {@code ttwu_wake_remote}
 * @param ttwuMoveAffine {@code ttwu_move_affine}
 */
public record DomainSchedstat(
    int level,
    String name,
    String spanHex,
    long[] lb,
    long[] alb,
    long ttwuWakeRemote,
    long ttwuMoveAffine) {

  /** Number of lb fields on a version 17 line. */
  public static final int LB_FIELDS = 33;

  public DomainSchedstat {
    if (lb.length != LB_FIELDS || alb.length != 3) {
      throw new IllegalArgumentException(
          "a v17 domain line has 33 lb and 3 alb fields, got " + lb.length + " and " + alb.length);
    }
    lb = lb.clone();
    alb = alb.clone();
  }

  @Override
  public long[] lb() {
    return lb.clone();
  }

  @Override
  public long[] alb() {
    return alb.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof DomainSchedstat that
        && level == that.level
        && name.equals(that.name)
        && spanHex.equals(that.spanHex)
        && Arrays.equals(lb, that.lb)
        && Arrays.equals(alb, that.alb)
        && ttwuWakeRemote == that.ttwuWakeRemote
        && ttwuMoveAffine == that.ttwuMoveAffine;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(lb) * 31 + name.hashCode();
  }

  /** Appends this line's text, without the trailing newline. */
  void appendTo(StringBuilder out) {
    out.append("domain").append(level).append(' ').append(name).append(' ').append(spanHex);
    for (long value : lb) {
      out.append(' ').append(value);
    }
    for (long value : alb) {
      out.append(' ').append(value);
    }
    // sbe_*, sbf_* (6 fields) are documented as unused and always 0.
    out.append(" 0 0 0 0 0 0");
    out.append(' ').append(ttwuWakeRemote).append(' ').append(ttwuMoveAffine);
    // ttwu_move_balance is never incremented by the kernel.
    out.append(" 0");
  }
}
