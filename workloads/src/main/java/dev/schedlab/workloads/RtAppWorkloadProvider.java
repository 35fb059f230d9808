package dev.schedlab.workloads;

import com.google.auto.service.AutoService;
import dev.schedlab.spi.FileProblems;
import dev.schedlab.spi.ParameterSpec;
import dev.schedlab.spi.PluginDescriptor;
import dev.schedlab.spi.PluginKind;
import dev.schedlab.spi.TaskControl;
import dev.schedlab.spi.TaskProgram;
import dev.schedlab.spi.TaskSpec;
import dev.schedlab.spi.Workload;
import dev.schedlab.spi.WorkloadContext;
import dev.schedlab.spi.WorkloadHost;
import dev.schedlab.spi.WorkloadProvider;
import dev.schedlab.spi.WorkloadResult;
import dev.schedlab.spi.view.WorkClass;
import dev.schedlab.topology.Topology;
import dev.schedlab.workloads.RtAppConfig.Event;
import dev.schedlab.workloads.RtAppConfig.EventKind;
import dev.schedlab.workloads.RtAppConfig.Phase;
import dev.schedlab.workloads.RtAppConfig.TaskDef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@value #ID}: runs an rt-app JSON description ({@link RtAppConfig} lists the supported subset).
 * Each instance of each task is a thread that passes over its phases {@code loop} times, each
 * phase's events {@code loop} times, as rt-app does: {@code run} is work, {@code runtime} keeps the
 * thread busy until that much wall time has passed (in 50 µs slices, so it may overshoot by one
 * slice), {@code sleep} sleeps, {@code timer} sleeps until the timer's next period (rt-app's {@code
 * t_next += period}, started at the thread's start; a late relative timer restarts from now, a late
 * absolute one does not), {@code barrier} blocks until every thread using that name arrives. Timers
 * with ref {@code unique} belong to one thread; others are shared by name.
 *
 * <p>Metric {@code throughput} in loops/s: event-list passes completed by all threads per simulated
 * second (one pass = one line of rt-app's per-thread log). Extras: timer periods, the share that
 * found the timer already expired (late), mean slack (µs to the period's end when the timer event
 * was reached; negative = late) and mean/max timer wakeup latency (period end to running again).
 */
@AutoService(WorkloadProvider.class)
public final class RtAppWorkloadProvider implements WorkloadProvider {

  /** The plugin id. */
  public static final String ID = "wl.rtapp";

  /** The largest rt-app file read. */
  static final int MAX_FILE_BYTES = 16 << 20;

  private static final PluginDescriptor DESCRIPTOR =
      PluginDescriptor.builder(ID, PluginKind.WORKLOAD)
          .description(
              "rt-app JSON import: tasks, instances, phases of run/runtime/sleep/timer/barrier"
                  + " events, fair-class policy, nice, cpus; loops/s and timer lateness")
          .source(
              "rt-app (scheduler-tools/rt-app) JSON grammar, doc/tutorial.txt; fair-class"
                  + " subset")
          .parameter(ParameterSpec.ofString("file", "path of the rt-app JSON file (required)", ""))
          .build();

  /** Called by {@link java.util.ServiceLoader}. */
  public RtAppWorkloadProvider() {}

  @Override
  public PluginDescriptor descriptor() {
    return DESCRIPTOR;
  }

  @Override
  public Workload create(WorkloadContext context) {
    String file = context.parameters().getString("file");
    if (file.isBlank()) {
      throw new IllegalArgumentException(
          ID + ": parameter file is required: the path of an rt-app JSON file");
    }
    return create(read(file), file, context.topology());
  }

  /**
   * The text of {@code file}, at most {@value #MAX_FILE_BYTES} bytes of UTF-8: rt-app files are a
   * few KiB, and a device such as {@code /dev/zero} must not fill the heap.
   */
  private static String read(String file) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      bytes = in.readNBytes(MAX_FILE_BYTES + 1);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          ID + ": cannot read file=" + file + ": " + FileProblems.describe(e), e);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          ID + ": file=" + file + " is not a valid path (" + e.getReason() + ")", e);
    }
    if (bytes.length > MAX_FILE_BYTES) {
      throw new IllegalArgumentException(
          ID
              + ": file="
              + file
              + " is larger than "
              + (MAX_FILE_BYTES >> 20)
              + " MiB; rt-app descriptions are a few KiB");
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          ID + ": cannot read file=" + file + ": " + FileProblems.describe(e), e);
    }
  }

  /** The workload described by {@code json}; {@code origin} names it in error messages. */
  static Workload create(String json, String origin, Topology topology) {
    RtAppConfig config;
    try {
      config = RtAppConfig.parse(json, topology);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ID + ": " + origin + ": " + e.getMessage(), e);
    }
    return new RtApp(config, topology);
  }

  /** A timer resource: the end of its current period. */
  private static final class Timer {
    final boolean absolute;
    boolean started;
    long nextNs;

    Timer(boolean absolute) {
      this.absolute = absolute;
    }
  }

  /** A barrier resource: every thread using the name meets there. */
  private static final class Barrier {
    final String name;
    int parties;
    int arrived;
    int[] sleepers;

    Barrier(String name) {
      this.name = name;
    }

    /** Arrives; the last arriver wakes the others and returns true. */
    boolean arrive(TaskControl control) {
      if (++arrived == parties) {
        for (int i = 0; i < arrived - 1; i++) {
          control.wake(sleepers[i]);
        }
        arrived = 0;
        return true;
      }
      sleepers[arrived - 1] = control.taskId();
      return false;
    }
  }

  private static final class RtApp implements Workload {
    private static final long RUNTIME_SLICE_NS = 50_000;
    private static final int MAX_INSTANT_EVENTS = 1_000_000;

    private final RtAppConfig config;
    private final Topology topology;
    private final Map<String, Timer> sharedTimers = new HashMap<>();
    private final Map<String, Barrier> barriers = new LinkedHashMap<>();
    private long endNs;

    private long loops;
    private long timerPeriods;
    private long timerLate;
    private long slackNsSum;
    private long timerWakeups;
    private long timerLatencyNsSum;
    private long timerLatencyNsMax;

    RtApp(RtAppConfig config, Topology topology) {
      this.config = config;
      this.topology = topology;
    }

    @Override
    public void start(WorkloadHost host) {
      long now = host.nowNs();
      endNs = config.durationNs() == Long.MAX_VALUE ? Long.MAX_VALUE : now + config.durationNs();
      Instance[] threads = new Instance[config.threadCount()];
      int t = 0;
      for (TaskDef task : config.tasks()) {
        for (int i = 0; i < task.instances(); i++) {
          threads[t++] = new Instance(task);
        }
      }
      for (Barrier barrier : barriers.values()) {
        barrier.sleepers = new int[barrier.parties];
      }
      int parentCpu = topology.onlineMask().first();
      t = 0;
      for (TaskDef task : config.tasks()) {
        for (int i = 0; i < task.instances(); i++) {
          TaskSpec spec =
              new TaskSpec(
                  task.name() + "-" + i,
                  task.policy(),
                  task.nice(),
                  task.cpus(),
                  WorkClass.COMPUTE);
          host.spawn(spec, threads[t++], task.cpus() == null ? parentCpu : task.cpus().first());
        }
      }
    }

    /** One instance of an rt-app task: a thread running its phases of events. */
    private final class Instance implements TaskProgram {
      private static final int STARTING = 0;
      private static final int DELAYING = 1;
      private static final int RUNNING_EVENT = 2;
      private static final int TIMER_SLEEP = 3;
      private static final int RUNTIME = 4;

      private final TaskDef task;
      private final Event[][] events;
      private final long[] phaseLoops;
      private final Timer[][] timers;
      private final Barrier[][] barrierAt;
      private int phase;
      private int event;
      private long phaseLoop;
      private long taskLoop;
      private int state = STARTING;
      private long firstNs;
      private long timerDueNs;
      private long runtimeEndNs;

      Instance(TaskDef task) {
        this.task = task;
        int phases = task.phases().size();
        this.events = new Event[phases][];
        this.phaseLoops = new long[phases];
        this.timers = new Timer[phases][];
        this.barrierAt = new Barrier[phases][];
        Set<Barrier> used = new HashSet<>();
        for (int p = 0; p < phases; p++) {
          Phase phase = task.phases().get(p);
          events[p] = phase.events().toArray(new Event[0]);
          phaseLoops[p] = phase.loops();
          timers[p] = new Timer[events[p].length];
          barrierAt[p] = new Barrier[events[p].length];
          for (int e = 0; e < events[p].length; e++) {
            Event ev = events[p][e];
            if (ev.kind() == EventKind.TIMER) {
              timers[p][e] =
                  ev.resource().equals("unique")
                      ? new Timer(ev.absolute())
                      : sharedTimers.computeIfAbsent(ev.resource(), r -> new Timer(ev.absolute()));
            } else if (ev.kind() == EventKind.BARRIER) {
              Barrier b = barriers.computeIfAbsent(ev.resource(), Barrier::new);
              if (used.add(b)) {
                b.parties++;
              }
              barrierAt[p][e] = b;
            }
          }
        }
      }

      @Override
      public void next(TaskControl control) {
        long now = control.nowNs();
        switch (state) {
          case STARTING -> {
            if (task.delayNs() > 0) {
              state = DELAYING;
              control.sleep(task.delayNs());
              return;
            }
            firstNs = now;
          }
          case DELAYING -> firstNs = now;
          case TIMER_SLEEP -> {
            long latency = now - timerDueNs;
            timerWakeups++;
            timerLatencyNsSum += latency;
            timerLatencyNsMax = Math.max(timerLatencyNsMax, latency);
          }
          case RUNTIME -> {
            if (now < runtimeEndNs) {
              control.run(Math.min(runtimeEndNs - now, RUNTIME_SLICE_NS));
              return;
            }
          }
          default -> {
            // A run or sleep ended, or a barrier released this thread.
          }
        }
        state = RUNNING_EVENT;
        for (int guard = 0; guard < MAX_INSTANT_EVENTS; guard++) {
          if (event == events[phase].length && !endPass()) {
            control.exit();
            return;
          }
          if (event == 0 && now >= endNs) {
            control.exit();
            return;
          }
          int slot = event++;
          Event ev = events[phase][slot];
          switch (ev.kind()) {
            case RUN -> {
              control.run(ev.ns());
              return;
            }
            case RUNTIME -> {
              state = RUNTIME;
              runtimeEndNs = now + ev.ns();
              control.run(Math.min(ev.ns(), RUNTIME_SLICE_NS));
              return;
            }
            case SLEEP -> {
              control.sleep(ev.ns());
              return;
            }
            case TIMER -> {
              if (timerWaits(control, timers[phase][slot], ev.ns(), now)) {
                return;
              }
            }
            default -> {
              if (!barrierAt[phase][slot].arrive(control)) {
                control.block();
                return;
              }
            }
          }
        }
        throw new IllegalStateException(
            "rt-app task "
                + task.name()
                + " passed "
                + MAX_INSTANT_EVENTS
                + " events without taking time (late timers or one-thread barriers only)");
      }

      /** rt-app's timer event: advance the period; sleep to its end unless it has passed. */
      private boolean timerWaits(TaskControl control, Timer timer, long periodNs, long now) {
        if (!timer.started) {
          timer.started = true;
          timer.nextNs = firstNs;
        }
        timer.nextNs += periodNs;
        timerPeriods++;
        slackNsSum += timer.nextNs - now;
        if (now < timer.nextNs) {
          state = TIMER_SLEEP;
          timerDueNs = timer.nextNs;
          control.sleep(timer.nextNs - now);
          return true;
        }
        timerLate++;
        if (!timer.absolute) {
          timer.nextNs = now;
        }
        return false;
      }

      /** Ends a pass over the current phase's events; false when the task has no loops left. */
      private boolean endPass() {
        loops++;
        event = 0;
        if (++phaseLoop < phaseLoops[phase]) {
          return true;
        }
        phaseLoop = 0;
        if (++phase < events.length) {
          return true;
        }
        phase = 0;
        return task.loops() < 0 || ++taskLoop < task.loops();
      }
    }

    @Override
    public WorkloadResult result(long simulatedNs) {
      double seconds = simulatedNs / 1e9;
      Map<String, Double> extra = new LinkedHashMap<>();
      extra.put("threads", (double) config.threadCount());
      extra.put("loops", (double) loops);
      extra.put("timer_periods", (double) timerPeriods);
      extra.put("timer_late_fraction", timerPeriods == 0 ? 0 : timerLate / (double) timerPeriods);
      extra.put("timer_slack_mean_us", timerPeriods == 0 ? 0 : slackNsSum / 1e3 / timerPeriods);
      extra.put(
          "timer_wakeup_latency_mean_us",
          timerWakeups == 0 ? 0 : timerLatencyNsSum / 1e3 / timerWakeups);
      extra.put("timer_wakeup_latency_max_us", timerLatencyNsMax / 1e3);
      double loopsPerSecond = seconds == 0 ? 0 : loops / seconds;
      return new WorkloadResult("throughput", loopsPerSecond, "loops/s", true, extra);
    }
  }
}
