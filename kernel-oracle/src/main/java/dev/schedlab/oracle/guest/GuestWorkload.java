package dev.schedlab.oracle.guest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A workload run in the guest and its simulator counterpart with matching parameters: the guest
 * program (from {@link GuestPrograms}) and its arguments, repeated until the duration has passed,
 * and the {@code wl.*} workload with the parameters that describe the same team.
 *
 * @param label a short name for reports, e.g. {@code gemm 8x10s spin}
 * @param program the guest program's name
 * @param arguments its arguments
 * @param repeat whether the guest runs it again until the duration is over (a program that ends by
 *     itself, such as hackbench)
 * @param seconds how long the workload runs in the guest and in the simulator
 * @param simulatorWorkload the {@code wl.*} id
 * @param simulatorParameters its {@code -W} parameters
 * @param traceEvents the {@code sched} trace events the guest records while the program runs, as
 *     tracefs names them ({@link #COMPARED_EVENTS} for the comparison, {@link #RECORDED_EVENTS} for
 *     a recording; empty: no trace)
 */
public record GuestWorkload(
    String label,
    String program,
    List<String> arguments,
    boolean repeat,
    double seconds,
    String simulatorWorkload,
    Map<String, String> simulatorParameters,
    List<String> traceEvents) {

  /** The events the behaviour comparison reads: switches and migrations. */
  public static final List<String> COMPARED_EVENTS = List.of("sched_switch", "sched_migrate_task");

  /**
   * The events of a recording for trace replay: every switch, wakeup and migration, and the process
   * life cycle (fork, exec, exit).
   */
  public static final List<String> RECORDED_EVENTS =
      List.of(
          "sched_switch",
          "sched_waking",
          "sched_wakeup",
          "sched_wakeup_new",
          "sched_process_fork",
          "sched_process_exec",
          "sched_process_exit",
          "sched_migrate_task");

  /** Copies the collections. */
  public GuestWorkload {
    arguments = List.copyOf(arguments);
    traceEvents = List.copyOf(traceEvents);
    simulatorParameters =
        java.util.Collections.unmodifiableMap(new LinkedHashMap<>(simulatorParameters));
  }

  /**
   * A GEMM-like team of {@code threads} on every CPU: chunks of {@code chunkUs} between barriers
   * with a {@code spinUs} spin before sleeping ({@code wl.gemm}); a chunk as long as the run makes
   * pure spinners.
   */
  public static GuestWorkload gemm(
      int threads, long chunkUs, long spinUs, double seconds, int cpus) {
    Map<String, String> sim = new LinkedHashMap<>();
    sim.put("threads", Integer.toString(threads));
    sim.put("chunk", chunkUs + "us");
    sim.put("spin", spinUs + "us");
    sim.put("affinity", "0-" + (cpus - 1));
    return new GuestWorkload(
        String.format(
            Locale.ROOT, "gemm %d threads, chunk %d us, spin %d us", threads, chunkUs, spinUs),
        "gemm_team",
        List.of(
            Integer.toString(threads),
            Long.toString(chunkUs),
            Long.toString(spinUs),
            String.format(Locale.ROOT, "%.3f", seconds)),
        false,
        seconds,
        "wl.gemm",
        sim,
        COMPARED_EVENTS);
  }

  /**
   * hackbench with {@code groups} groups of {@code fds} senders and receivers over sockets, {@code
   * loops} messages of 100 bytes each ({@code wl.hackbench}), run again and again for the duration
   * in the guest and with enough loops to last it in the simulator.
   */
  public static GuestWorkload hackbench(int groups, int fds, int loops, double seconds) {
    return hackbench(groups, fds, loops, 100, false, seconds);
  }

  /**
   * hackbench with {@code groups} groups of {@code fds} senders and receivers, {@code loops}
   * messages of {@code datasize} bytes each, over sockets or pipes ({@code wl.hackbench}), run
   * again and again for the duration in the guest and with enough loops to last it in the
   * simulator.
   */
  public static GuestWorkload hackbench(
      int groups, int fds, int loops, int datasize, boolean pipe, double seconds) {
    Map<String, String> sim = new LinkedHashMap<>();
    sim.put("groups", Integer.toString(groups));
    sim.put("fds", Integer.toString(fds));
    sim.put("loops", "1000000");
    sim.put("datasize", Integer.toString(datasize));
    sim.put("pipe", Boolean.toString(pipe));
    return new GuestWorkload(
        String.format(
            Locale.ROOT, "hackbench %d groups x %d fds%s", groups, fds, pipe ? ", pipes" : ""),
        "hackbench",
        List.of(
            Integer.toString(groups),
            Integer.toString(fds),
            Integer.toString(loops),
            Integer.toString(datasize),
            pipe ? "pipe" : "socket"),
        true,
        seconds,
        "wl.hackbench",
        sim,
        COMPARED_EVENTS);
  }

  /**
   * schbench with {@code messageThreads} message threads of {@code workers} workers each; a woken
   * worker sleeps {@code sleepUs}, then runs {@code requestUs} of CPU time ({@code wl.schbench},
   * whose {@code request_work} is that time alone on a full CPU). Runs once for the duration;
   * prints {@code p99_wakeup_latency} in µs, as the simulator's workload does.
   */
  public static GuestWorkload schbench(
      int messageThreads, int workers, long requestUs, long sleepUs, double seconds) {
    Map<String, String> sim = new LinkedHashMap<>();
    sim.put("message_threads", Integer.toString(messageThreads));
    sim.put("workers", Integer.toString(workers));
    sim.put("request_work", requestUs + "us");
    sim.put("sleep", sleepUs + "us");
    return new GuestWorkload(
        String.format(
            Locale.ROOT,
            "schbench %d message threads x %d workers, request %d us, sleep %d us",
            messageThreads,
            workers,
            requestUs,
            sleepUs),
        "schbench",
        List.of(
            Integer.toString(messageThreads),
            Integer.toString(workers),
            Long.toString(requestUs),
            Long.toString(sleepUs),
            String.format(Locale.ROOT, "%.3f", seconds)),
        false,
        seconds,
        "wl.schbench",
        sim,
        COMPARED_EVENTS);
  }

  /**
   * Periodic rt-app-like workers ({@code rtapp_periodic}): {@code threads} threads each running
   * {@code runUs} of CPU time per absolute period of {@code periodUs}; the simulator runs {@code
   * wl.rtapp} on {@code json}, where the caller writes {@link #rtappJson} (one task of {@code
   * threads} instances: {@code run}, then a unique absolute {@code timer}). Both report {@code
   * throughput} in loops/s and the timer's lateness.
   */
  public static GuestWorkload rtappPeriodic(
      int threads, long periodUs, long runUs, double seconds, java.nio.file.Path json) {
    return new GuestWorkload(
        String.format(
            Locale.ROOT,
            "rt-app %d periodic threads, run %d us every %d us",
            threads,
            runUs,
            periodUs),
        "rtapp_periodic",
        List.of(
            Integer.toString(threads),
            Long.toString(periodUs),
            Long.toString(runUs),
            String.format(Locale.ROOT, "%.3f", seconds)),
        false,
        seconds,
        "wl.rtapp",
        Map.of("file", json.toString()),
        COMPARED_EVENTS);
  }

  /** The rt-app JSON of {@link #rtappPeriodic} for the simulator's {@code wl.rtapp}. */
  public static String rtappJson(int threads, long periodUs, long runUs) {
    return String.format(
        Locale.ROOT,
        "{\"tasks\": {\"periodic\": {\"instance\": %d,"
            + " \"loop\": -1, \"run\": %d, \"timer\": {\"ref\": \"unique\", \"period\": %d,"
            + " \"mode\": \"absolute\"}}}}%n",
        threads,
        runUs,
        periodUs);
  }

  /**
   * A fork/exec/exit mix for recordings ({@code forkexec}): {@code workers} processes each fork
   * {@code iterations} children in turn, every child execs, runs {@code runUs} of CPU time and
   * exits; run again and again for the duration. The simulator has no counterpart: a recording only
   * ({@code simulatorWorkload} is empty).
   */
  public static GuestWorkload forkexec(int workers, int iterations, long runUs, double seconds) {
    return new GuestWorkload(
        String.format(
            Locale.ROOT,
            "forkexec %d workers x %d children, %d us each",
            workers,
            iterations,
            runUs),
        "forkexec",
        List.of(Integer.toString(workers), Integer.toString(iterations), Long.toString(runUs)),
        true,
        seconds,
        "",
        Map.of(),
        RECORDED_EVENTS);
  }

  /** Whether the guest records a trace while the program runs. */
  public boolean trace() {
    return !traceEvents.isEmpty();
  }

  /** Whether there is a simulator counterpart ({@link #forkexec} has none). */
  public boolean simulated() {
    return !simulatorWorkload.isEmpty();
  }

  /** The same workload recording {@link #RECORDED_EVENTS}, for trace replay. */
  public GuestWorkload recording() {
    return new GuestWorkload(
        label,
        program,
        arguments,
        repeat,
        seconds,
        simulatorWorkload,
        simulatorParameters,
        RECORDED_EVENTS);
  }

  /** The same workload without the guest's trace (the trace costs the guest CPU time). */
  public GuestWorkload withoutTrace() {
    return new GuestWorkload(
        label,
        program,
        arguments,
        repeat,
        seconds,
        simulatorWorkload,
        simulatorParameters,
        List.of());
  }

  /**
   * The same workload with {@code overrides} added to the simulator's parameters (assumptions such
   * as {@code send_work} that the guest program has no counterpart for).
   */
  public GuestWorkload withSimulatorParameters(Map<String, String> overrides) {
    Map<String, String> sim = new LinkedHashMap<>(simulatorParameters);
    sim.putAll(overrides);
    return new GuestWorkload(
        label, program, arguments, repeat, seconds, simulatorWorkload, sim, traceEvents);
  }

  /** The guest shell commands: snapshots around the program, which runs for the duration. */
  public String guestCommands() {
    String run = "/bin/" + program + " " + String.join(" ", arguments) + " >> $O/workload.out 2>&1";
    String loop =
        repeat
            ? "end=$(( $(cut -d. -f1 /proc/uptime) + "
                + (long) Math.ceil(seconds)
                + " ))\n"
                + "while [ $(cut -d. -f1 /proc/uptime) -lt $end ]; do "
                + run
                + "; done"
            : run;
    return String.join(
        "\n",
        "echo 1 > /proc/sys/kernel/sched_schedstats",
        "sleep 2",
        "echo \"schedlab-oracle: running " + label + "\"",
        "cat /proc/uptime > $O/uptime.before",
        "cat /proc/schedstat > $O/schedstat.before",
        "cat /proc/softirqs > $O/softirqs.before",
        "cat /proc/interrupts > $O/interrupts.before",
        "T=/sys/kernel/tracing",
        trace() ? traceStart() : "# no trace",
        loop,
        "[ -d $T/events/sched ] && echo 0 > $T/tracing_on",
        "cat /proc/schedstat > $O/schedstat.after",
        "cat /proc/softirqs > $O/softirqs.after",
        "cat /proc/interrupts > $O/interrupts.after",
        "cat /proc/uptime > $O/uptime.after",
        trace()
            ? "[ -f $T/trace ] && cat $T/trace > $O/trace.txt"
                + " && cat $T/per_cpu/cpu*/stats | grep overrun > $O/trace.overrun"
            : "# no trace",
        "echo \"schedlab-oracle: workload done\"");
  }

  /**
   * Turns the trace on: 2 MiB of ring buffer per CPU, the events enabled one by one, and for a
   * recording the {@code global} trace clock, so that time stamps order events across CPUs (the
   * default {@code local} clock is per CPU).
   */
  private String traceStart() {
    StringBuilder sb =
        new StringBuilder(
            "if [ -d $T/events/sched ]; then echo 2048 >" + " $T/buffer_size_kb; echo > $T/trace;");
    if (!traceEvents.equals(COMPARED_EVENTS)) {
      sb.append(" echo global > $T/trace_clock;");
    }
    for (String event : traceEvents) {
      sb.append(" echo 1 > $T/events/sched/").append(event).append("/enable;");
    }
    return sb.append(" echo 1 > $T/tracing_on; fi").toString();
  }
}
