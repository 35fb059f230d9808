package dev.schedlab.cli.command;

import dev.schedlab.cli.args.BadInputException;
import dev.schedlab.cli.report.Recording;
import dev.schedlab.core.SimulationConfig;
import java.util.List;
import java.util.Locale;

/**
 * A lower bound on the heap a set of runs needs, checked before the first one starts, so that a run
 * too large for the heap is refused in one line instead of failing minutes later with an {@link
 * OutOfMemoryError}. The figures are measured, not derived (2026-12-02, {@code -Xlog:gc} and runs
 * at decreasing {@code -Xmx}): a run of GEMM on a 8192-CPU {@code hw.shape} machine (8n4l128c2t)
 * fails at 128 MB and runs at 200 MB; 2048 CPUs (4n2l128c2t) hold 18 MB after a collection and Vera
 * (352 CPUs) 5 MB, most of it the CLI's own; a traced 3 s Vera GEMM run logs about 450,000 events.
 * What grows with the square of the CPU count is the per-CPU sched-domain and group masks. Being a
 * lower bound, it refuses only runs that cannot fit; {@code Main} turns an {@link OutOfMemoryError}
 * that still happens into one line too.
 */
final class HeapEstimate {

  /** Per pair of CPUs: the per-CPU domain and group masks (8192 CPUs: 96 MB of the 128). */
  static final double BYTES_PER_CPU_PAIR = 1.5;

  /**
   * Per CPU: runqueue, PELT and balancing state, the tasks of a one-per-CPU workload (fitted to
   * 2048 CPUs holding 18 MB after a collection, the CLI's own few MB included).
   */
  static final long BYTES_PER_CPU = 4 * 1024;

  /** Trace events a run logs per CPU and simulated second, at least (GEMM on Vera: about 420). */
  static final long TRACE_EVENTS_PER_CPU_SECOND = 400;

  /** One logged event: two longs and four ints in {@link Recording}'s parallel arrays. */
  static final long BYTES_PER_TRACE_EVENT = 32;

  /** Per CPU of a recording's timeline: busy time in {@link Recording#BUCKETS} buckets. */
  static final long TIMELINE_BYTES_PER_CPU = 8L * Recording.BUCKETS;

  private HeapEstimate() {}

  /**
   * The heap {@code configs} need at least when run {@code threads} at a time: the engine state of
   * the largest runs that are in flight together, and the recordings of every run, which are all
   * kept for the reports.
   */
  static long bytes(List<SimulationConfig> configs, int threads, Runner.Record record) {
    long largest = 0;
    long recordings = 0;
    for (SimulationConfig config : configs) {
      int cpus = config.hardware().topology().nrCpuIds();
      largest = Math.max(largest, engineBytes(cpus));
      recordings += recordingBytes(cpus, config.durationNs(), record);
    }
    int atOnce = Math.max(1, Math.min(threads, configs.size()));
    return largest * atOnce + recordings;
  }

  /** The engine state of one run on {@code cpus} CPUs. */
  static long engineBytes(int cpus) {
    return (long) (BYTES_PER_CPU_PAIR * cpus * cpus) + BYTES_PER_CPU * cpus;
  }

  /** What a run's recording holds at least at its end. */
  static long recordingBytes(int cpus, long durationNs, Runner.Record record) {
    if (record == Runner.Record.NONE) {
      return 0;
    }
    long bytes = TIMELINE_BYTES_PER_CPU * cpus;
    if (record == Runner.Record.TRACE || record == Runner.Record.PERFETTO_TRACE) {
      double events = (double) TRACE_EVENTS_PER_CPU_SECOND * cpus * (durationNs / 1e9);
      bytes += BYTES_PER_TRACE_EVENT * (long) Math.min(Recording.DEFAULT_MAX_EVENTS, events);
    }
    return bytes;
  }

  /**
   * Refuses {@code needed} bytes when more than {@code maxHeap}.
   *
   * @throws BadInputException naming both figures and how to raise the heap
   */
  static void check(long needed, long maxHeap, int runsAtOnce) {
    if (needed <= maxHeap) {
      return;
    }
    long mb = 1 << 20;
    // Room above the bound for what it leaves out; in whole 256 MB steps.
    long suggest = ((needed * 2 + 256 * mb - 1) / (256 * mb)) * 256;
    throw new BadInputException(
        String.format(
            Locale.ROOT,
            "this run needs at least %d MB of heap (%d run%s at once), more than the %d MB the JVM"
                + " may use; raise it with SCHEDLAB_JAVA_OPTS=-Xmx%dm or make the run smaller (a"
                + " smaller machine, fewer variants or threads, no --trace)",
            (needed + mb - 1) / mb,
            runsAtOnce,
            runsAtOnce == 1 ? "" : "s",
            maxHeap / mb,
            suggest));
  }
}
