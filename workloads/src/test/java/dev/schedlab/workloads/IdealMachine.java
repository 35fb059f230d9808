package dev.schedlab.workloads;

import dev.schedlab.spi.MachineFacts;
import dev.schedlab.spi.Parameters;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.topology.Shape;
import dev.schedlab.topology.SiblingNumbering;
import dev.schedlab.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * An idealised machine that runs task programs for workload tests: every runnable task has a CPU of
 * its own, {@code run(work)} takes {@code work / speed} ns (speed 1 unless a test sets it), a woken
 * task runs again {@link #wakeLatencyNs} later (0 by default), and time jumps from event to event.
 * It keeps the engine's contract: one ending per step, wakes and spawns before it, and a wake of a
 * task that is not blocked is remembered and consumed by its next block, except that a wake of a
 * task in a {@code spin()} step ends the step {@link #wakeLatencyNs} later (or when the spin runs
 * out, if sooner) and is consumed. Spin steps are traced as {@code spin}.
 */
final class IdealMachine {

  /** 2 GHz, 16 FLOP/cycle, 100 GB/s per node. */
  static final MachineFacts FACTS = new MachineFacts(2.0e9, 16, 1.0e11, "ideal test machine");

  /** What a task is doing. */
  enum State {
    READY,
    RUNNING,
    SLEEPING,
    BLOCKED,
    EXITED
  }

  /** How a step ended, or a wake; {@code amount} is work, sleep ns or the woken task. */
  record Step(long timeNs, int taskId, String kind, double amount) {}

  /** A task as the machine saw it. */
  static final class Task {
    final int id;
    final TaskSpec spec;
    final TaskProgram program;
    final int parentCpu;
    final long spawnNs;
    State state = State.READY;
    long exitNs = -1;
    boolean pendingWake;
    boolean spinning;
    long dueNs;
    double speed = 1;
    long token;

    /**
     * Lost work by {@link dev.schedlab.spi.LostWork} ordinal: a run at speed below 1 loses {@code
     * (1 - speed)} of its time to {@code SIBLING_TASK}, charged when the run starts.
     */
    final double[] lostWork = new double[dev.schedlab.spi.LostWork.COUNT];

    Task(int id, TaskSpec spec, TaskProgram program, int parentCpu, long spawnNs) {
      this.id = id;
      this.spec = spec;
      this.program = program;
      this.parentCpu = parentCpu;
      this.spawnNs = spawnNs;
    }

    TaskSpec spec() {
      return spec;
    }

    State state() {
      return state;
    }

    int parentCpu() {
      return parentCpu;
    }

    long exitNs() {
      return exitNs;
    }
  }

  private record Event(long timeNs, long sequence, int taskId, long token) {}

  private final Topology topology;
  private final PriorityQueue<Event> events =
      new PriorityQueue<>(
          (a, b) ->
              a.timeNs != b.timeNs
                  ? Long.compare(a.timeNs, b.timeNs)
                  : Long.compare(a.sequence, b.sequence));
  private final List<Task> tasks = new ArrayList<>();
  private final List<Step> trace = new ArrayList<>();
  private final Control control = new Control();
  private long sequence;
  private long nowNs;
  private long wakeLatencyNs;
  private long syncWakes;
  private Workload workload;

  IdealMachine(Topology topology) {
    this.topology = topology;
  }

  /** A machine of {@code shape} ({@code 1n2l4c2t}), siblings numbered n and n + cores. */
  static IdealMachine shape(String shape) {
    return new IdealMachine(Shape.parse(shape).toTopology(SiblingNumbering.SPLIT));
  }

  Topology topology() {
    return topology;
  }

  /** Every woken task runs again this long after its wake. */
  IdealMachine wakeLatencyNs(long ns) {
    this.wakeLatencyNs = ns;
    return this;
  }

  /** The context a provider gets: this machine, {@link #FACTS}, the overrides, a seeded stream. */
  WorkloadContext context(WorkloadProvider provider, Map<String, String> overrides, long seed) {
    Parameters parameters = provider.descriptor().resolve(overrides);
    RandomGenerator random = new SplittableRandom(seed);
    return new WorkloadContext() {
      @Override
      public Topology topology() {
        return topology;
      }

      @Override
      public MachineFacts machine() {
        return FACTS;
      }

      @Override
      public Parameters parameters() {
        return parameters;
      }

      @Override
      public RandomGenerator random() {
        return random;
      }
    };
  }

  /** Creates {@code provider}'s workload with {@code overrides} and starts it at time 0. */
  Workload start(WorkloadProvider provider, Map<String, String> overrides) {
    return start(provider.create(context(provider, overrides, 1)));
  }

  /** Starts {@code created} at the current time. */
  Workload start(Workload created) {
    workload = created;
    workload.start(new Host());
    return workload;
  }

  /** Starts the workload, runs to {@code endNs} and returns its result. */
  WorkloadResult run(WorkloadProvider provider, Map<String, String> overrides, long endNs) {
    start(provider, overrides);
    runUntil(endNs);
    return workload.result(endNs);
  }

  /** Processes every event at or before {@code endNs}; the clock then reads {@code endNs}. */
  void runUntil(long endNs) {
    while (!events.isEmpty() && events.peek().timeNs <= endNs) {
      Event event = events.poll();
      Task task = tasks.get(event.taskId);
      if (event.token != task.token) {
        continue;
      }
      nowNs = event.timeNs;
      step(task);
    }
    nowNs = endNs;
  }

  long nowNs() {
    return nowNs;
  }

  /** Sets a task's speed: its work takes {@code 1 / speed} times as long from its next run. */
  void setSpeed(int taskId, double speed) {
    tasks.get(taskId).speed = speed;
  }

  List<Task> tasks() {
    return tasks;
  }

  Task task(int id) {
    return tasks.get(id);
  }

  /** How many of the wakes so far carried the {@code WF_SYNC} hint. */
  long syncWakes() {
    return syncWakes;
  }

  /** Every step ending and wake so far, in order. */
  List<Step> trace() {
    return trace;
  }

  /** The steps of {@code taskId} ending with {@code kind} ({@code run}, {@code sleep}, ...). */
  List<Step> steps(int taskId, String kind) {
    return trace.stream().filter(s -> s.taskId == taskId && s.kind.equals(kind)).toList();
  }

  /** The most tasks matching {@code filter} alive (spawned, not exited) at any instant. */
  int maxAlive(Predicate<TaskSpec> filter) {
    List<long[]> changes = new ArrayList<>();
    for (Task task : tasks) {
      if (filter.test(task.spec)) {
        changes.add(new long[] {task.spawnNs, 1});
        if (task.exitNs >= 0) {
          changes.add(new long[] {task.exitNs, -1});
        }
      }
    }
    // At one instant, exits come before spawns: a job that ends lets make start the next one.
    changes.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int alive = 0;
    int max = 0;
    for (long[] change : changes) {
      alive += (int) change[1];
      max = Math.max(max, alive);
    }
    return max;
  }

  private void schedule(Task task, long atNs) {
    task.token++;
    events.add(new Event(atNs, sequence++, task.id, task.token));
  }

  private int spawn(TaskSpec spec, TaskProgram program, int parentCpu) {
    if (spec.allowedCpus() != null && spec.allowedCpus().nrCpuIds() != topology.nrCpuIds()) {
      throw new IllegalArgumentException("affinity of " + spec.name() + " has the wrong width");
    }
    if (spec.allowedCpus() != null && spec.allowedCpus().isEmpty()) {
      throw new IllegalArgumentException("empty affinity for " + spec.name());
    }
    if (!topology.isOnline(parentCpu)) {
      throw new IllegalArgumentException("parent CPU " + parentCpu + " is not online");
    }
    Task task = new Task(tasks.size(), spec, program, parentCpu, nowNs);
    tasks.add(task);
    schedule(task, nowNs);
    return task.id;
  }

  private void step(Task task) {
    for (int guard = 0; guard < 1_000; guard++) {
      task.spinning = false;
      control.begin(task);
      task.program.next(control);
      String ending = control.finish();
      switch (ending) {
        case "run", "spin" -> {
          task.state = State.RUNNING;
          trace.add(new Step(nowNs, task.id, ending, control.amount));
          task.spinning = ending.equals("spin");
          task.dueNs = nowNs + Math.max(1, Math.round(control.amount / task.speed));
          if (ending.equals("run")) {
            task.lostWork[dev.schedlab.spi.LostWork.SIBLING_TASK.ordinal()] +=
                (task.dueNs - nowNs) * (1 - task.speed);
          }
          schedule(task, task.dueNs);
          return;
        }
        case "sleep" -> {
          task.state = State.SLEEPING;
          trace.add(new Step(nowNs, task.id, ending, control.amount));
          schedule(task, nowNs + (long) control.amount);
          return;
        }
        case "block" -> {
          trace.add(new Step(nowNs, task.id, ending, 0));
          if (task.pendingWake) {
            task.pendingWake = false;
            continue;
          }
          task.state = State.BLOCKED;
          return;
        }
        default -> {
          trace.add(new Step(nowNs, task.id, ending, 0));
          task.state = State.EXITED;
          task.exitNs = nowNs;
          return;
        }
      }
    }
    throw new IllegalStateException("task " + task.id + " keeps blocking with pending wakes");
  }

  private final class Host implements WorkloadHost {
    @Override
    public long nowNs() {
      return nowNs;
    }

    @Override
    public int spawn(TaskSpec spec, TaskProgram program, int parentCpu) {
      return IdealMachine.this.spawn(spec, program, parentCpu);
    }
  }

  private final class Control implements TaskControl {
    private Task task;
    private String ending;
    private double amount;

    void begin(Task current) {
      task = current;
      ending = null;
      amount = 0;
    }

    String finish() {
      if (ending == null) {
        throw new IllegalStateException("task " + task.id + " ended a step without an ending");
      }
      task = null;
      return ending;
    }

    private void end(String kind, double value) {
      if (task == null || ending != null) {
        throw new IllegalStateException(
            "second ending " + kind + " of a step (first " + ending + ")");
      }
      ending = kind;
      amount = value;
    }

    private void requireOpen(String what) {
      if (task == null || ending != null) {
        throw new IllegalStateException(what + " after the step ended");
      }
    }

    @Override
    public int taskId() {
      return task.id;
    }

    @Override
    public long nowNs() {
      return nowNs;
    }

    @Override
    public void run(double work) {
      if (!(work > 0) || Double.isInfinite(work)) {
        throw new IllegalArgumentException("run(" + work + ")");
      }
      end("run", work);
    }

    @Override
    public void lostWork(double[] into) {
      requireOpen("lostWork");
      System.arraycopy(task.lostWork, 0, into, 0, task.lostWork.length);
    }

    @Override
    public void spin(double work) {
      run(work);
      ending = "spin";
    }

    @Override
    public void sleep(long ns) {
      if (ns <= 0) {
        throw new IllegalArgumentException("sleep(" + ns + ")");
      }
      end("sleep", ns);
    }

    @Override
    public void block() {
      end("block", 0);
    }

    @Override
    public void exit() {
      end("exit", 0);
    }

    @Override
    public void wake(int taskId, boolean sync) {
      if (sync) {
        syncWakes++;
      }
      wake(taskId);
    }

    @Override
    public void wake(int taskId) {
      requireOpen("wake");
      Task target = tasks.get(taskId);
      trace.add(new Step(nowNs, task.id, "wake", taskId));
      switch (target.state) {
        case BLOCKED -> {
          target.state = State.READY;
          schedule(target, nowNs + wakeLatencyNs);
        }
        case EXITED -> {
          // Lost, as in the kernel.
        }
        default -> {
          if (target.spinning) {
            target.spinning = false;
            schedule(target, Math.min(target.dueNs, nowNs + wakeLatencyNs));
          } else {
            target.pendingWake = true;
          }
        }
      }
    }

    @Override
    public int spawn(TaskSpec spec, TaskProgram program) {
      requireOpen("spawn");
      return IdealMachine.this.spawn(spec, program, topology.onlineMask().first());
    }
  }
}
