package dev.schedlab.core.engine;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The engine's event queue under the engine's event mix: one fired event and what the engine
 * schedules after it, per operation. Every CPU has a slotted timer ({@link Event.CpuTimer}, the end
 * of the running task's step or its next speed change), re-armed when it fires at 1 µs to 2 ms
 * ahead (spins to GEMM chunks); half the fired timers also move another CPU's timer (a wakeup or a
 * sibling's speed change re-arms it), one in eight removes one (the CPU went idle) and a removed
 * timer is re-armed by a later move; one in five adds an unslotted event 1-50 µs ahead (an IPI, a
 * sleep end, a phase end); the jiffy tick is re-added every millisecond.
 *
 * <p>{@code radix} is sched-core's {@link RadixEventQueue}; {@code fourAry} is the four-ary heap it
 * replaced ({@link HeapEventQueue}) and {@code binary} the binary heap before that ({@link
 * BinaryHeapEventQueue}), both kept here. All see the same random stream (fixed seed), so they do
 * the same work; set-up checks that they pop the same events in the same order. Unlike the engine,
 * this mix has almost no ties on time (its due times are drawn to the nanosecond), so it does not
 * exercise the radix heap's bucket 0 the way a GEMM's synchronised tiles do. This class sits in the
 * engine's package because the queue is package-private there; the package's {@code
 * package-info.java} is sched-core's.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class EventQueueBenchmark {

  private static final long SEED = 20_261_201L;
  private static final long JIFFY_NS = 1_000_000L;
  private static final int JIFFY_PRIORITY = new Event.JiffyTick(0).priority();
  private static final int TIMER_PRIORITY = new Event.CpuTimer(0).priority();
  private static final int IPI_PRIORITY = new Event.ReschedIpi(0).priority();

  /** Pending CPU timers: 352 is NVIDIA Vera, 8192 the widest machine the engine models. */
  @Param({"352", "8192"})
  public int cpus;

  @Param({"radix", "fourAry", "binary"})
  public String queue;

  private EventQueue events;
  private Event.CpuTimer[] timers;
  private Event.ReschedIpi[] ipis;
  private Event.JiffyTick jiffy;
  private SplittableRandom random;
  private long now;
  private long sequence;

  @Setup
  public void setUp() {
    EventQueueBenchmark reference = new EventQueueBenchmark();
    reference.fill(new BinaryHeapEventQueue(), cpus);
    EventQueueBenchmark heap = new EventQueueBenchmark();
    heap.fill(new HeapEventQueue(), cpus);
    EventQueueBenchmark radix = new EventQueueBenchmark();
    radix.fill(new RadixEventQueue(), cpus);
    for (int i = 0; i < 200_000; i++) {
      Event expected = reference.fire();
      for (EventQueueBenchmark check : new EventQueueBenchmark[] {heap, radix}) {
        Event actual = check.fire();
        if (!actual.equals(expected) || check.now != reference.now) {
          throw new IllegalStateException(
              "the queues diverge at event " + i + ": " + actual + ", " + expected);
        }
      }
    }
    fill(
        switch (queue) {
          case "binary" -> new BinaryHeapEventQueue();
          case "fourAry" -> new HeapEventQueue();
          default -> new RadixEventQueue();
        },
        cpus);
  }

  /** An engine's queue at start: the first jiffy and every CPU's timer pending. */
  private void fill(EventQueue queue, int cpuCount) {
    events = queue;
    timers = new Event.CpuTimer[cpuCount];
    ipis = new Event.ReschedIpi[cpuCount];
    jiffy = new Event.JiffyTick(0);
    random = new SplittableRandom(SEED);
    now = 0;
    sequence = 0;
    queue.add(0, JIFFY_PRIORITY, sequence++, jiffy);
    for (int cpu = 0; cpu < cpuCount; cpu++) {
      timers[cpu] = new Event.CpuTimer(cpu);
      ipis[cpu] = new Event.ReschedIpi(cpu);
      queue.addOrMove(cpu, random.nextLong(2_000_000), TIMER_PRIORITY, sequence++, timers[cpu]);
    }
  }

  /** One fired event and the engine's follow-ups. */
  @Benchmark
  public Event fire() {
    now = events.peekTime();
    Event event = events.poll();
    followUp(event);
    return event;
  }

  private void followUp(Event event) {
    if (event instanceof Event.JiffyTick) {
      events.add(now + JIFFY_NS, JIFFY_PRIORITY, sequence++, jiffy);
      return;
    }
    if (!(event instanceof Event.CpuTimer timer)) {
      return;
    }
    int cpu = timer.cpu();
    events.addOrMove(
        cpu, now + 1_000 + random.nextLong(2_000_000), TIMER_PRIORITY, sequence++, timer);
    int draw = random.nextInt(40);
    if (draw < 20) {
      int other = random.nextInt(timers.length);
      events.addOrMove(
          other,
          now + 1_000 + random.nextLong(2_000_000),
          TIMER_PRIORITY,
          sequence++,
          timers[other]);
    } else if (draw < 25) {
      events.remove(random.nextInt(timers.length));
    }
    if (random.nextInt(5) == 0) {
      events.add(now + 1_000 + random.nextLong(49_000), IPI_PRIORITY, sequence++, ipis[cpu]);
    }
  }
}
