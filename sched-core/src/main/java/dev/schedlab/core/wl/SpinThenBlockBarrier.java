package dev.schedlab.core.wl;

import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import java.util.Map;

/**
 * Bulk-synchronous threads meeting at a barrier the way OpenMP runtimes implement one (libgomp's
 * {@code gomp_barrier_wait} with {@code GOMP_SPINCOUNT}): each thread computes its chunk, arrives,
 * spins for a while watching for the release, then sleeps on a futex. The last thread to arrive
 * starts the next generation and wakes the sleepers; spinners see the release at the end of their
 * current spin slice. So the slowest thread sets the pace, and threads that outwait the spin leave
 * their CPU idle until the release.
 *
 * <p>Spinning is CPU work, so an SMT sibling or a co-scheduled task slows it as it would slow a
 * real spin loop (a spin count, not a timeout). A task's work cannot be interrupted, so a spin is
 * cut into 1 µs slices and a spinner notices the release at the end of its current slice: at most
 * 1 µs late (a real spinner sees the cache line change within a fraction of that), at the cost of
 * one engine step per slice.
 */
final class SpinThenBlockBarrier {

  /** What each thread computes per generation, and what the workload counts. */
  interface Phases {

    /** Work units of thread {@code thread}'s chunk in generation {@code generation}; positive. */
    double work(int thread, long generation);

    /** Thread {@code thread} finished its chunk of {@code generation} and arrives. */
    default void chunkDone(int thread, long generation, long nowNs) {}

    /** The last thread arrived: {@code generation} is complete at {@code nowNs}. */
    default void released(long generation, long nowNs) {}
  }

  private static final double SPIN_SLICE = 1_000;

  private final int parties;
  private final double spinWork;
  private final double spinSlice;
  private final Phases phases;
  private final int[] sleepers;
  private int nrSleepers;
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
    if (parties < 1) {
      throw new IllegalArgumentException("a barrier needs at least one thread, not " + parties);
    }
    this.parties = parties;
    this.spinWork = spinWork;
    this.spinSlice = Math.min(spinWork, SPIN_SLICE);
    this.phases = phases;
    this.sleepers = new int[parties];
  }

  /** The program of thread {@code index}, {@code 0 <= index < parties}. */
  TaskProgram thread(int index) {
    return new Party(index);
  }

  /** Completed generations (barrier releases). */
  long generations() {
    return generation;
  }

  /** Arrivals at the barrier, the last arriver of each generation included. */
  long arrivals() {
    return arrivals;
  }

  /** Total time between arriving and leaving, summed over arrivals, in ns. */
  long waitNs() {
    return waitNs;
  }

  /** Arrivals whose spin ran out so that the thread slept. */
  long sleeps() {
    return sleeps;
  }

  /**
   * Adds {@code barrier_wait_mean_us} (mean time from arrival to leaving), {@code
   * barrier_wait_fraction} (share of the threads' time spent waiting) and {@code
   * barrier_sleep_fraction} (share of arrivals that outwaited the spin and slept).
   */
  void putStatistics(Map<String, Double> extra, long simulatedNs) {
    extra.put("barrier_wait_mean_us", arrivals == 0 ? 0 : waitNs / 1e3 / arrivals);
    extra.put(
        "barrier_wait_fraction",
        simulatedNs == 0 ? 0 : waitNs / ((double) parties * simulatedNs));
    extra.put("barrier_sleep_fraction", arrivals == 0 ? 0 : sleeps / (double) arrivals);
  }

  private void release(TaskControl control) {
    arrived = 0;
    long completed = generation++;
    for (int i = 0; i < nrSleepers; i++) {
      control.wake(sleepers[i]);
    }
    nrSleepers = 0;
    phases.released(completed, control.nowNs());
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
    private double spinLeft;

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
          } else if (spinLeft >= 1) {
            spin(control);
          } else {
            sleep(control);
          }
        }
        case SLEEPING -> {
          if (generation == waitingFor) {
            throw new IllegalStateException(
                "barrier thread " + index + " woken before generation " + waitingFor
                    + " was released");
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
      spinLeft = spinWork;
      if (spinLeft >= 1) {
        spin(control);
      } else {
        sleep(control);
      }
    }

    private void spin(TaskControl control) {
      state = SPINNING;
      double slice = Math.min(spinSlice, spinLeft);
      spinLeft -= slice;
      control.run(slice);
    }

    private void sleep(TaskControl control) {
      state = SLEEPING;
      sleeps++;
      sleepers[nrSleepers++] = control.taskId();
      control.block();
    }

    private void leave(TaskControl control) {
      waitNs += control.nowNs() - arrivedAtNs;
      compute(control);
    }

    private void compute(TaskControl control) {
      state = COMPUTING;
      control.run(phases.work(index, generation));
    }
  }
}
