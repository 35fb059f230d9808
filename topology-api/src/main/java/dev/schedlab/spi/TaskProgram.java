package dev.schedlab.spi;

/**
 * The behaviour of one simulated task as a state machine: each time the previous step finished (its
 * work ran, its sleep ended, it was woken), the engine calls {@link #next}.
 */
@FunctionalInterface
public interface TaskProgram {

  /** Decides the task's next step through {@code control}. */
  void next(TaskControl control);
}
