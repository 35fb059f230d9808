package dev.schedlab.core.engine;

/**
 * The executive: a nanosecond clock and the pending events. {@link #schedule} refuses an event
 * older than the clock (that is always an engine bug); {@link #run} fires events in (time,
 * priority, sequence) order until {@link #stop} or the queue drains.
 */
final class EventLoop {

  private final EventQueue queue;
  private long now;
  private long sequence;
  private long processed;
  private boolean stopped;

  /** Where {@link Event.Handler#touchAhead} gets an instant's events, or null: not called. */
  private Event[] instantEvents;

  EventLoop(EventQueue queue) {
    this.queue = queue;
  }

  /**
   * From now on, before the first event of each instant with more than one event pending, hands the
   * handler up to {@code max} of them ({@link Event.Handler#touchAhead}). A speed choice for wide
   * machines only: the order and effect of every event are the same either way.
   */
  void touchAhead(int max) {
    instantEvents = new Event[max];
  }

  /** The simulated time, ns. */
  long now() {
    return now;
  }

  /** Events fired so far. */
  long processed() {
    return processed;
  }

  /**
   * Schedules {@code event} at {@code time}.
   *
   * @throws IllegalArgumentException if {@code time} is before the clock
   */
  void schedule(long time, Event event) {
    checkNotBeforeClock(time, event);
    queue.add(time, event.priority(), sequence++, event);
  }

  /**
   * Schedules {@code event} at {@code time} under {@code slot}, replacing the event pending under
   * that slot: the same order as scheduling anew and dropping the old one, without the old one
   * firing later as a no-op.
   *
   * @throws IllegalArgumentException if {@code time} is before the clock
   */
  void scheduleSlot(int slot, long time, Event event) {
    checkNotBeforeClock(time, event);
    queue.addOrMove(slot, time, event.priority(), sequence++, event);
  }

  private void checkNotBeforeClock(long time, Event event) {
    if (time < now) {
      throw new IllegalArgumentException(
          "event " + event + " scheduled at " + time + " ns, before the clock (" + now + " ns)");
    }
  }

  /** Drops the event pending under {@code slot}, if any. */
  void cancelSlot(int slot) {
    queue.remove(slot);
  }

  /** Stops {@link #run} after the current event. */
  void stop() {
    stopped = true;
  }

  /** Fires events until stopped or empty. */
  void run(Event.Handler handler) {
    runUntil(Long.MAX_VALUE, handler);
  }

  /**
   * Fires the events due at or before {@code limit}, then sets the clock to {@code limit} if it is
   * later (tests step the engine this way).
   */
  void runUntil(long limit, Event.Handler handler) {
    while (!stopped && !queue.isEmpty() && queue.peekTime() <= limit) {
      long time = queue.peekTime();
      if (instantEvents != null && time != now) {
        int n = queue.earliest(instantEvents);
        if (n > 1) {
          handler.touchAhead(instantEvents, n);
        }
      }
      now = time;
      Event event = queue.poll();
      processed++;
      event.fire(handler);
    }
    if (!stopped && limit != Long.MAX_VALUE && limit > now) {
      now = limit;
    }
  }
}
