package dev.schedlab.spi;

/**
 * What a {@link TaskProgram} may do at each step. In one call of {@link TaskProgram#next} the
 * program may {@link #wake} and {@link #spawn} any number of tasks, then must end the step with
 * exactly one of {@link #run}, {@link #sleep}, {@link #block} or {@link #exit}.
 */
public interface TaskControl {

  /** The task this program drives. */
  int taskId();

  /** Current simulated time in ns. */
  long nowNs();

  /**
   * Runs {@code work} units on the CPU; one unit is one nanosecond of a thread running alone on a
   * 1024-capacity CPU (the performance model stretches it).
   */
  void run(double work);

  /**
   * Busy-waits for up to {@code work} units, like {@link #run}, except that a {@link #wake} of this
   * task during the step ends it early: the task then runs only a short detection latency more (the
   * engine's spinner sees the changed cache line) before its program is asked again, and the wake
   * is consumed rather than remembered for the next {@link #block}. A spin-then-sleep barrier is
   * one such step per wait instead of many small {@link #run} slices. The program must re-check its
   * condition afterwards: the step also ends when the work runs out.
   *
   * <p>The default runs the whole spin (an engine that cannot end a step early); the wake is then
   * remembered as for any task that is not blocked, so a program that blocks next must tolerate a
   * spurious wakeup, as a futex waiter does.
   */
  default void spin(double work) {
    run(work);
  }

  /** Sleeps for {@code ns} nanoseconds (a timer wakeup). */
  void sleep(long ns);

  /** Blocks until another task wakes this one with {@link #wake}. */
  void block();

  /** Ends the task. */
  void exit();

  /**
   * Wakes a blocked task ({@code try_to_wake_up()}) from this task; a wake of a task that is not
   * blocked is remembered and consumed by its next {@link #block} (no lost wakeups).
   */
  void wake(int taskId);

  /**
   * Wakes a blocked task like {@link #wake(int)}, as a synchronous wakeup ({@code WF_SYNC}) when
   * {@code sync} is true: the kernel's hint that this task will soon block, used by pipes ({@code
   * pipe_write()} and {@code pipe_read()} wake with {@code wake_up_interruptible_sync_poll()}) and
   * UNIX sockets ({@code sock_def_readable()}, {@code unix_write_space()}). Wakeup placement then
   * considers the waker's CPU ({@code wake_affine()} with {@code sync}). A sync wake of a task that
   * is not blocked is remembered as a plain one.
   *
   * <p>Child-exit notification ({@code __wake_up_parent()}) is a sync wakeup too, but {@code
   * select_task_rq_fair()} ignores {@code WF_SYNC} when the waker is exiting ({@code PF_EXITING}):
   * a wake that stands for an exit notification passes {@code false}. (A write made just before a
   * task exits is still sync: the task was not exiting when it wrote.)
   *
   * <p>The default ignores the hint (an engine without {@code WF_SYNC}).
   */
  default void wake(int taskId, boolean sync) {
    wake(taskId);
  }

  /**
   * Copies this task's lost work so far, cumulative since it was created, into {@code into}
   * (indexed by {@link LostWork#ordinal()}, ns of its solo progress), without allocating. The
   * default reports none (an engine that does not account it).
   */
  default void lostWork(double[] into) {
    java.util.Arrays.fill(into, 0, LostWork.COUNT, 0);
  }

  /** Forks a new task running {@code program}; placed by the fork path. Returns its id. */
  int spawn(TaskSpec spec, TaskProgram program);
}
