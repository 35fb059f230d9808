package dev.schedlab.core.engine;

import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import java.util.function.IntConsumer;

/**
 * The {@link TaskControl} a task program drives during one step. One instance serves the whole run
 * (programs never nest: waking or spawning a task does not run its program).
 */
final class TaskProgramControl implements TaskControl {

  /** How a step ended. */
  enum Step {
    RUN,
    SLEEP,
    BLOCK,
    EXIT
  }

  private final EngineContext ctx;
  private final TryToWakeUp wakeups;
  private final WakeUpNewTask forks;

  /** Runs a CPU's pending local reschedule; for a spawn outside any event's context. */
  private final IntConsumer afterEvent;

  private Task task;
  private Step step;
  private double work;
  private boolean spin;
  private long sleepNs;

  TaskProgramControl(
      EngineContext ctx, TryToWakeUp wakeups, WakeUpNewTask forks, IntConsumer afterEvent) {
    this.ctx = ctx;
    this.wakeups = wakeups;
    this.forks = forks;
    this.afterEvent = afterEvent;
  }

  /** Runs {@code task}'s program for one step and returns how it ended. */
  Step ask(Task current) {
    if (task != null) {
      throw new IllegalStateException(
          "task program of " + current + " started inside the step of " + task);
    }
    task = current;
    step = null;
    try {
      current.program.next(this);
    } finally {
      task = null;
    }
    if (step == null) {
      throw new IllegalStateException(
          "the program of " + current + " ended a step without run, sleep, block or exit");
    }
    return step;
  }

  double work() {
    return work;
  }

  /** Whether the last {@link Step#RUN} was a {@link #spin}. */
  boolean spin() {
    return spin;
  }

  long sleepNs() {
    return sleepNs;
  }

  private void end(Step kind) {
    if (task == null) {
      throw new IllegalStateException("TaskControl used outside a step of its task");
    }
    if (step != null) {
      throw new IllegalStateException(
          "the program of " + task + " ended its step twice (" + step + ", then " + kind + ")");
    }
    step = kind;
  }

  @Override
  public int taskId() {
    return task.id;
  }

  @Override
  public long nowNs() {
    return ctx.now();
  }

  @Override
  public void run(double units) {
    if (!(units > 0) || Double.isInfinite(units)) {
      throw new IllegalArgumentException(
          "run("
              + units
              + ") by "
              + task
              + ": work must be positive and finite; a program with"
              + " nothing to do sleeps or blocks");
    }
    end(Step.RUN);
    this.work = units;
    this.spin = false;
  }

  @Override
  public void spin(double units) {
    run(units);
    this.spin = true;
  }

  @Override
  public void sleep(long ns) {
    if (ns <= 0) {
      throw new IllegalArgumentException("sleep(" + ns + ") by " + task + ": must be positive");
    }
    end(Step.SLEEP);
    this.sleepNs = ns;
  }

  @Override
  public void block() {
    end(Step.BLOCK);
  }

  @Override
  public void exit() {
    end(Step.EXIT);
  }

  @Override
  public void wake(int taskId) {
    wake(taskId, false);
  }

  @Override
  public void wake(int taskId, boolean sync) {
    if (task == null || step != null) {
      throw new IllegalStateException("wake() must come before the step's run/sleep/block/exit");
    }
    wakeups.wakeFromTask(task, taskId, sync);
  }

  @Override
  public int spawn(TaskSpec spec, TaskProgram program) {
    if (task == null || step != null) {
      throw new IllegalStateException("spawn() must come before the step's run/sleep/block/exit");
    }
    int parentCpu = task.cpu;
    boolean outsideEvent = forks.outsideEventContext();
    int id = forks.spawn(spec, program, parentCpu, task);
    if (outsideEvent) {
      afterEvent.accept(parentCpu);
    }
    return id;
  }

  @Override
  public void lostWork(double[] into) {
    if (task == null) {
      throw new IllegalStateException("TaskControl used outside a step of its task");
    }
    System.arraycopy(task.lostWork, 0, into, 0, task.lostWork.length);
  }
}
