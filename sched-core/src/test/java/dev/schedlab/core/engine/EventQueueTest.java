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
  void radix_randomInsertions_pollInTimePrioritySequenceOrder() {
    RadixEventQueue queue = new RadixEventQueue();
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

    final RadixEventQueue queue = new RadixEventQueue();
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
  void radix_randomMovesAndRemovals_matchReferenceWithoutTheReplacedEntries() {
    Checked checked = new Checked(40);
    SplittableRandom random = new SplittableRandom(5);
    for (int step = 0; step < 20_000; step++) {
      // Due times in a short window, so that many tie on time.
      checked.randomStep(random, clock -> clock + random.nextInt(100));
    }
  }

  @Test
  void radix_dueTimesFromNanosecondsToSeconds_matchReferenceAsTheClockAdvances() {
    Checked checked = new Checked(64);
    SplittableRandom random = new SplittableRandom(7);
    for (int step = 0; step < 40_000; step++) {
      // Every bucket: due times from the clock itself to 2^40 ns ahead, many tied.
      checked.randomStep(
          random,
          clock ->
              switch (random.nextInt(4)) {
                case 0 -> clock + random.nextLong(1L << random.nextInt(41));
                case 1 -> clock + random.nextInt(3);
                case 2 -> clock + 1000 * random.nextInt(4);
                default -> clock;
              });
    }
  }

  @Test
  void radix_manyEventsOnOneNanosecond_pollInPriorityAndSequenceOrder() {
    Checked checked = new Checked(2000);
    SplittableRandom random = new SplittableRandom(11);
    for (int round = 0; round < 20; round++) {
      long at = checked.clock + 1 + random.nextInt(5000);
      // A GEMM team's tiles end together: thousands of timers at one time, then moved around it.
      for (int slot = 0; slot < 2000; slot++) {
        checked.addOrMove(slot, at);
      }
      for (int i = 0; i < 500; i++) {
        checked.add(at, random.nextInt(4));
        checked.addOrMove(random.nextInt(2000), at + random.nextInt(2));
        if (random.nextInt(3) == 0) {
          checked.remove(random.nextInt(2000));
        }
      }
      for (int i = 0; i < 1500; i++) {
        checked.pollAndCheck();
        if (random.nextInt(4) == 0) {
          // Added at the clock while its instant is being drained.
          checked.addOrMove(random.nextInt(2000), checked.clock);
        }
      }
    }
    while (!checked.reference.isEmpty()) {
      checked.pollAndCheck();
    }
    assertThat(checked.queue.isEmpty()).isTrue();
  }

  @Test
  void radix_eventBetweenTheClockAndAPeekedEvent_comesFirst() {
    // The loop peeks at the next event and stops at its limit without firing it; a test may then
    // schedule between the clock and that event.
    Checked checked = new Checked(8);
    checked.addOrMove(0, 1_000_000);
    checked.add(1_000_000, 1);
    checked.addOrMove(1, 5_000_000);
    assertThat(checked.queue.peekTime()).isEqualTo(1_000_000);
    checked.add(400, 2);
    checked.addOrMove(2, 1_000_000);
    checked.addOrMove(1, 399);
    while (!checked.reference.isEmpty()) {
      checked.pollAndCheck();
    }
  }

  @Test
  void loop_runUntilALimitBeforeTheNextEvent_thenEarlierEventsFireFirst() {
    EventLoop loop = new EventLoop(new RadixEventQueue());
    Event late = new Event.JiffyTick(2);
    Event early = new Event.JiffyTick(1);
    loop.schedule(1_000, late);
    loop.runUntil(500, null);
    loop.schedule(600, early);
    List<String> fired = new ArrayList<>();
    loop.run(new Recorder(fired));
    assertThat(fired).containsExactly("jiffy 1", "jiffy 2");
  }

  /**
   * Logs the jiffy ticks and CPU timers it is handed, and each {@link Event.Handler#touchAhead} as
   * the sorted CPUs of its timers; nothing else is scheduled in these tests.
   */
  private record Recorder(List<String> log) implements Event.Handler {
    @Override
    public void onJiffy(long jiffy) {
      log.add("jiffy " + jiffy);
    }

    @Override
    public void onSkewedTick() {}

    @Override
    public void onSleepEnd(int task, long token) {}

    @Override
    public void onCpuTimer(int cpu) {
      log.add("fire " + cpu);
    }

    @Override
    public void onKickIpi(int cpu) {}

    @Override
    public void onReschedIpi(int cpu) {}

    @Override
    public void onActiveBalance(int busiestCpu, int targetCpu) {}

    @Override
    public void onPhaseEnd(int cpu, long token) {}

    @Override
    public void onBackgroundIrq(int source) {}

    @Override
    public void onEnd() {}

    @Override
    public void touchAhead(Event[] events, int n) {
      List<Integer> cpus = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        cpus.add(((Event.CpuTimer) events[i]).cpu());
      }
      cpus.sort(null);
      log.add("touch " + cpus);
    }
  }

  @Test
  void radix_negativeTime_isRefused() {
    RadixEventQueue queue = new RadixEventQueue();
    assertThatThrownBy(() -> queue.add(-1, 0, 0, new Event.End()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("time -1");
  }

  @Test
  void loop_sameInstant_lowerPriorityFiresFirst() {
    EventLoop loop = new EventLoop(new RadixEventQueue());
    Event phaseEnd = new Event.PhaseEnd(0, 0);
    Event tick = new Event.JiffyTick(1);
    loop.schedule(10, phaseEnd);
    loop.schedule(10, tick);
    RadixEventQueue probe = new RadixEventQueue();
    probe.add(10, phaseEnd.priority(), 0, phaseEnd);
    probe.add(10, tick.priority(), 1, tick);
    assertThat(probe.poll()).isSameAs(tick);
  }

  @Test
  void loop_eventBeforeClock_throws() {
    EventLoop loop = new EventLoop(new RadixEventQueue());
    loop.runUntil(100, null);
    assertThat(loop.now()).isEqualTo(100);
    assertThatThrownBy(() -> loop.schedule(99, new Event.End()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("before the clock");
  }

  @Test
  void loop_eventAtClock_isAccepted() {
    EventLoop loop = new EventLoop(new RadixEventQueue());
    loop.runUntil(100, null);
    loop.schedule(100, new Event.End());
  }

  @Test
  void radix_earliest_isEveryEventAtThePeekTime() {
    SplittableRandom random = new SplittableRandom(24);
    RadixEventQueue queue = new RadixEventQueue();
    java.util.Map<Event, Long> pending = new java.util.IdentityHashMap<>();
    long sequence = 0;
    for (int i = 0; i < 3000; i++) {
      long time = random.nextInt(200);
      Event event = i % 3 == 0 ? new Event.CpuTimer(i) : new Event.JiffyTick(i);
      if (i % 3 == 0) {
        queue.addOrMove(i, time, event.priority(), sequence++, event);
      } else {
        queue.add(time, event.priority(), sequence++, event);
      }
      pending.put(event, time);
    }
    Event[] all = new Event[4096];
    Event[] few = new Event[3];
    while (!queue.isEmpty()) {
      long now = queue.peekTime();
      java.util.Set<Event> atNow =
          java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      pending.forEach(
          (e, t) -> {
            if (t == now) {
              atNow.add(e);
            }
          });
      int n = queue.earliest(all);
      java.util.Set<Event> seen =
          java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      for (int i = 0; i < n; i++) {
        seen.add(all[i]);
      }
      assertThat(n).isEqualTo(atNow.size());
      assertThat(seen).isEqualTo(atNow);
      int m = queue.earliest(few);
      assertThat(m).isEqualTo(Math.min(3, atNow.size()));
      for (int i = 0; i < m; i++) {
        assertThat(atNow).contains(few[i]);
      }
      assertThat(queue.peekTime()).isEqualTo(now);
      pending.remove(queue.poll());
    }
    assertThat(pending).isEmpty();
  }

  @Test
  void loop_touchAhead_seesAnInstantsEventsBeforeTheFirstFires() {
    EventLoop loop = new EventLoop(new RadixEventQueue());
    loop.touchAhead(8);
    List<String> log = new ArrayList<>();
    loop.schedule(10, new Event.CpuTimer(1));
    loop.schedule(10, new Event.CpuTimer(2));
    loop.schedule(10, new Event.CpuTimer(3));
    loop.schedule(20, new Event.CpuTimer(4));
    loop.run(new Recorder(log));
    assertThat(log).containsExactly("touch [1, 2, 3]", "fire 1", "fire 2", "fire 3", "fire 4");
  }
}
