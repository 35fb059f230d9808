package dev.schedlab.core.engine;

import java.util.NoSuchElementException;

/**
 * A binary min-heap over parallel arrays: times and (priority, sequence) keys are primitive, so
 * comparing allocates nothing and touches no event object.
 */
final class HeapEventQueue implements EventQueue {

  private static final int SEQUENCE_BITS = 56;

  private long[] times = new long[1024];
  private long[] keys = new long[1024];
  private Event[] events = new Event[1024];
  private int size;

  @Override
  public void add(long time, int priority, long sequence, Event event) {
    if (priority < 0 || priority > 127 || sequence < 0 || sequence >= (1L << SEQUENCE_BITS)) {
      throw new IllegalArgumentException(
          "priority " + priority + " outside 0..127 or sequence " + sequence + " out of range");
    }
    if (size == times.length) {
      grow();
    }
    long key = ((long) priority << SEQUENCE_BITS) | sequence;
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!less(time, key, times[parent], keys[parent])) {
        break;
      }
      times[i] = times[parent];
      keys[i] = keys[parent];
      events[i] = events[parent];
      i = parent;
    }
    times[i] = time;
    keys[i] = key;
    events[i] = event;
  }

  @Override
  public boolean isEmpty() {
    return size == 0;
  }

  @Override
  public long peekTime() {
    if (size == 0) {
      throw new NoSuchElementException("no pending event");
    }
    return times[0];
  }

  @Override
  public Event poll() {
    if (size == 0) {
      throw new NoSuchElementException("no pending event");
    }
    Event top = events[0];
    int last = --size;
    long time = times[last];
    long key = keys[last];
    Event event = events[last];
    events[last] = null;
    int i = 0;
    int half = last >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < last && less(times[right], keys[right], times[child], keys[child])) {
        child = right;
      }
      if (!less(times[child], keys[child], time, key)) {
        break;
      }
      times[i] = times[child];
      keys[i] = keys[child];
      events[i] = events[child];
      i = child;
    }
    if (last > 0) {
      times[i] = time;
      keys[i] = key;
      events[i] = event;
    }
    return top;
  }

  @Override
  public int size() {
    return size;
  }

  private static boolean less(long timeA, long keyA, long timeB, long keyB) {
    return timeA < timeB || (timeA == timeB && keyA < keyB);
  }

  private void grow() {
    int capacity = times.length * 2;
    times = java.util.Arrays.copyOf(times, capacity);
    keys = java.util.Arrays.copyOf(keys, capacity);
    events = java.util.Arrays.copyOf(events, capacity);
  }
}
