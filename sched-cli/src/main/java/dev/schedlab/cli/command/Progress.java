package dev.schedlab.cli.command;

import dev.schedlab.cli.report.TextTable;
import dev.schedlab.core.engine.SimulationListener;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Live progress of a batch of runs on stderr: the share of the batch's simulated time done, the
 * simulated seconds per wall second over all threads and the time left at that rate, e.g. {@code
 * schedlab: 43% of 6 s simulated, 2/4 runs done, 0.81 simulated s per wall s, ETA 4 s}. On a
 * terminal the line is rewritten in place twice a second; elsewhere (when asked for with {@code
 * --progress}) a plain line is printed every ten seconds. A run's simulated clock is read from the
 * listener that follows it ({@link Clock}, or the trace {@code Recording}), racily: a stale value
 * only makes the display lag, and nothing the run computes depends on it.
 */
final class Progress implements AutoCloseable {

  /** Follows one run's simulated clock through the engine's timeline events. */
  static final class Clock implements SimulationListener {
    /** Written by the run's thread, read racily by the display thread (64-bit, no tearing). */
    private long nowNs;

    @Override
    public void cpuActivity(long nowNs, int cpu, CpuActivity activity, int taskId) {
      this.nowNs = nowNs;
    }

    @Override
    public void nrRunning(long nowNs, int cpu, int nrRunning) {
      this.nowNs = nowNs;
    }

    long nowNs() {
      return nowNs;
    }
  }

  private final PrintStream err;
  private final boolean inPlace;
  private final long[] durationNs;
  private final LongSupplier[] clocks;
  private final boolean[] done;
  private final long totalNs;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService display;
  private int lastWidth;

  /**
   * @param err where the progress goes
   * @param inPlace whether to rewrite one line (a terminal) or print plain lines
   * @param durationNs each run's simulated duration, in batch order
   */
  Progress(PrintStream err, boolean inPlace, long[] durationNs) {
    this.err = err;
    this.inPlace = inPlace;
    this.durationNs = durationNs.clone();
    this.clocks = new LongSupplier[durationNs.length];
    this.done = new boolean[durationNs.length];
    long total = 0;
    for (long d : durationNs) {
      total += d;
    }
    this.totalNs = total;
    display =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "schedlab-progress");
              t.setDaemon(true);
              return t;
            });
    long periodMs = inPlace ? 500 : 10_000;
    display.scheduleAtFixedRate(this::show, periodMs, periodMs, TimeUnit.MILLISECONDS);
  }

  /** Run {@code index} has started; {@code clock} reads its simulated time. */
  synchronized void started(int index, LongSupplier clock) {
    clocks[index] = clock;
  }

  /** Run {@code index} has ended. */
  synchronized void finished(int index) {
    done[index] = true;
  }

  private synchronized void show() {
    String line = line();
    if (inPlace) {
      // Pad over the end of a longer previous line.
      err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
      lastWidth = line.length();
    } else {
      err.println(line);
    }
    err.flush();
  }

  /** The progress line as it stands. */
  synchronized String line() {
    long simulated = 0;
    int finished = 0;
    for (int i = 0; i < durationNs.length; i++) {
      if (done[i]) {
        simulated += durationNs[i];
        finished++;
      } else if (clocks[i] != null) {
        simulated += Math.min(durationNs[i], clocks[i].getAsLong());
      }
    }
    double wallS = (System.nanoTime() - startNanos) / 1e9;
    double rate = wallS > 0 ? simulated / 1e9 / wallS : 0;
    String eta = rate > 0 ? seconds((totalNs - simulated) / 1e9 / rate) : "unknown";
    return String.format(
        Locale.ROOT,
        "schedlab: %d%% of %s s simulated, %d/%d runs done," + " %s simulated s per wall s, ETA %s",
        totalNs == 0 ? 100 : simulated * 100 / totalNs,
        TextTable.number(totalNs / 1e9),
        finished,
        durationNs.length,
        TextTable.number(rate),
        eta);
  }

  private static String seconds(double s) {
    if (s >= 3600) {
      return String.format(Locale.ROOT, "%dh%02dm", (long) s / 3600, (long) s % 3600 / 60);
    }
    if (s >= 60) {
      return String.format(Locale.ROOT, "%dm%02ds", (long) s / 60, (long) s % 60);
    }
    return String.format(Locale.ROOT, "%.0f s", Math.ceil(s));
  }

  /** Stops the display and leaves the final line (all done, the overall rate) on stderr. */
  @Override
  public void close() {
    display.shutdownNow();
    try {
      display.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    show();
    if (inPlace) {
      err.println();
    }
  }
}
