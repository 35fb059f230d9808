package dev.schedlab.core.engine;

import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * The engine's event queue before the radix heap (sched-core's {@code RadixEventQueue}), kept here
 * as a baseline of {@link EventQueueBenchmark} and the reference its set-up checks the radix heap
 * against.
 *
 * <p>Original description: Two four-ary min-heaps over primitive arrays, specialised for the
 * engine's event mix: a few hundred to a few thousand pending events (one slotted timer per CPU,
 * the jiffy tick, sleep ends, IPIs), nearly every fired event followed by a re-arm at a later time.
 * Removing the minimum dominates, and its cost is the walk down.
 *
 * <ul>
 *   <li><b>Four-ary.</b> Four children per node halve the depth of a binary heap, and entry {@code
 *       i}'s time and (priority, sequence) key sit side by side in one array ({@code keys[2i]},
 *       {@code keys[2i + 1]}), so the four children of a node are eight consecutive longs, one or
 *       two cache lines. Comparing allocates nothing and touches no event object.
 *   <li><b>Ids, not events.</b> A heap entry holds an {@code int} id: a slot's own number (its
 *       event in {@code slotEvents}) or the complement of a loose event's index in {@code
 *       looseEvents}. An event reference is stored once when it is added and cleared once when it
 *       is taken out, so the sift loops store only primitives. A reference store into an array
 *       costs a garbage-collector write barrier (G1's card marking, with a fence when the card is
 *       not yet dirty); storing the moved event at every level made the heap's {@code place} 10 %
 *       of a Vera GEMM run's samples.
 *   <li><b>A near tier and a far tier.</b> An event due within {@link #NEAR_HORIZON_NS} of the last
 *       polled event goes to the near heap, a later one to the far heap; {@link #poll} takes the
 *       smaller of the two tops. On a Vera GEMM about 350 of the ~430 pending events are sleep ends
 *       of background threads 10 ms to seconds away; in one heap each removal's walk down passes
 *       through them, in the near heap (~90 entries, 1.5 KB of keys) it is a level shorter and
 *       stays in the L1 cache. A far event is never moved to the near heap: it is polled from the
 *       far heap when its turn comes. Slotted entries (see {@link #addOrMove}) know their tier and
 *       position, so they are moved, moved across tiers or removed in O(log n).
 * </ul>
 *
 * <p>The order is the total (time, priority, sequence) order of {@link EventQueue}, so any heap
 * shape, tier split or horizon pops the same sequence of events: the engine's results do not depend
 * on the queue.
 */
final class HeapEventQueue implements EventQueue {

  /**
   * Events due at least this long (2^24 ns, 16.8 ms) after the last polled one go to the far heap.
   * A tuning of the data structure only (see the class comment): any value gives the same order.
   */
  static final long NEAR_HORIZON_NS = 1L << 24;

  private static final int SEQUENCE_BITS = 56;
  private static final int INITIAL_CAPACITY = 256;

  /** Marks a position in {@link #far}; positions in {@link #near} have it clear. */
  private static final int FAR_BIT = 1 << 30;

  private final Tier near = new Tier(0);
  private final Tier far = new Tier(FAR_BIT);

  /** The event pending under each slot, or null. */
  private Event[] slotEvents = new Event[0];

  /** Each slot's pending entry: its heap index, {@link #FAR_BIT} set in the far tier; or -1. */
  private int[] positions = new int[0];

  /** Events added without a slot, by index; free indexes are on {@link #free}. */
  private Event[] looseEvents = new Event[INITIAL_CAPACITY];

  /** A stack of the free indexes of {@link #looseEvents}: {@code free[0..freeCount)}. */
  private int[] free = new int[INITIAL_CAPACITY];

  private int freeCount;

  /** Indexes of {@link #looseEvents} handed out so far (the rest were never used). */
  private int looseUsed;

  /** The time of the last polled event; the loop adds nothing before it. */
  private long floor;

  @Override
  public void add(long time, int priority, long sequence, Event event) {
    long key = key(priority, sequence);
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
    tierFor(time).insert(time, key, ~index);
  }

  @Override
  public void addOrMove(int slot, long time, int priority, long sequence, Event event) {
    if (slot < 0) {
      throw new IllegalArgumentException("slot " + slot + " is negative");
    }
    long key = key(priority, sequence);
    if (slot >= positions.length) {
      int old = positions.length;
      int capacity = Math.max(slot + 1, 2 * old);
      positions = Arrays.copyOf(positions, capacity);
      slotEvents = Arrays.copyOf(slotEvents, capacity);
      Arrays.fill(positions, old, capacity, -1);
    }
    slotEvents[slot] = event;
    int position = positions[slot];
    Tier target = tierFor(time);
    if (position < 0) {
      target.insert(time, key, slot);
      return;
    }
    Tier current = (position & FAR_BIT) != 0 ? far : near;
    int i = position & ~FAR_BIT;
    if (current == target) {
      current.move(i, time, key, slot);
    } else {
      current.removeAt(i);
      target.insert(time, key, slot);
    }
  }

  @Override
  public void remove(int slot) {
    if (slot < 0 || slot >= positions.length || positions[slot] < 0) {
      return;
    }
    int position = positions[slot];
    positions[slot] = -1;
    slotEvents[slot] = null;
    ((position & FAR_BIT) != 0 ? far : near).removeAt(position & ~FAR_BIT);
  }

  private Tier tierFor(long time) {
    return time - floor < NEAR_HORIZON_NS ? near : far;
  }

  private static long key(int priority, long sequence) {
    if (priority < 0 || priority > 127 || sequence < 0 || sequence >= (1L << SEQUENCE_BITS)) {
      throw new IllegalArgumentException(
          "priority " + priority + " outside 0..127 or sequence " + sequence + " out of range");
    }
    return ((long) priority << SEQUENCE_BITS) | sequence;
  }

  @Override
  public boolean isEmpty() {
    return near.size == 0 && far.size == 0;
  }

  @Override
  public long peekTime() {
    return first().keys[0];
  }

  /** The tier holding the earliest event. */
  private Tier first() {
    if (far.size == 0) {
      if (near.size == 0) {
        throw new NoSuchElementException("no pending event");
      }
      return near;
    }
    if (near.size == 0) {
      return far;
    }
    long[] n = near.keys;
    long[] f = far.keys;
    return less(f[0], f[1], n[0], n[1]) ? far : near;
  }

  @Override
  public Event poll() {
    Tier tier = first();
    floor = tier.keys[0];
    int topId = tier.ids[0];
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
    tier.removeAt(0);
    return top;
  }

  @Override
  public int size() {
    return near.size + far.size;
  }

  private static boolean less(long timeA, long keyA, long timeB, long keyB) {
    return timeA < timeB || (timeA == timeB && keyA < keyB);
  }

  /** One four-ary heap of ids; slotted ids' positions are kept in {@link #positions}. */
  private final class Tier {

    /** Or-ed into the positions this heap records. */
    private final int positionBit;

    /** Entry {@code i}: time at {@code 2i}, (priority, sequence) key at {@code 2i + 1}. */
    long[] keys = new long[2 * INITIAL_CAPACITY];

    /** Entry {@code i}'s id: a slot ({@code >= 0}) or {@code ~index} of a loose event. */
    int[] ids = new int[INITIAL_CAPACITY];

    int size;

    Tier(int positionBit) {
      this.positionBit = positionBit;
    }

    void insert(long time, long key, int id) {
      if (size == ids.length) {
        keys = Arrays.copyOf(keys, 4 * size);
        ids = Arrays.copyOf(ids, 2 * size);
      }
      siftUp(size++, time, key, id);
    }

    /** Gives entry {@code i} a new key. */
    void move(int i, long time, long key, int id) {
      if (less(time, key, keys[2 * i], keys[2 * i + 1])) {
        siftUp(i, time, key, id);
      } else {
        siftDown(i, time, key, id);
      }
    }

    /** Drops entry {@code i} (its id's position is the caller's to clear). */
    void removeAt(int i) {
      int last = --size;
      if (i == last) {
        return;
      }
      long time = keys[2 * last];
      long key = keys[2 * last + 1];
      int id = ids[last];
      int parent = (i - 1) >>> 2;
      if (i > 0 && less(time, key, keys[2 * parent], keys[2 * parent + 1])) {
        siftUp(i, time, key, id);
      } else {
        siftDown(i, time, key, id);
      }
    }

    /** Places the entry at hole {@code i} or above it. */
    private void siftUp(int i, long time, long key, int id) {
      long[] k = keys;
      while (i > 0) {
        int parent = (i - 1) >>> 2;
        long parentTime = k[2 * parent];
        long parentKey = k[2 * parent + 1];
        if (!less(time, key, parentTime, parentKey)) {
          break;
        }
        place(i, parentTime, parentKey, ids[parent]);
        i = parent;
      }
      place(i, time, key, id);
    }

    /** Places the entry at hole {@code i} or below it, among the first {@link #size} entries. */
    private void siftDown(int i, long time, long key, int id) {
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
        place(i, bestTime, bestKey, ids[best]);
        i = best;
      }
      place(i, time, key, id);
    }

    private void place(int i, long time, long key, int id) {
      keys[2 * i] = time;
      keys[2 * i + 1] = key;
      ids[i] = id;
      if (id >= 0) {
        positions[id] = i | positionBit;
      }
    }
  }
}
