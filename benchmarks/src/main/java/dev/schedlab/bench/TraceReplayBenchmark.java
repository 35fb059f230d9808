package dev.schedlab.bench;

import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import dev.schedlab.workloads.trace.TraceImport;
import dev.schedlab.workloads.trace.TraceModel;
import dev.schedlab.workloads.trace.TraceWorkloadProvider;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code wl.trace} at scale, on a {@link SchedTraceGenerator} trace of {@code tasks} tasks on 8
 * CPUs over {@code seconds}:
 *
 * <ul>
 *   <li>{@code importTrace}: the trace's text (in memory) to a model, ms per import; the import
 *       rate is the trace's events over that time.
 *   <li>{@code replayStep}: one step of a replayed task, {@link TaskProgram#next} of the programs
 *       {@code wl.trace} made, as the engine calls it when a task's previous step is done: run a
 *       burst, sleep, block until the waker's point, wake a task, fork, exit. The programs run
 *       against a minimal host (a ring of runnable tasks, no simulated time), so the figure is the
 *       replay's own cost per engine event, and {@code gc.alloc.rate.norm} under {@code -prof gc}
 *       is what a step allocates: nothing. Enough replays for every warm-up and measured step are
 *       built in the set-up, so no measured step builds one.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TraceReplayBenchmark {

  /** Tasks in the trace. */
  @Param({"1000"})
  public int tasks;

  /** The trace's length, s. */
  @Param({"1"})
  public double seconds;

  private byte[] text;
  private TraceModel model;
  private Driver[] replays;
  private int current;

  /** Generates the trace, imports it, builds the replays. */
  @Setup
  public void setUp() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SchedTraceGenerator(tasks, 8, seconds, 1).write(out);
    text = out.toByteArray();
    model = TraceImport.text(new ByteArrayInputStream(text), "generated", null);
    Topology topology = Shape.parse("1n1l4c2t").toTopology(SiblingNumbering.SPLIT);
    int traced = model.tasks().size();
    Driver probe = new Driver(TraceWorkloadProvider.replay(model, topology), traced);
    long steps = 0;
    while (probe.step()) {
      steps++;
    }
    if (steps == 0) {
      throw new IllegalStateException("the generated trace replays in no steps");
    }
    // Enough for 0.8 s of steps at 10 ns each (warm-up and measurement are 8 x 100 ms).
    int needed = (int) Math.min(4000, 1 + 80_000_000 / steps);
    replays = new Driver[needed];
    for (int i = 0; i < needed; i++) {
      replays[i] = new Driver(TraceWorkloadProvider.replay(model, topology), traced);
    }
  }

  /** Fails the run when the steps outran the replays built: the last figure would be empty. */
  @TearDown
  public void checkReplaysLasted() {
    if (current == replays.length - 1 && !replays[current].step()) {
      throw new IllegalStateException(
          "the "
              + replays.length
              + " replays built ran out:"
              + " replayStep measured empty steps; build more");
    }
  }

  /** One import of the trace's text. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Measurement(iterations = 3, time = 5)
  public TraceModel importTrace() throws IOException {
    return TraceImport.text(new ByteArrayInputStream(text), "generated", null);
  }

  /** One step of a replayed task's program. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  @Warmup(iterations = 3, time = 100, timeUnit = TimeUnit.MILLISECONDS)
  @Measurement(iterations = 5, time = 100, timeUnit = TimeUnit.MILLISECONDS)
  public boolean replayStep() {
    if (replays[current].step()) {
      return true;
    }
    current = Math.min(current + 1, replays.length - 1);
    return replays[current].step();
  }

  /**
   * Runs a replay's programs without an engine: the runnable tasks in a ring, each step taken at
   * once; a blocked task rejoins the ring when woken. Every array is sized in the constructor, so a
   * step allocates nothing of its own.
   */
  static final class Driver implements WorkloadHost, TaskControl {
    private final TaskProgram[] programs;
    private final boolean[] blocked;
    private final int[] ring;
    private int head;
    private int size;
    private int count;
    private int running;
    private boolean requeue;

    Driver(Workload replay, int tasks) {
      int capacity = tasks + 1;
      this.programs = new TaskProgram[capacity];
      this.blocked = new boolean[capacity];
      this.ring = new int[capacity];
      Arrays.fill(ring, -1);
      replay.start(this);
    }

    /** Takes one step of the next runnable task; false when none is left. */
    boolean step() {
      if (size == 0) {
        return false;
      }
      running = ring[head];
      head = (head + 1) % ring.length;
      size--;
      requeue = true;
      programs[running].next(this);
      if (requeue) {
        push(running);
      }
      return true;
    }

    private void push(int task) {
      ring[(head + size) % ring.length] = task;
      size++;
    }

    private int add(TaskProgram program) {
      int id = count++;
      programs[id] = program;
      push(id);
      return id;
    }

    @Override
    public long nowNs() {
      return 0;
    }

    @Override
    public int spawn(TaskSpec spec, TaskProgram program, int parentCpu) {
      return add(program);
    }

    @Override
    public int taskId() {
      return running;
    }

    @Override
    public void run(double work) {
      // The burst is done at once.
    }

    @Override
    public void sleep(long ns) {
      // The sleep is over at once.
    }

    @Override
    public void block() {
      requeue = false;
      blocked[running] = true;
    }

    @Override
    public void exit() {
      requeue = false;
    }

    @Override
    public void wake(int taskId) {
      if (blocked[taskId]) {
        blocked[taskId] = false;
        push(taskId);
      }
    }

    @Override
    public int spawn(TaskSpec spec, TaskProgram program) {
      return add(program);
    }
  }
}
