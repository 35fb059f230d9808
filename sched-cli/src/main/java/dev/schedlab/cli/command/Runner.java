package dev.schedlab.cli.command;

import dev.schedlab.cli.args.RunSpec;
import dev.schedlab.cli.args.Scenario;
import dev.schedlab.cli.report.Recording;
import dev.schedlab.cli.report.RunOutcome;
import dev.schedlab.core.SimulationConfig;
import dev.schedlab.core.Simulations;
import dev.schedlab.core.stats.SimulationResult;
import dev.schedlab.spi.PluginRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

/**
 * Runs simulations, one per thread, several at once. Every configuration is built (and so checked)
 * before the first run starts, and so is the heap they need ({@link HeapEstimate}), so bad input
 * never costs simulation time. Results come back in the order of the specifications whatever order
 * the runs finish in, and each run is a pure function of its configuration, so the thread count
 * never changes a report.
 */
final class Runner {

  /** What to record of each run besides its result. */
  enum Record {
    /** Nothing. */
    NONE,
    /** Per-CPU busy time over time (the HTML heat map). */
    TIMELINE,
    /** The timeline and the event log of a Chrome trace. */
    TRACE,
    /** The timeline and the event log of a Perfetto trace (switches, wakeups, balancing). */
    PERFETTO_TRACE;

    /** What the recording of a run logs. */
    Recording.Detail detail() {
      return switch (this) {
        case NONE, TIMELINE -> Recording.Detail.HEAT_MAP;
        case TRACE -> Recording.Detail.SLICES;
        case PERFETTO_TRACE -> Recording.Detail.SCHED;
      };
    }
  }

  private Runner() {}

  /**
   * Runs {@code specs} on up to {@code threads} threads.
   *
   * @param record what to record of each run
   * @param progress whether to show progress on stderr ({@link Progress}: in place on a terminal,
   *     plain lines otherwise)
   */
  static List<RunOutcome> run(
      Cli cli,
      PluginRegistry registry,
      Scenario scenario,
      List<RunSpec> specs,
      int threads,
      Record record,
      boolean progress) {
    return run(cli, registry, scenario, specs, threads, record, progress, (i, outcome) -> {});
  }

  /**
   * As above, also handing each outcome to {@code finished} with its index in {@code specs} as soon
   * as its run ends (on the run's thread; runs end in any order).
   */
  static List<RunOutcome> run(
      Cli cli,
      PluginRegistry registry,
      Scenario scenario,
      List<RunSpec> specs,
      int threads,
      Record record,
      boolean progress,
      BiConsumer<Integer, RunOutcome> finished) {
    List<SimulationConfig> configs = new ArrayList<>();
    for (RunSpec spec : specs) {
      Scenario own = spec.scenario() != null ? spec.scenario() : scenario;
      configs.add(own.config(registry, spec.variant(), spec.seed()));
    }
    int poolSize = Math.max(1, Math.min(threads, specs.size()));
    HeapEstimate.check(
        HeapEstimate.bytes(configs, poolSize, record), Runtime.getRuntime().maxMemory(), poolSize);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            poolSize,
            r -> {
              Thread t = new Thread(r, "schedlab-run");
              t.setDaemon(true);
              return t;
            });
    long[] durations = new long[configs.size()];
    for (int i = 0; i < durations.length; i++) {
      durations[i] = configs.get(i).durationNs();
    }
    Progress shown = progress ? new Progress(cli.err(), cli.interactive(), durations) : null;
    try {
      List<Future<RunOutcome>> futures = new ArrayList<>();
      for (int i = 0; i < specs.size(); i++) {
        int index = i;
        RunSpec spec = specs.get(i);
        SimulationConfig config = configs.get(i);
        futures.add(
            pool.submit(
                () -> {
                  RunOutcome outcome = runOne(spec, config, record, shown, index);
                  finished.accept(index, outcome);
                  if (shown != null) {
                    shown.finished(index);
                  }
                  return outcome;
                }));
      }
      List<RunOutcome> outcomes = new ArrayList<>();
      for (Future<RunOutcome> future : futures) {
        outcomes.add(await(future));
      }
      return outcomes;
    } finally {
      pool.shutdownNow();
      if (shown != null) {
        shown.close();
      }
    }
  }

  private static RunOutcome runOne(
      RunSpec spec, SimulationConfig config, Record record, Progress progress, int index) {
    if (record == Record.NONE) {
      if (progress == null) {
        return new RunOutcome(spec, Simulations.run(config), null);
      }
      Progress.Clock clock = new Progress.Clock();
      progress.started(index, clock::nowNs);
      return new RunOutcome(spec, Simulations.run(config, clock), null);
    }
    Recording recording =
        new Recording(
            config.hardware().topology(),
            config.durationNs(),
            record.detail(),
            Recording.DEFAULT_MAX_EVENTS);
    if (progress != null) {
      progress.started(index, recording::latestNs);
    }
    SimulationResult result = recording.run(config);
    return new RunOutcome(spec, result, recording);
  }

  private static RunOutcome await(Future<RunOutcome> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a simulation", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(cause);
    }
  }
}
