package dev.schedlab.core.engine;

import java.util.NoSuchElementException;

/**
 * The engine's event queue before the four-ary heap ({@link HeapEventQueue}, itself replaced by
 * sched-core's {@code RadixEventQueue}), kept here as a baseline of {@link EventQueueBenchmark}.
 *
 * <p>Original description: A binary min-heap over parallel arrays: times and (priority, sequence)
 * keys are primitive, so comparing allocates nothing and touches no event object. Slotted entries
 * (see {@link #addOrMove}) know their heap position, so they are moved or removed in place in O(log
 * n).
 */
final class BinaryHeapEventQueue implements EventQueue {

  private static final int SEQUENCE_BITS = 56;

  private long[] times = new long[1024];
  private long[] keys = new long[1024];
  private Event[] events = new Event[1024];

  /** The slot of each heap entry, or -1. */
  private int[] slots = new int[1024];

  /** The heap index of each slot's pending entry, or -1. */
  private int[] positions = new int[0];

  private int size;

  @Override
  public void add(long time, int priority, long sequence, Event event) {
    long key = key(priority, sequence);
    if (size == times.length) {
      grow();
    }
    siftUp(size++, time, key, event, -1);
  }

  @Override
  public void addOrMove(int slot, long time, int priority, long sequence, Event event) {
    if (slot < 0) {
      throw new IllegalArgumentException("slot " + slot + " is negative");
    }
    long key = key(priority, sequence);
    if (slot >= positions.length) {
      int old = positions.length;
      positions = java.util.Arrays.copyOf(positions, Math.max(slot + 1, 2 * old));
      java.util.Arrays.fill(positions, old, positions.length, -1);
    }
    int i = positions[slot];
    if (i < 0) {
      if (size == times.length) {
        grow();
      }
      siftUp(size++, time, key, event, slot);
    } else if (less(time, key, times[i], keys[i])) {
      siftUp(i, time, key, event, slot);
    } else {
      siftDown(i, time, key, event, slot);
    }
  }

  @Override
  public void remove(int slot) {
    if (slot < 0 || slot >= positions.length || positions[slot] < 0) {
      return;
    }
    int i = positions[slot];
    positions[slot] = -1;
    int last = --size;
    long time = times[last];
    long key = keys[last];
    Event event = events[last];
    int lastSlot = slots[last];
    events[last] = null;
    if (i == last) {
      return;
    }
    if (i > 0 && less(time, key, times[(i - 1) >>> 1], keys[(i - 1) >>> 1])) {
      siftUp(i, time, key, event, lastSlot);
    } else {
      siftDown(i, time, key, event, lastSlot);
    }
  }

  private static long key(int priority, long sequence) {
    if (priority < 0 || priority > 127 || sequence < 0 || sequence >= (1L << SEQUENCE_BITS)) {
      throw new IllegalArgumentException(
          "priority " + priority + " outside 0..127 or sequence " + sequence + " out of range");
    }
    return ((long) priority << SEQUENCE_BITS) | sequence;
  }

  /** Places the entry at hole {@code i} or above it. */
  private void siftUp(int i, long time, long key, Event event, int slot) {
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!less(time, key, times[parent], keys[parent])) {
        break;
      }
      place(i, times[parent], keys[parent], events[parent], slots[parent]);
      i = parent;
    }
    place(i, time, key, event, slot);
  }

  /** Places the entry at hole {@code i} or below it, among the first {@link #size} entries. */
  private void siftDown(int i, long time, long key, Event event, int slot) {
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < size && less(times[right], keys[right], times[child], keys[child])) {
        child = right;
      }
      if (!less(times[child], keys[child], time, key)) {
        break;
      }
      place(i, times[child], keys[child], events[child], slots[child]);
      i = child;
    }
    place(i, time, key, event, slot);
  }

  private void place(int i, long time, long key, Event event, int slot) {
    times[i] = time;
    keys[i] = key;
    events[i] = event;
    slots[i] = slot;
    if (slot >= 0) {
      positions[slot] = i;
    }
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
    if (slots[0] >= 0) {
      positions[slots[0]] = -1;
    }
    int last = --size;
    long time = times[last];
    long key = keys[last];
    Event event = events[last];
    int slot = slots[last];
    events[last] = null;
    if (last > 0) {
      siftDown(0, time, key, event, slot);
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
    slots = java.util.Arrays.copyOf(slots, capacity);
  }
}
