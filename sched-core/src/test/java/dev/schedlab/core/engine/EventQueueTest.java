package dev.schedlab.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The executive orders events totally by (time, priority, sequence) and refuses an event older
 * than its clock.
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
      Event event = new Event.CpuTimer(i, i);
      entries.add(new Entry(time, priority, i, event));
      queue.add(time, priority, i, event);
    }
    entries.sort(
        (a, b) -> a.time != b.time
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
