package dev.schedlab.workloads;

import dev.schedlab.spi.LostWork;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import java.util.Arrays;
import java.util.Map;

/**
 * One {@code sgemm} call after another as OpenBLAS's threaded level-3 driver runs it: the team of
 * {@code threads} splits the M × N output into an {@code nthreadsM × nthreadsN} grid ({@link
 * #split}, as {@code gemm_driver()} in {@code driver/level3/level3_thread.c} divides the thread
 * count), each thread computes its block over the whole K in {@code ceil(K / GEMM_Q)} k-steps, and
 * at every k-step waits for the other threads of its N panel ({@code inner_thread()}'s spin-waited
 * {@code job[].working} flags). A call ends when the slowest thread finishes ({@code exec_blas()}
 * in {@code driver/others/blas_server.c} waits for every queued job), and the next call starts at
 * once ({@code benchmark/gemm.c} times its {@code OPENBLAS_LOOPS} calls back to back).
 *
 * <p>Waiting, by {@link Wait}: {@code SPIN} is the pthreads build on arm64, whose wait primitive
 * ({@code YIELDING} in {@code common_arm64.h}) is a few NOPs, so no wait makes a system call (the
 * idle worker's sleep after about 2^28 counter ticks, {@code blas_thread_server()}, never comes in
 * steady state); {@code OPENMP} is the OpenMP build: the k-step flags are still spin-waited, and
 * each call is one parallel region, whose end-of-region barrier in libgomp spins for {@code
 * gompSpinNs} (GOMP_SPINCOUNT) and then sleeps on a futex, woken by the last thread to finish.
 *
 * <p>A thread's block: M and N rows split as evenly as integers allow (the first {@code M %
 * nthreadsM} blocks one row more), so a k-step's work is {@code 2 × rows × cols × q} FLOP at the
 * machine's clock × FLOP per cycle. Spinning is CPU work (a sibling or a co-scheduled task slows
 * it), one {@link TaskControl#spin} step ended by the releasing wake.
 *
 * <p>Where the time goes: each k-step's last thread to arrive is the one its panel waited for, so a
 * panel's critical path is the chain of those threads, and a call's is the chain of the panel that
 * finishes last. The lost work ({@link TaskControl#lostWork}) each of them suffered during its
 * k-step is summed along the chain, by cause, and reported as a share of the completed calls' time
 * ({@code critical_lost_<cause>_pct}). A run shorter than one call (one call of the thread's 16384³
 * problem takes about 1.5 s) reports the same over every panel's k-steps instead ({@code
 * critical_path_by_calls} 0), which dilutes a loss that only some panels suffer; {@code
 * panel_lost_pct} is that figure for every run. A thread that arrives last without any loss (a
 * slower CPU) adds nothing: the share is what interference cost the critical path, not why it is
 * critical.
 */
final class OpenBlasGemm {

  /** How the threads wait for each other. */
  enum Wait {
    /** Spin at k-steps and at the call end (pthreads build on arm64). */
    SPIN,
    /** Spin at k-steps; at the call end spin {@code gompSpinNs}, then futex sleep (libgomp). */
    OPENMP
  }

  /** A spin that only the releasing wake ends: longer than any simulation. */
  private static final double SPIN_FOREVER = 1e15;

  private final int threads;
  private final int nthreadsM;
  private final int nthreadsN;
  private final int ksteps;
  private final double[] stepWork;
  private final double[] stepFlop;
  private final Wait wait;
  private final double gompSpinWork;

  /** Per N panel: threads arrived at the current k-step's flags, and their task ids. */
  private final int[] groupArrived;

  private final int[][] groupWaiters;

  /** Per N panel: k-steps completed by the whole panel. */
  private final int[] groupStep;

  /** Call end: arrivals, and the spinning and sleeping waiters. */
  private int callArrived;

  private final int[] callSpinners;
  private int nrCallSpinners;
  private final int[] callSleepers;
  private int nrCallSleepers;
  private long call;
  private long callStartNs;
  private long callNsSum;

  /** Per N panel: when its current k-step began (its last release, or the call's start). */
  private final long[] groupStepStartNs;

  /**
   * The lost work ({@link LostWork}) of each panel k-step's last thread to arrive, summed over
   * every panel and k-step: the panels' critical paths.
   */
  private final double[] criticalLost = new double[LostWork.COUNT];

  /** The panels' critical-path time: each released k-step's length, summed over the panels. */
  private long criticalNs;

  /** Per N panel: its critical path's lost work in the current call, by cause. */
  private final double[][] groupChainLost;

  /** The completed calls' critical paths (each call's last panel's chain): lost work by cause. */
  private final double[] callCriticalLost = new double[LostWork.COUNT];

  /** Scratch for a thread's lost work at a k-step's end. */
  private final double[] lostNow = new double[LostWork.COUNT];

  private double flopDone;
  private long groupSyncs;
  private long callSleeps;

  /**
   * @param threads team size ({@code OMP_NUM_THREADS})
   * @param m rows of C ({@code OPENBLAS_PARAM_M})
   * @param n columns of C ({@code OPENBLAS_PARAM_N})
   * @param k inner dimension ({@code OPENBLAS_PARAM_K})
   * @param gemmQ K blocking ({@code GEMM_Q}): K per k-step
   * @param flopPerWorkUnit FLOP one work unit (1 ns alone on a full CPU) computes
   * @param wait the wait policy
   * @param gompSpinNs libgomp's spin at the call end, for {@link Wait#OPENMP}
   */
  OpenBlasGemm(
      int threads,
      long m,
      long n,
      long k,
      long gemmQ,
      double flopPerWorkUnit,
      Wait wait,
      long gompSpinNs) {
    if (threads < 1) {
      throw new IllegalArgumentException("a GEMM team needs at least one thread, not " + threads);
    }
    this.threads = threads;
    int[] grid = split(threads);
    this.nthreadsM = grid[0];
    this.nthreadsN = grid[1];
    this.ksteps = (int) ((k + gemmQ - 1) / gemmQ);
    this.wait = wait;
    this.gompSpinWork = gompSpinNs;
    this.stepWork = new double[threads];
    this.stepFlop = new double[threads];
    for (int t = 0; t < threads; t++) {
      long rows = share(m, nthreadsM, t % nthreadsM);
      long cols = share(n, nthreadsN, t / nthreadsM);
      stepFlop[t] = 2.0 * rows * cols * Math.min(gemmQ, k);
      stepWork[t] = stepFlop[t] / flopPerWorkUnit;
    }
    this.groupArrived = new int[nthreadsN];
    this.groupWaiters = new int[nthreadsN][nthreadsM];
    this.groupStep = new int[nthreadsN];
    this.groupStepStartNs = new long[nthreadsN];
    this.groupChainLost = new double[nthreadsN][LostWork.COUNT];
    this.callSpinners = new int[threads];
    this.callSleepers = new int[threads];
  }

  /**
   * The thread grid of {@code gemm_driver()}: all threads along M, then while the M count is even
   * and halving it (doubling N) lowers {@code M-count + N-count} weighted by the square output,
   * move a factor 2 to N. For a square problem that is: halve M while {@code M/2 > N}. 88 threads
   * give 11 × 8, 64 give 8 × 8; an odd count stays {@code threads × 1}.
   */
  static int[] split(int threads) {
    int nm = threads;
    int nn = 1;
    while (nm % 2 == 0 && nm / 2 > nn) {
      nm /= 2;
      nn *= 2;
    }
    return new int[] {nm, nn};
  }

  private static long share(long total, int parts, int index) {
    return total / parts + (index < total % parts ? 1 : 0);
  }

  /** The program of thread {@code index}. */
  TaskProgram thread(int index) {
    return new Worker(index);
  }

  /** FLOP of the k-steps completed so far. */
  double flopDone() {
    return flopDone;
  }

  /** Adds the grid, the call count and mean length, and the synchronisation counts. */
  void putStatistics(Map<String, Double> extra, long simulatedNs) {
    extra.put("nthreads_m", (double) nthreadsM);
    extra.put("nthreads_n", (double) nthreadsN);
    extra.put("k_steps", (double) ksteps);
    extra.put("calls", (double) call);
    extra.put("call_mean_ms", call == 0 ? 0 : callNsSum / 1e6 / call);
    extra.put("group_syncs", (double) groupSyncs);
    extra.put("call_end_sleeps", (double) callSleeps);
    // Over the completed calls when there are any (each call waited for its last panel's
    // chain); in a run shorter than one call, over every panel's k-steps.
    boolean byCalls = call > 0;
    double total = 0;
    for (LostWork cause : LostWork.ALL) {
      double lost = byCalls ? callCriticalLost[cause.ordinal()] : criticalLost[cause.ordinal()];
      total += lost;
      extra.put("critical_lost_" + cause.key() + "_pct", percent(lost, byCalls));
    }
    extra.put("critical_lost_pct", percent(total, byCalls));
    extra.put("critical_path_by_calls", byCalls ? 1.0 : 0.0);
    extra.put("critical_path_ms", (byCalls ? callNsSum : criticalNs) / 1e6);
    double panels = 0;
    for (double lost : criticalLost) {
      panels += lost;
    }
    extra.put("panel_lost_pct", percent(panels, false));
  }

  private double percent(double lostNs, boolean byCalls) {
    return byCalls ? 100.0 * lostNs / callNsSum : percentOfCriticalPath(lostNs);
  }

  /** {@code lostNs} as a percentage of the panels' critical-path time. */
  private double percentOfCriticalPath(double lostNs) {
    return criticalNs == 0 ? 0 : 100.0 * lostNs / criticalNs;
  }

  /** The panels' critical-path lost work so far, ns, by {@link LostWork} ordinal. */
  double[] criticalLostNs() {
    return criticalLost.clone();
  }

  /** The panels' critical-path time so far, ns. */
  long criticalPathNs() {
    return criticalNs;
  }

  private void groupRelease(TaskControl control, int group) {
    groupSyncs++;
    groupStep[group]++;
    int waiting = groupArrived[group] - 1;
    groupArrived[group] = 0;
    for (int i = 0; i < waiting; i++) {
      control.wake(groupWaiters[group][i]);
    }
  }

  private void callRelease(TaskControl control, int lastGroup) {
    double[] chain = groupChainLost[lastGroup];
    for (int c = 0; c < LostWork.COUNT; c++) {
      callCriticalLost[c] += chain[c];
    }
    for (double[] g : groupChainLost) {
      Arrays.fill(g, 0);
    }
    callArrived = 0;
    call++;
    long now = control.nowNs();
    callNsSum += now - callStartNs;
    callStartNs = now;
    Arrays.fill(groupStep, 0);
    Arrays.fill(groupStepStartNs, now);
    for (int i = 0; i < nrCallSpinners; i++) {
      control.wake(callSpinners[i]);
    }
    for (int i = 0; i < nrCallSleepers; i++) {
      control.wake(callSleepers[i]);
    }
    nrCallSpinners = 0;
    nrCallSleepers = 0;
  }

  private void removeCallSpinner(int taskId) {
    for (int i = 0; i < nrCallSpinners; i++) {
      if (callSpinners[i] == taskId) {
        callSpinners[i] = callSpinners[--nrCallSpinners];
        return;
      }
    }
  }

  /** One thread: k-steps with panel waits, then the call-end wait. */
  private final class Worker implements TaskProgram {
    private static final int STARTING = 0;
    private static final int COMPUTING = 1;
    private static final int GROUP_WAIT = 2;
    private static final int CALL_SPIN = 3;
    private static final int CALL_SLEEP = 4;

    private final int index;
    private final int group;
    private int state = STARTING;
    private int step;
    private long waitingForCall;

    /** This thread's lost work when its current k-step started. */
    private final double[] lostAtStepStart = new double[LostWork.COUNT];

    Worker(int index) {
      this.index = index;
      this.group = index / nthreadsM;
    }

    @Override
    public void next(TaskControl control) {
      switch (state) {
        case COMPUTING -> stepDone(control);
        case GROUP_WAIT -> {
          if (groupStep[group] > step) {
            nextStep(control);
          } else {
            control.spin(SPIN_FOREVER);
          }
        }
        case CALL_SPIN -> {
          if (call != waitingForCall) {
            startCall(control);
          } else if (wait == Wait.OPENMP) {
            removeCallSpinner(control.taskId());
            state = CALL_SLEEP;
            callSleeps++;
            callSleepers[nrCallSleepers++] = control.taskId();
            control.block();
          } else {
            control.spin(SPIN_FOREVER);
          }
        }
        case CALL_SLEEP -> {
          if (call == waitingForCall) {
            // A wake remembered from a spin the engine could not end early: wait on.
            control.block();
          } else {
            startCall(control);
          }
        }
        default -> startCall(control);
      }
    }

    private void startCall(TaskControl control) {
      step = 0;
      compute(control);
    }

    private void compute(TaskControl control) {
      state = COMPUTING;
      control.lostWork(lostAtStepStart);
      control.run(stepWork[index]);
    }

    private void stepDone(TaskControl control) {
      flopDone += stepFlop[index];
      if (++groupArrived[group] == nthreadsM) {
        // The panel waited for this thread: its k-step's lost work is the panel's.
        control.lostWork(lostNow);
        double[] chain = groupChainLost[group];
        for (int c = 0; c < LostWork.COUNT; c++) {
          double lost = lostNow[c] - lostAtStepStart[c];
          criticalLost[c] += lost;
          chain[c] += lost;
        }
        long now = control.nowNs();
        criticalNs += now - groupStepStartNs[group];
        groupStepStartNs[group] = now;
        groupRelease(control, group);
        nextStep(control);
        return;
      }
      groupWaiters[group][groupArrived[group] - 1] = control.taskId();
      state = GROUP_WAIT;
      control.spin(SPIN_FOREVER);
    }

    private void nextStep(TaskControl control) {
      if (++step < ksteps) {
        compute(control);
        return;
      }
      waitingForCall = call;
      if (++callArrived == threads) {
        callRelease(control, group);
        startCall(control);
        return;
      }
      if (wait == Wait.OPENMP && gompSpinWork < 1) {
        state = CALL_SLEEP;
        callSleeps++;
        callSleepers[nrCallSleepers++] = control.taskId();
        control.block();
        return;
      }
      state = CALL_SPIN;
      callSpinners[nrCallSpinners++] = control.taskId();
      control.spin(wait == Wait.OPENMP ? gompSpinWork : SPIN_FOREVER);
    }
  }
}
