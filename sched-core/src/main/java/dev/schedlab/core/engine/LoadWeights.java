package dev.schedlab.core.engine;

import dev.schedlab.spi.view.SchedPolicy;

/** Load weights of fair tasks: {@code sched_prio_to_weight[]} and {@code WEIGHT_IDLEPRIO}. */
final class LoadWeights {

  /** {@code NICE_0_LOAD} after {@code scale_load_down()}: the weight of a nice-0 task. */
  static final int NICE_0_LOAD = 1024;

  /** {@code WEIGHT_IDLEPRIO}: the weight of a SCHED_IDLE task. */
  static final int WEIGHT_IDLEPRIO = 3;

  /** {@code sched_prio_to_weight[nice + 20]}. */
  private static final int[] PRIO_TO_WEIGHT = {
    88761, 71755, 56483, 46273, 36291,
    29154, 23254, 18705, 14949, 11916,
    9548, 7620, 6100, 4904, 3906,
    3121, 2501, 1991, 1586, 1277,
    1024, 820, 655, 526, 423,
    335, 272, 215, 172, 137,
    110, 87, 70, 56, 45,
    36, 29, 23, 18, 15,
  };

  private LoadWeights() {}

  /** The weight of a task with {@code policy} and {@code nice}, as {@code set_load_weight()}. */
  static int weightOf(SchedPolicy policy, int nice) {
    if (policy.isIdlePolicy()) {
      return WEIGHT_IDLEPRIO;
    }
    if (nice < -20 || nice > 19) {
      throw new IllegalArgumentException("nice " + nice + " outside -20..19");
    }
    return PRIO_TO_WEIGHT[nice + 20];
  }
}
