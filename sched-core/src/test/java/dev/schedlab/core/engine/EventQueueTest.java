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

  /**
   * The queue under test beside a reference (a {@link java.util.TreeSet} in the total order, with a
   * slot's earlier entry dropped when it moves): each operation is applied to both, and every poll
   * is checked against the reference.
   */
  private static final class Checked {
    record Entry(long time, int priority, long sequence, Event event, int slot) {}

    final HeapEventQueue queue = new HeapEventQueue();
    final java.util.TreeSet<Entry> reference =
        new java.util.TreeSet<>(
            java.util.Comparator.comparingLong(Entry::time)
                .thenComparingInt(Entry::priority)
                .thenComparingLong(Entry::sequence));
    final Entry[] bySlot;
    long sequence;
    long clock;

    Checked(int slots) {
      bySlot = new Entry[slots];
    }

    void add(long time, int priority) {
      Event event = new Event.JiffyTick(sequence);
      reference.add(new Entry(time, priority, sequence, event, -1));
      queue.add(time, priority, sequence++, event);
    }

    void addOrMove(int slot, long time) {
      Event event = new Event.CpuTimer(slot);
      if (bySlot[slot] != null) {
        reference.remove(bySlot[slot]);
      }
      bySlot[slot] = new Entry(time, 2, sequence, event, slot);
      reference.add(bySlot[slot]);
      queue.addOrMove(slot, time, 2, sequence++, event);
    }

    void remove(int slot) {
      if (bySlot[slot] != null) {
        reference.remove(bySlot[slot]);
        bySlot[slot] = null;
      }
      queue.remove(slot);
    }

    /** Polls both if anything is pending; the clock moves to the polled time. */
    void pollAndCheck() {
      if (reference.isEmpty()) {
        return;
      }
      Entry expected = reference.pollFirst();
      if (expected.slot() >= 0) {
        bySlot[expected.slot()] = null;
      }
      assertThat(queue.peekTime()).isEqualTo(expected.time());
      assertThat(queue.poll()).isSameAs(expected.event());
      clock = expected.time();
    }

    /**
     * One random step: an unslotted add, a slotted add or move, a removal or a poll, at a due time
     * {@code time} picks from the clock.
     */
    void randomStep(SplittableRandom random, java.util.function.LongUnaryOperator time) {
      int action = random.nextInt(10);
      int slot = random.nextInt(bySlot.length);
      long due = time.applyAsLong(clock);
      if (action < 3) {
        add(due, random.nextInt(4));
      } else if (action < 6) {
        addOrMove(slot, due);
      } else if (action < 7) {
        remove(slot);
      } else {
        pollAndCheck();
      }
      assertThat(queue.size()).isEqualTo(reference.size());
    }
  }

  @Test
  void heap_randomMovesAndRemovals_matchReferenceWithoutTheReplacedEntries() {
    Checked checked = new Checked(40);
    SplittableRandom random = new SplittableRandom(5);
    for (int step = 0; step < 20_000; step++) {
      // Due times in a short window, so that many tie on time.
      checked.randomStep(random, clock -> clock + random.nextInt(100));
    }
  }

  @Test
  void heap_eventsAcrossBothTiers_matchReferenceAsTheClockAdvances() {
    Checked checked = new Checked(64);
    HeapEventQueue queue = checked.queue;
    SplittableRandom random = new SplittableRandom(7);
    long horizon = HeapEventQueue.NEAR_HORIZON_NS;
    int farSeen = 0;
    for (int step = 0; step < 40_000; step++) {
      // Due times from the clock to four horizons ahead, some at the horizon's edge or tied.
      checked.randomStep(
          random,
          clock ->
              switch (random.nextInt(4)) {
                case 0 -> clock + random.nextLong(4 * horizon);
                case 1 -> clock + horizon - 1 + random.nextInt(3);
                case 2 -> clock + random.nextInt(1000);
                default -> clock;
              });
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
