package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The executive orders events totally by (time, priority, sequence) and refuses an event older than
 * its clock; a slotted event moved or removed in place leaves the same order as a reference that
 * drops the replaced entry.
 */
final class EventQueueTest {

  @Test
  void heap_randomInsertions_pollInTimePrioritySequenceOrder() {
    HeapEventQueue queue = new HeapEventQueue();
    SplittableRandom random = new SplittableRandom(3);
    record Entry(long time, int priority, long sequence, Event event) {}
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      long time = random.nextInt(50);
      int priority = random.nextInt(4);
      Event event = new Event.JiffyTick(i);
      entries.add(new Entry(time, priority, i, event));
      queue.add(time, priority, i, event);
    }
    entries.sort(
        (a, b) ->
            a.time != b.time
                ? Long.compare(a.time, b.time)
                : a.priority != b.priority
                    ? Integer.compare(a.priority, b.priority)
                    : Long.compare(a.sequence, b.sequence));
    for (Entry expected : entries) {
      assertThat(queue.peekTime()).isEqualTo(expected.time);
      assertThat(queue.poll()).isSameAs(expected.event);
    }
    assertThat(queue.isEmpty()).isTrue();
  }

  @Test
  void heap_randomMovesAndRemovals_matchReferenceWithoutTheReplacedEntries() {
    HeapEventQueue queue = new HeapEventQueue();
    SplittableRandom random = new SplittableRandom(5);
    record Entry(long time, int priority, long sequence, Event event, int slot) {}
    java.util.Comparator<Entry> order =
        java.util.Comparator.comparingLong(Entry::time)
            .thenComparingInt(Entry::priority)
            .thenComparingLong(Entry::sequence);
    java.util.TreeSet<Entry> reference = new java.util.TreeSet<>(order);
    Entry[] bySlot = new Entry[40];
    long sequence = 0;
    for (int step = 0; step < 20_000; step++) {
      int action = random.nextInt(10);
      long time = random.nextInt(100);
      int priority = random.nextInt(4);
      if (action < 3) {
        Event event = new Event.JiffyTick(sequence);
        reference.add(new Entry(time, priority, sequence, event, -1));
        queue.add(time, priority, sequence++, event);
      } else if (action < 7) {
        int slot = random.nextInt(bySlot.length);
        Event event = new Event.CpuTimer(slot);
        if (bySlot[slot] != null) {
          reference.remove(bySlot[slot]);
        }
        bySlot[slot] = new Entry(time, 2, sequence, event, slot);
        reference.add(bySlot[slot]);
        queue.addOrMove(slot, time, 2, sequence++, event);
      } else if (action < 8) {
        int slot = random.nextInt(bySlot.length);
        if (bySlot[slot] != null) {
          reference.remove(bySlot[slot]);
          bySlot[slot] = null;
        }
        queue.remove(slot);
      } else if (!reference.isEmpty()) {
        Entry expected = reference.pollFirst();
        if (expected.slot() >= 0) {
          bySlot[expected.slot()] = null;
        }
        assertThat(queue.peekTime()).isEqualTo(expected.time());
        assertThat(queue.poll()).isSameAs(expected.event());
      }
      assertThat(queue.size()).isEqualTo(reference.size());
    }
  }

  @Test
  void heap_eventsAcrossBothTiers_matchReferenceAsTheClockAdvances() {
    HeapEventQueue queue = new HeapEventQueue();
    SplittableRandom random = new SplittableRandom(7);
    record Entry(long time, int priority, long sequence, Event event, int slot) {}
    java.util.Comparator<Entry> order =
        java.util.Comparator.comparingLong(Entry::time)
            .thenComparingInt(Entry::priority)
            .thenComparingLong(Entry::sequence);
    java.util.TreeSet<Entry> reference = new java.util.TreeSet<>(order);
    Entry[] bySlot = new Entry[64];
    long horizon = HeapEventQueue.NEAR_HORIZON_NS;
    long clock = 0;
    long sequence = 0;
    int farSeen = 0;
    for (int step = 0; step < 40_000; step++) {
      int action = random.nextInt(10);
      // Due times from the clock to four horizons ahead, some at the horizon's edge or tied.
      long time =
          switch (random.nextInt(4)) {
            case 0 -> clock + random.nextLong(4 * horizon);
            case 1 -> clock + horizon - 1 + random.nextInt(3);
            case 2 -> clock + random.nextInt(1000);
            default -> clock;
          };
      int priority = random.nextInt(4);
      if (action < 3) {
        Event event = new Event.JiffyTick(sequence);
        reference.add(new Entry(time, priority, sequence, event, -1));
        queue.add(time, priority, sequence++, event);
      } else if (action < 6) {
        int slot = random.nextInt(bySlot.length);
        Event event = new Event.CpuTimer(slot);
        if (bySlot[slot] != null) {
          reference.remove(bySlot[slot]);
        }
        bySlot[slot] = new Entry(time, 2, sequence, event, slot);
        reference.add(bySlot[slot]);
        queue.addOrMove(slot, time, 2, sequence++, event);
      } else if (action < 7) {
        int slot = random.nextInt(bySlot.length);
        if (bySlot[slot] != null) {
          reference.remove(bySlot[slot]);
          bySlot[slot] = null;
        }
        queue.remove(slot);
      } else if (!reference.isEmpty()) {
        Entry expected = reference.pollFirst();
        if (expected.slot() >= 0) {
          bySlot[expected.slot()] = null;
        }
        assertThat(queue.peekTime()).isEqualTo(expected.time());
        assertThat(queue.poll()).isSameAs(expected.event());
        clock = expected.time();
      }
      assertThat(queue.size()).isEqualTo(reference.size());
      farSeen = Math.max(farSeen, queue.farSize());
    }
    assertThat(farSeen).as("the far tier was used").isGreaterThan(10);
    assertThat(queue.size() - queue.farSize()).as("the near tier holds the rest").isPositive();
  }

  @Test
  void loop_sameInstant_lowerPriorityFiresFirst() {
    EventLoop loop = new EventLoop(new HeapEventQueue());
    Event phaseEnd = new Event.PhaseEnd(0, 0);
    Event tick = new Event.JiffyTick(1);
    loop.schedule(10, phaseEnd);
    loop.schedule(10, tick);
    HeapEventQueue probe = new HeapEventQueue();
    probe.add(10, phaseEnd.priority(), 0, phaseEnd);
    probe.add(10, tick.priority(), 1, tick);
    assertThat(probe.poll()).isSameAs(tick);
  }

  @Test
  void loop_eventBeforeClock_throws() {
    EventLoop loop = new EventLoop(new HeapEventQueue());
    loop.runUntil(100, null);
    assertThat(loop.now()).isEqualTo(100);
    assertThatThrownBy(() -> loop.schedule(99, new Event.End()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("before the clock");
  }

  @Test
  void loop_eventAtClock_isAccepted() {
    EventLoop loop = new EventLoop(new HeapEventQueue());
    loop.runUntil(100, null);
    loop.schedule(100, new Event.End());
  }
}
