package dev.schedlab.spi.view;

/** Fair-class scheduling policies the simulator models. */
public enum SchedPolicy {
  /** {@code SCHED_NORMAL}: weight from the nice table. */
  NORMAL,
  /** {@code SCHED_BATCH}: as NORMAL for balancing; never wakeup-preempts. */
  BATCH,
  /** {@code SCHED_IDLE}: weight {@code WEIGHT_IDLEPRIO} = 3; never cache-hot. */
  IDLE;

  /** Equivalent of {@code task_has_idle_policy()}. */
  public boolean isIdlePolicy() {
    return this == IDLE;
  }
}
