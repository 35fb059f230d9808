package dev.schedlab.core.engine;

import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for the shortest path
 * problem", J. ACM 37(2), 1990) over the events' times, specialised for the engine: a simulation
 * never schedules an event before the last one it fired, which is the monotone use a radix heap
 * needs.
 *
 * <p>Every pending event's time {@code t} is at least {@link #last}, the time of the earliest event
 * found so far. Bucket {@code b > 0} holds the events whose {@code t ^ last} has its highest set
 * bit at position {@code b - 1}; bucket 0 holds those at exactly {@code last}. An insertion is an
 * append to its bucket: no comparisons, no walk. When bucket 0 runs empty, the lowest non-empty
 * bucket (one {@code numberOfTrailingZeros} of a mask) is scanned for its earliest time, which
 * becomes {@code last}, and its events are spread over the lower buckets; each event moves down at
 * most 63 times in its life, a few times in practice. The heap's walk down (a comparison per level
 * whose outcome the branch predictor cannot guess, 12 % of a Vera GEMM run's samples as a four-ary
 * heap) is gone.
 *
 * <p>Bucket 0 is a binary heap on (priority, sequence), since its events tie on time. Ties are the
 * rule, not the exception: the threads of a GEMM team start their tiles together and finish them at
 * the same nanosecond. On a 10 s Vera barrier GEMM only one poll in five found bucket 0 empty
 * (counted: 299,574 redistributions for 1,427,815 polls, often 20-45 events at one time). A bucket
 * 0 kept as a sorted array instead (the events arrive nearly in key order) measured the same, and
 * the heap keeps O(log n) when thousands of events fall on one nanosecond (a traced workload's
 * simultaneous wake-ups). Slotted events (see {@link #addOrMove}) know their bucket and index, so
 * they are moved or removed in O(1) outside bucket 0 and O(log n) inside it.
 *
 * <p>The order is the total (time, priority, sequence) order of {@link EventQueue}, exactly that of
 * the four-ary heap it replaced (benchmarks' {@code HeapEventQueue}): the engine's results do not
 * depend on the queue. An event before {@link #last} (only possible when the loop stopped after
 * looking at the next event without firing it, and a test then schedules between its clock and that
 * event) re-files every pending event, O(n).
 */
final class RadixEventQueue implements EventQueue {

  private static final int BUCKETS = 64;
  private static final int INDEX_BITS = 24;
  private static final int INDEX_MASK = (1 << INDEX_BITS) - 1;
  private static final int SEQUENCE_BITS = 56;
  private static final int INITIAL_CAPACITY = 16;

  /** Every pending event is at or after this time; bucket 0 holds the ones at it. */
  private long last;

  /** Bit {@code b} is set when bucket {@code b > 0} is not empty. */
  private long nonEmpty;

  private final long[][] times = new long[BUCKETS][];
  private final long[][] keys = new long[BUCKETS][];
  private final int[][] ids = new int[BUCKETS][];
  private final int[] sizes = new int[BUCKETS];
  private int size;

  /** The event pending under each slot, or null. */
  private Event[] slotEvents = new Event[0];

  /** Each slot's pending entry, {@code bucket << INDEX_BITS | index}, or -1. */
  private int[] positions = new int[0];

  /** Events added without a slot, by index; free indexes are on {@link #free}. */
  private Event[] looseEvents = new Event[256];

  /** A stack of the free indexes of {@link #looseEvents}: {@code free[0..freeCount)}. */
  private int[] free = new int[256];

  private int freeCount;
  private int looseUsed;

  RadixEventQueue() {
    for (int b = 0; b < BUCKETS; b++) {
      times[b] = new long[INITIAL_CAPACITY];
      keys[b] = new long[INITIAL_CAPACITY];
      ids[b] = new int[INITIAL_CAPACITY];
    }
  }

  @Override
  public void add(long time, int priority, long sequence, Event event) {
    long key = key(time, priority, sequence);
    int index;
    if (freeCount > 0) {
      index = free[--freeCount];
    } else {
      if (looseUsed == looseEvents.length) {
        looseEvents = Arrays.copyOf(looseEvents, 2 * looseUsed);
        free = Arrays.copyOf(free, 2 * looseUsed);
      }
      index = looseUsed++;
    }
    looseEvents[index] = event;
    insert(time, key, ~index);
  }

  @Override
  public void addOrMove(int slot, long time, int priority, long sequence, Event event) {
    if (slot < 0) {
      throw new IllegalArgumentException("slot " + slot + " is negative");
    }
    long key = key(time, priority, sequence);
    if (slot >= positions.length) {
      int old = positions.length;
      int capacity = Math.max(slot + 1, 2 * old);
      positions = Arrays.copyOf(positions, capacity);
      slotEvents = Arrays.copyOf(slotEvents, capacity);
      Arrays.fill(positions, old, capacity, -1);
    }
    slotEvents[slot] = event;
    int position = positions[slot];
    if (position >= 0) {
      removeAt(position >>> INDEX_BITS, position & INDEX_MASK);
    }
    insert(time, key, slot);
  }

  @Override
  public void remove(int slot) {
    if (slot < 0 || slot >= positions.length || positions[slot] < 0) {
      return;
    }
    int position = positions[slot];
    positions[slot] = -1;
    slotEvents[slot] = null;
    removeAt(position >>> INDEX_BITS, position & INDEX_MASK);
  }

  private static long key(long time, int priority, long sequence) {
    if (time < 0
        || priority < 0
        || priority > 127
        || sequence < 0
        || sequence >= (1L << SEQUENCE_BITS)) {
      throw new IllegalArgumentException(
          "time "
              + time
              + " negative, priority "
              + priority
              + " outside 0..127 or sequence "
              + sequence
              + " out of range");
    }
    return ((long) priority << SEQUENCE_BITS) | sequence;
  }

  @Override
  public boolean isEmpty() {
    return size == 0;
  }

  @Override
  public long peekTime() {
    settle();
    return last;
  }

  @Override
  public Event poll() {
    settle();
    int topId = ids[0][0];
    removeAt(0, 0);
    Event top;
    if (topId >= 0) {
      positions[topId] = -1;
      top = slotEvents[topId];
      slotEvents[topId] = null;
    } else {
      top = looseEvents[~topId];
      looseEvents[~topId] = null;
      free[freeCount++] = ~topId;
    }
    return top;
  }

  @Override
  public int size() {
    return size;
  }

  /** Bucket 0's events: after {@link #peekTime()} they are the ones at the earliest time. */
  @Override
  public int earliest(Event[] out) {
    settle();
    int n = Math.min(sizes[0], out.length);
    int[] d = ids[0];
    for (int i = 0; i < n; i++) {
      int id = d[i];
      out[i] = id >= 0 ? slotEvents[id] : looseEvents[~id];
    }
    return n;
  }

  /** The bucket of an event at {@code time}, {@code time >= last}. */
  private int bucketOf(long time) {
    return BUCKETS - Long.numberOfLeadingZeros(time ^ last);
  }

  private void insert(long time, long key, int id) {
    if (time < last) {
      refile(time);
    }
    size++;
    file(time, key, id);
  }

  /** Puts an entry into its bucket against the current {@link #last}. */
  private void file(long time, long key, int id) {
    int b = bucketOf(time);
    if (b == 0) {
      heapInsert(key, id);
    } else {
      append(b, time, key, id);
    }
  }

  /** Makes bucket 0 hold the earliest events: {@code last} becomes the earliest pending time. */
  private void settle() {
    if (sizes[0] > 0) {
      return;
    }
    if (nonEmpty == 0) {
      throw new NoSuchElementException("no pending event");
    }
    int b = Long.numberOfTrailingZeros(nonEmpty);
    long[] t = times[b];
    int n = sizes[b];
    long min = t[0];
    for (int i = 1; i < n; i++) {
      min = Math.min(min, t[i]);
    }
    last = min;
    sizes[b] = 0;
    nonEmpty &= ~(1L << b);
    long[] k = keys[b];
    int[] d = ids[b];
    for (int i = 0; i < n; i++) {
      file(t[i], k[i], d[i]);
    }
  }

  /**
   * Files every pending event again against a new {@code last} (an event before the old one
   * arrived); O(n), never on the engine's own path.
   */
  private void refile(long newLast) {
    int n = size;
    long[] allTimes = new long[n];
    long[] allKeys = new long[n];
    int[] allIds = new int[n];
    int j = 0;
    for (int b = 0; b < BUCKETS; b++) {
      for (int i = 0; i < sizes[b]; i++) {
        allTimes[j] = b == 0 ? last : times[b][i];
        allKeys[j] = keys[b][i];
        allIds[j++] = ids[b][i];
      }
      sizes[b] = 0;
    }
    nonEmpty = 0;
    last = newLast;
    for (int i = 0; i < n; i++) {
      file(allTimes[i], allKeys[i], allIds[i]);
    }
  }

  private void append(int b, long time, long key, int id) {
    int i = sizes[b]++;
    if (i == ids[b].length) {
      grow(b);
    }
    times[b][i] = time;
    keys[b][i] = key;
    ids[b][i] = id;
    if (id >= 0) {
      positions[id] = (b << INDEX_BITS) | i;
    }
    nonEmpty |= 1L << b;
  }

  private void grow(int b) {
    int capacity = 2 * ids[b].length;
    if (capacity > INDEX_MASK + 1) {
      throw new IllegalStateException("more than " + (INDEX_MASK + 1) + " events in one bucket");
    }
    times[b] = Arrays.copyOf(times[b], capacity);
    keys[b] = Arrays.copyOf(keys[b], capacity);
    ids[b] = Arrays.copyOf(ids[b], capacity);
  }

  /** Drops entry {@code i} of bucket {@code b} (its id's position is the caller's to clear). */
  private void removeAt(int b, int i) {
    size--;
    if (b == 0) {
      heapRemoveAt(i);
      return;
    }
    int lastIndex = --sizes[b];
    if (i != lastIndex) {
      long[] t = times[b];
      long[] k = keys[b];
      int[] d = ids[b];
      t[i] = t[lastIndex];
      k[i] = k[lastIndex];
      int id = d[lastIndex];
      d[i] = id;
      if (id >= 0) {
        positions[id] = (b << INDEX_BITS) | i;
      }
    }
    if (lastIndex == 0) {
      nonEmpty &= ~(1L << b);
    }
  }

  // Bucket 0: a binary min-heap on the (priority, sequence) key; its times all equal last.

  private void heapInsert(long key, int id) {
    int i = sizes[0]++;
    if (i == ids[0].length) {
      grow(0);
    }
    heapSiftUp(i, key, id);
  }

  private void heapRemoveAt(int i) {
    int lastIndex = --sizes[0];
    if (i == lastIndex) {
      return;
    }
    long key = keys[0][lastIndex];
    int id = ids[0][lastIndex];
    if (i > 0 && key < keys[0][(i - 1) >>> 1]) {
      heapSiftUp(i, key, id);
    } else {
      heapSiftDown(i, key, id);
    }
  }

  private void heapSiftUp(int i, long key, int id) {
    long[] k = keys[0];
    int[] d = ids[0];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (key >= k[parent]) {
        break;
      }
      heapPlace(i, k[parent], d[parent]);
      i = parent;
    }
    heapPlace(i, key, id);
  }

  private void heapSiftDown(int i, long key, int id) {
    long[] k = keys[0];
    int[] d = ids[0];
    int n = sizes[0];
    while (true) {
      int child = 2 * i + 1;
      if (child >= n) {
        break;
      }
      if (child + 1 < n && k[child + 1] < k[child]) {
        child++;
      }
      if (k[child] >= key) {
        break;
      }
      heapPlace(i, k[child], d[child]);
      i = child;
    }
    heapPlace(i, key, id);
  }

  private void heapPlace(int i, long key, int id) {
    keys[0][i] = key;
    ids[0][i] = id;
    if (id >= 0) {
      positions[id] = i;
    }
  }
}
