package dev.schedlab.core.engine;

/**
 * The pending-event set of the executive: a priority queue ordered by (time, priority, sequence).
 * Implementations are swappable without touching the engine: {@link RadixEventQueue} is the
 * engine's; benchmarks keep the four-ary and binary heaps it replaced, which pop the same order.
 */
interface EventQueue {

  /** Adds an event; {@code sequence} is unique and increasing, so the order is total. */
  void add(long time, int priority, long sequence, Event event);

  /**
   * Adds {@code event} under {@code slot} (a small non-negative id, such as a CPU's timer), or
   * moves the event pending under it to the new key and replaces it: re-arming a timer this way
   * leaves no stale event behind to fire as a no-op.
   */
  void addOrMove(int slot, long time, int priority, long sequence, Event event);

  /** Removes the event pending under {@code slot}; nothing if there is none. */
  void remove(int slot);

  /** Whether no event is pending. */
  boolean isEmpty();

  /** The time of the earliest event; undefined when empty. */
  long peekTime();

  /** Removes and returns the earliest event. */
  Event poll();

  /** Number of pending events. */
  int size();

  /**
   * Copies into {@code out} up to {@code out.length} of the events pending at {@link #peekTime()}
   * that the queue already holds apart from the later ones, in no particular order, and returns how
   * many; changes nothing. A queue without such a set returns 0 (the default).
   */
  default int earliest(Event[] out) {
    return 0;
  }
}
