package dev.schedlab.spark;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.ExceptionFailure;
import org.apache.spark.Success$;
import org.apache.spark.TaskEndReason;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * A Spark listener that reports a sweep's progress on stderr: cells done of the total, the rate and
 * the time left at that rate; on a terminal one line rewritten in place, otherwise a line at most
 * every {@value #LOG_INTERVAL_S} seconds. A cell's failed attempt is reported on a line of its own,
 * since Spark retries it. Only the stages of the sweep's own job group count.
 */
final class SweepProgress extends SparkListener {

  /** Seconds between progress lines when stderr is not a terminal. */
  static final int LOG_INTERVAL_S = 30;

  private final String jobGroup;
  private final PrintStream err;
  private final boolean interactive;
  private final boolean quiet;
  private final long total;
  private final Set<Integer> stages = ConcurrentHashMap.newKeySet();
  private final long startNs = System.nanoTime();
  private long done;
  private long retried;
  private long lastLineNs = startNs;

  /**
   * @param jobGroup the sweep's Spark job group
   * @param total the cells this run does
   */
  SweepProgress(String jobGroup, PrintStream err, boolean interactive, boolean quiet, long total) {
    this.jobGroup = jobGroup;
    this.err = err;
    this.interactive = interactive;
    this.quiet = quiet;
    this.total = total;
  }

  @Override
  public void onJobStart(SparkListenerJobStart jobStart) {
    if (jobStart.properties() != null
        && jobGroup.equals(jobStart.properties().getProperty("spark.jobGroup.id"))) {
      scala.collection.Iterator<Object> ids = jobStart.stageIds().iterator();
      while (ids.hasNext()) {
        stages.add((Integer) ids.next());
      }
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    if (!stages.contains(taskEnd.stageId())) {
      return;
    }
    TaskEndReason reason = taskEnd.reason();
    synchronized (this) {
      if (reason == Success$.MODULE$) {
        done++;
        report(false);
      } else if (reason instanceof ExceptionFailure failure) {
        retried++;
        if (!quiet) {
          err.printf(
              Locale.ROOT,
              "%sschedlab: a cell's task failed on attempt %d (%s: %s);" + " Spark retries it%n",
              interactive ? "\r" : "",
              taskEnd.taskInfo().attemptNumber() + 1,
              failure.className(),
              failure.description());
          err.flush();
        }
      }
    }
  }

  /** The last progress line, ending it, once every cell is in. */
  synchronized void finish() {
    report(true);
  }

  /** Cells that finished. */
  synchronized long done() {
    return done;
  }

  /** Task attempts that failed and were retried (or gave up). */
  synchronized long retried() {
    return retried;
  }

  private void report(boolean last) {
    if (quiet) {
      return;
    }
    long now = System.nanoTime();
    if (!interactive && !last && now - lastLineNs < LOG_INTERVAL_S * 1_000_000_000L) {
      return;
    }
    lastLineNs = now;
    double seconds = (now - startNs) / 1e9;
    double rate = seconds > 0 ? done / seconds : 0;
    String eta = rate > 0 && done < total ? ", ETA " + duration((total - done) / rate) : "";
    err.printf(
        Locale.ROOT,
        "%sschedlab: %d/%d cells done, %.2f cells/s%s, %.1f s elapsed%s%s",
        interactive ? "\r" : "",
        done,
        total,
        rate,
        eta,
        seconds,
        retried == 0 ? "" : " (" + retried + " attempts retried)",
        interactive && !last ? "   " : System.lineSeparator());
    err.flush();
  }

  /** {@code 1h05m}, {@code 3m20s}, {@code 12s}. */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s >= 3600) {
      return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
    }
    if (s >= 60) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    return s + "s";
  }
}
