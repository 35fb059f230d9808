package dev.schedlab.core.engine;

/** A broken engine invariant: always a bug in the engine or in a plugin it trusted. */
public final class InvariantViolation extends IllegalStateException {

  /** A violation described by {@code message}. */
  public InvariantViolation(String message) {
    super(message);
  }
}
