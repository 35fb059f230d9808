package dev.schedlab.core.engine;

/**
 * The pending-event set of the executive: a priority queue ordered by (time, priority,
 * sequence). Implementations are swappable (binary heap now; a calendar queue or pooled events
 * later) without touching the engine.
 */
interface EventQueue {

  /** Adds an event; {@code sequence} is unique and increasing, so the order is total. */
  void add(long time, int priority, long sequence, Event event);

  /** Whether no event is pending. */
  boolean isEmpty();

  /** The time of the earliest event; undefined when empty. */
  long peekTime();

  /** Removes and returns the earliest event. */
  Event poll();

  /** Number of pending events. */
  int size();
}
