package dev.schedlab.spi.view;

/** What limits a task's progress, for the performance model. */
public enum WorkClass {
  /** Limited by the core pipeline: sensitive to SMT co-running. */
  COMPUTE,
  /** Limited by memory bandwidth: shares the node's bandwidth. */
  MEMORY
}
