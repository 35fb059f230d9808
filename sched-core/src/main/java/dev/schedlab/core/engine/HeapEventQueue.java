package dev.schedlab.core.engine;

import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * A four-ary min-heap over primitive arrays, specialised for the engine's event mix: a few hundred
 * to a few thousand pending events (one slotted timer per CPU, the jiffy tick, sleep ends, IPIs),
 * nearly every fired event followed by a re-arm at a later time. Removing the minimum dominates,
 * and its cost is the walk down: four children per node halve the depth of a binary heap, and entry
 * {@code i}'s time and (priority, sequence) key sit side by side in one array ({@code keys[2i]},
 * {@code keys[2i + 1]}), so the four children of a node are eight consecutive longs, one or two
 * cache lines, where a binary heap touches a line per level in each of two arrays. Comparing
 * allocates nothing and touches no event object. Slotted entries (see {@link #addOrMove}) know
 * their heap position, so they are moved or removed in place in O(log n).
 *
 * <p>The order is the total (time, priority, sequence) order of {@link EventQueue}, so any heap
 * shape pops the same sequence of events: the engine's results do not depend on the queue.
 */
final class HeapEventQueue implements EventQueue {

  private static final int SEQUENCE_BITS = 56;
  private static final int INITIAL_CAPACITY = 1024;

  /** Entry {@code i}: time at {@code 2i}, (priority, sequence) key at {@code 2i + 1}. */
  private long[] keys = new long[2 * INITIAL_CAPACITY];

  private Event[] events = new Event[INITIAL_CAPACITY];

  /** The slot of each heap entry, or -1. */
  private int[] slots = new int[INITIAL_CAPACITY];

  /** The heap index of each slot's pending entry, or -1. */
  private int[] positions = new int[0];

  private int size;

  @Override
  public void add(long time, int priority, long sequence, Event event) {
    long key = key(priority, sequence);
    if (size == events.length) {
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
      positions = Arrays.copyOf(positions, Math.max(slot + 1, 2 * old));
      Arrays.fill(positions, old, positions.length, -1);
    }
    int i = positions[slot];
    if (i < 0) {
      if (size == events.length) {
        grow();
      }
      siftUp(size++, time, key, event, slot);
    } else if (less(time, key, keys[2 * i], keys[2 * i + 1])) {
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
    long time = keys[2 * last];
    long key = keys[2 * last + 1];
    Event event = events[last];
    int lastSlot = slots[last];
    events[last] = null;
    if (i == last) {
      return;
    }
    int parent = (i - 1) >>> 2;
    if (i > 0 && less(time, key, keys[2 * parent], keys[2 * parent + 1])) {
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
    long[] k = keys;
    while (i > 0) {
      int parent = (i - 1) >>> 2;
      long parentTime = k[2 * parent];
      long parentKey = k[2 * parent + 1];
      if (!less(time, key, parentTime, parentKey)) {
        break;
      }
      place(i, parentTime, parentKey, events[parent], slots[parent]);
      i = parent;
    }
    place(i, time, key, event, slot);
  }

  /** Places the entry at hole {@code i} or below it, among the first {@link #size} entries. */
  private void siftDown(int i, long time, long key, Event event, int slot) {
    long[] k = keys;
    int n = size;
    while (true) {
      int first = 4 * i + 1;
      if (first >= n) {
        break;
      }
      int best = first;
      long bestTime = k[2 * first];
      long bestKey = k[2 * first + 1];
      if (first + 3 < n) {
        // A full node: a two-round tournament keeps the comparisons off one serial chain.
        int a = first;
        long aTime = bestTime;
        long aKey = bestKey;
        if (less(k[2 * first + 2], k[2 * first + 3], aTime, aKey)) {
          a = first + 1;
          aTime = k[2 * first + 2];
          aKey = k[2 * first + 3];
        }
        int b = first + 2;
        long bTime = k[2 * first + 4];
        long bKey = k[2 * first + 5];
        if (less(k[2 * first + 6], k[2 * first + 7], bTime, bKey)) {
          b = first + 3;
          bTime = k[2 * first + 6];
          bKey = k[2 * first + 7];
        }
        if (less(bTime, bKey, aTime, aKey)) {
          best = b;
          bestTime = bTime;
          bestKey = bKey;
        } else {
          best = a;
          bestTime = aTime;
          bestKey = aKey;
        }
      } else {
        for (int c = first + 1; c < n; c++) {
          if (less(k[2 * c], k[2 * c + 1], bestTime, bestKey)) {
            best = c;
            bestTime = k[2 * c];
            bestKey = k[2 * c + 1];
          }
        }
      }
      if (!less(bestTime, bestKey, time, key)) {
        break;
      }
      place(i, bestTime, bestKey, events[best], slots[best]);
      i = best;
    }
    place(i, time, key, event, slot);
  }

  private void place(int i, long time, long key, Event event, int slot) {
    keys[2 * i] = time;
    keys[2 * i + 1] = key;
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
    return keys[0];
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
    long time = keys[2 * last];
    long key = keys[2 * last + 1];
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
    int capacity = events.length * 2;
    keys = Arrays.copyOf(keys, 2 * capacity);
    events = Arrays.copyOf(events, capacity);
    slots = Arrays.copyOf(slots, capacity);
  }
}
