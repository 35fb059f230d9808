package dev.schedlab.spi.view;

/**
 * Equivalent of {@code enum cpu_idle_type}; the ordinal is the kernel value and the schedstat v17
 * block order: busy, idle, newly idle.
 */
public enum IdleType {
  /** {@code __CPU_NOT_IDLE}: periodic balancing from a busy CPU. */
  NOT_IDLE,
  /** {@code CPU_IDLE}: periodic or NOHZ balancing for an idle CPU. */
  IDLE,
  /** {@code CPU_NEWLY_IDLE}: balancing when a CPU is about to go idle. */
  NEWLY_IDLE
}
