package dev.schedlab.workloads;

import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import java.util.Map;

/**
 * Bulk-synchronous threads meeting at a barrier the way OpenMP runtimes implement one (libgomp's
 * {@code gomp_barrier_wait} with {@code GOMP_SPINCOUNT}): each thread computes its chunk, arrives,
 * spins for a while watching for the release, then sleeps on a futex. The last thread to arrive
 * starts the next generation and wakes the sleepers and the spinners. So the slowest thread sets
 * the pace, and threads that outwait the spin leave their CPU idle until the release.
 *
 * <p>Spinning is CPU work, so an SMT sibling or a co-scheduled task slows it as it would slow a
 * real spin loop (a spin count, not a timeout). The whole spin is one {@link TaskControl#spin}
 * step; the release's wake ends it after the engine's detection latency (100 ns of the spinner's
 * own CPU time in the engine: a preempted spinner notices only when it runs again). An earlier
 * version cut the spin into 1 µs run slices, so a spinner left up to 1 µs after the release and
 * every slice cost an engine event; the slices were an artefact of that model. A sleeper that is
 * woken before its generation is released (a spinner's wake remembered by an engine that cannot end
 * a spin early) blocks again, as a futex waiter re-checks its word.
 */
final class SpinThenBlockBarrier {

  /**
   * The {@code spin} parameter of the workloads built on this barrier. Its default, 50 µs, is an
   * assumption; libgomp's own default ({@code GOMP_SPINCOUNT} of 300,000 rounds when {@code
   * OMP_WAIT_POLICY} is unset) is about 3 ms by the estimate in its source ({@code env.c}: "100000
   * spins per msec", five times more or less depending on the CPU).
   */
  static ParameterSpec spinParameter() {
    return ParameterSpec.ofDuration(
        "spin",
        "work a thread spins at the barrier before sleeping; 0 sleeps at once. Assumption: 50us;"
            + " libgomp's default (GOMP_SPINCOUNT 300000 with OMP_WAIT_POLICY unset) is about"
            + " 3ms by its source's estimate, 5x more or less by CPU: check results that depend"
            + " on sleeping at barriers with -W spin=3ms",
        "50us",
        0,
        1_000_000_000L);
  }

  /** The {@code wake_fanout} parameter of the workloads built on this barrier (default 0). */
  static ParameterSpec wakeFanoutParameter() {
    return ParameterSpec.ofInt(
        "wake_fanout",
        "how the barrier's sleepers are woken: 0 = the last arriver wakes them all, one after"
            + " another (libgomp: futex_wake on the generation word); k = a k-ary wake tree,"
            + " each woken thread waking k more (LLVM libomp's hyper barrier, k = 4 there by"
            + " default), so wakeups come from many CPUs at once",
        0,
        0,
        64);
  }

  /** What each thread computes per generation, and what the workload counts. */
  interface Phases {

    /**
     * Work units of thread {@code thread}'s chunk in generation {@code generation}; 0 arrives at
     * the barrier at once (no chunk), positive otherwise.
     */
    double work(int thread, long generation);

    /** Thread {@code thread} finished its chunk of {@code generation} and arrives. */
    default void chunkDone(int thread, long generation, long nowNs) {}

    /** The last thread arrived: {@code generation} is complete at {@code nowNs}. */
    default void released(long generation, long nowNs) {}

    /**
     * Whether the program ends before {@code generation}: a thread leaving the barrier into a
     * finished generation exits instead of computing. The default never ends.
     */
    default boolean finished(long generation) {
      return false;
    }
  }

  private final int parties;
  private final double spinWork;
  private final Phases phases;

  /** 0: the releaser wakes every sleeper; k: the sleepers are woken as a k-ary tree. */
  private final int wakeFanout;

  private final int[] sleepers;

  /** The thread index of each entry of {@link #sleepers}. */
  private final int[] sleeperThread;

  private int nrSleepers;

  /** With a wake tree: the sleepers of the generation being released, in arrival order. */
  private final int[] releasing;

  private int nrReleasing;

  /** With a wake tree: each thread's position in {@link #releasing}, or -1. */
  private final int[] releasePos;

  /** Thread indices of the spinners; {@link #spinnerSlot} locates each for O(1) removal. */
  private final int[] spinners;

  private final int[] spinnerSlot;
  private final int[] spinnerTask;
  private int nrSpinners;
  private int arrived;
  private long generation;

  private long arrivals;
  private long waitNs;
  private long sleeps;

  /**
   * @param parties number of threads that meet at the barrier
   * @param spinWork work units a thread spins before sleeping; 0 sleeps at once
   * @param phases the chunks and the counting
   */
  SpinThenBlockBarrier(int parties, double spinWork, Phases phases) {
    this(parties, spinWork, phases, 0);
  }

  /**
   * @param wakeFanout 0: the last arriver wakes every sleeper, as libgomp's {@code
   *     futex_wake(INT_MAX)} does (one waker, one wakeup after another); k &gt; 0: a k-ary wake
   *     tree, as LLVM's libomp releases its hyper barrier: the last arriver wakes the first k
   *     sleepers (arrival order), and each woken sleeper, when it runs, wakes its k children, so
   *     wakeups come from many CPUs at nearly the same time
   */
  SpinThenBlockBarrier(int parties, double spinWork, Phases phases, int wakeFanout) {
    if (parties < 1) {
      throw new IllegalArgumentException("a barrier needs at least one thread, not " + parties);
    }
    if (wakeFanout < 0) {
      throw new IllegalArgumentException("wake fan-out " + wakeFanout + " is negative");
    }
    this.parties = parties;
    this.spinWork = spinWork;
    this.phases = phases;
    this.wakeFanout = wakeFanout;
    this.sleeperThread = new int[parties];
    this.releasing = new int[parties];
    this.releasePos = new int[parties];
    java.util.Arrays.fill(releasePos, -1);
    this.sleepers = new int[parties];
    this.spinners = new int[parties];
    this.spinnerSlot = new int[parties];
    this.spinnerTask = new int[parties];
  }

  /** The program of thread {@code index}, {@code 0 <= index < parties}. */
  TaskProgram thread(int index) {
    return new Party(index);
  }

  /** Completed generations (barrier releases). */
  long generations() {
    return generation;
  }

  /**
   * Adds {@code barrier_wait_mean_us} (mean time from arrival to leaving), {@code
   * barrier_wait_fraction} (share of the threads' time spent waiting) and {@code
   * barrier_sleep_fraction} (share of arrivals that outwaited the spin and slept).
   */
  void putStatistics(Map<String, Double> extra, long simulatedNs) {
    extra.put("barrier_wait_mean_us", arrivals == 0 ? 0 : waitNs / 1e3 / arrivals);
    extra.put(
        "barrier_wait_fraction", simulatedNs == 0 ? 0 : waitNs / ((double) parties * simulatedNs));
    extra.put("barrier_sleep_fraction", arrivals == 0 ? 0 : sleeps / (double) arrivals);
  }

  private void release(TaskControl control) {
    arrived = 0;
    long completed = generation++;
    if (wakeFanout == 0) {
      for (int i = 0; i < nrSleepers; i++) {
        control.wake(sleepers[i]);
      }
    } else {
      nrReleasing = nrSleepers;
      for (int i = 0; i < nrSleepers; i++) {
        releasing[i] = sleepers[i];
        releasePos[sleeperThread[i]] = i;
      }
      wakeTreeChildren(control, -1);
    }
    nrSleepers = 0;
    for (int i = 0; i < nrSpinners; i++) {
      control.wake(spinnerTask[spinners[i]]);
    }
    nrSpinners = 0;
    phases.released(completed, control.nowNs());
  }

  /**
   * Wakes the children of tree position {@code pos} (-1: the releaser, whose children are the first
   * {@code wakeFanout} sleepers).
   */
  private void wakeTreeChildren(TaskControl control, int pos) {
    int first = (pos + 1) * wakeFanout;
    for (int c = first; c < first + wakeFanout && c < nrReleasing; c++) {
      control.wake(releasing[c]);
    }
  }

  /** One thread: compute, arrive, spin, sleep, leave. */
  private final class Party implements TaskProgram {
    private static final int STARTING = 0;
    private static final int COMPUTING = 1;
    private static final int SPINNING = 2;
    private static final int SLEEPING = 3;

    private final int index;
    private int state = STARTING;
    private long waitingFor;
    private long arrivedAtNs;

    Party(int index) {
      this.index = index;
    }

    @Override
    public void next(TaskControl control) {
      switch (state) {
        case COMPUTING -> arrive(control);
        case SPINNING -> {
          if (generation != waitingFor) {
            leave(control);
          } else {
            stopSpinning();
            sleep(control);
          }
        }
        case SLEEPING -> {
          if (generation == waitingFor) {
            // A spurious wakeup (see the class comment): wait on.
            control.block();
            return;
          }
          if (wakeFanout > 0 && releasePos[index] >= 0) {
            wakeTreeChildren(control, releasePos[index]);
            releasePos[index] = -1;
          }
          leave(control);
        }
        default -> compute(control);
      }
    }

    private void arrive(TaskControl control) {
      phases.chunkDone(index, generation, control.nowNs());
      arrivals++;
      arrivedAtNs = control.nowNs();
      waitingFor = generation;
      if (++arrived == parties) {
        release(control);
        compute(control);
        return;
      }
      if (spinWork >= 1) {
        spin(control);
      } else {
        sleep(control);
      }
    }

    private void spin(TaskControl control) {
      state = SPINNING;
      spinnerTask[index] = control.taskId();
      spinnerSlot[index] = nrSpinners;
      spinners[nrSpinners++] = index;
      control.spin(spinWork);
    }

    /** The spin ran out before the release: this thread is no longer a spinner. */
    private void stopSpinning() {
      int slot = spinnerSlot[index];
      int last = spinners[--nrSpinners];
      spinners[slot] = last;
      spinnerSlot[last] = slot;
    }

    private void sleep(TaskControl control) {
      state = SLEEPING;
      sleeps++;
      sleeperThread[nrSleepers] = index;
      sleepers[nrSleepers++] = control.taskId();
      control.block();
    }

    private void leave(TaskControl control) {
      waitNs += control.nowNs() - arrivedAtNs;
      compute(control);
    }

    private void compute(TaskControl control) {
      if (phases.finished(generation)) {
        control.exit();
        return;
      }
      double work = phases.work(index, generation);
      if (work <= 0) {
        state = COMPUTING;
        arrive(control);
        return;
      }
      state = COMPUTING;
      control.run(work);
    }
  }
}
