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
 * @param repeat whether the guest runs it again until the duration is over (a program that ends
 *     by itself, such as hackbench)
 * @param seconds how long the workload runs in the guest and in the simulator
 * @param simulatorWorkload the {@code wl.*} id
 * @param simulatorParameters its {@code -W} parameters
 * @param trace whether the guest records a {@code sched_switch}/{@code sched_migrate_task} trace
 *     while the program runs
 */
public record GuestWorkload(
    String label,
    String program,
    List<String> arguments,
    boolean repeat,
    double seconds,
    String simulatorWorkload,
    Map<String, String> simulatorParameters,
    boolean trace) {

  /** Copies the collections. */
  public GuestWorkload {
    arguments = List.copyOf(arguments);
    simulatorParameters = java.util.Collections.unmodifiableMap(
        new LinkedHashMap<>(simulatorParameters));
  }

  /**
   * A GEMM-like team of {@code threads} on every CPU: chunks of {@code chunkUs} between
   * barriers with a {@code spinUs} spin before sleeping ({@code wl.gemm}); a chunk as long as the
   * run makes pure spinners.
   */
  public static GuestWorkload gemm(int threads, long chunkUs, long spinUs, double seconds,
      int cpus) {
    Map<String, String> sim = new LinkedHashMap<>();
    sim.put("threads", Integer.toString(threads));
    sim.put("chunk", chunkUs + "us");
    sim.put("spin", spinUs + "us");
    sim.put("affinity", "0-" + (cpus - 1));
    return new GuestWorkload(String.format(Locale.ROOT, "gemm %d threads, chunk %d us, spin %d us",
        threads, chunkUs, spinUs), "gemm_team",
        List.of(Integer.toString(threads), Long.toString(chunkUs), Long.toString(spinUs),
            String.format(Locale.ROOT, "%.3f", seconds)),
        false, seconds, "wl.gemm", sim, true);
  }

  /**
   * hackbench with {@code groups} groups of {@code fds} senders and receivers over sockets,
   * {@code loops} messages of 100 bytes each ({@code wl.hackbench}), run again and again for the
   * duration in the guest and with enough loops to last it in the simulator.
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
  public static GuestWorkload hackbench(int groups, int fds, int loops, int datasize,
      boolean pipe, double seconds) {
    Map<String, String> sim = new LinkedHashMap<>();
    sim.put("groups", Integer.toString(groups));
    sim.put("fds", Integer.toString(fds));
    sim.put("loops", "1000000");
    sim.put("datasize", Integer.toString(datasize));
    sim.put("pipe", Boolean.toString(pipe));
    return new GuestWorkload(String.format(Locale.ROOT, "hackbench %d groups x %d fds%s",
        groups, fds, pipe ? ", pipes" : ""), "hackbench",
        List.of(Integer.toString(groups), Integer.toString(fds), Integer.toString(loops),
            Integer.toString(datasize), pipe ? "pipe" : "socket"),
        true, seconds, "wl.hackbench", sim, true);
  }

  /** The same workload without the guest's trace (the trace costs the guest CPU time). */
  public GuestWorkload withoutTrace() {
    return new GuestWorkload(label, program, arguments, repeat, seconds, simulatorWorkload,
        simulatorParameters, false);
  }

  /**
   * The same workload with {@code overrides} added to the simulator's parameters (assumptions
   * such as {@code send_work} that the guest program has no counterpart for).
   */
  public GuestWorkload withSimulatorParameters(Map<String, String> overrides) {
    Map<String, String> sim = new LinkedHashMap<>(simulatorParameters);
    sim.putAll(overrides);
    return new GuestWorkload(label, program, arguments, repeat, seconds, simulatorWorkload, sim,
        trace);
  }

  /** The guest shell commands: snapshots around the program, which runs for the duration. */
  public String guestCommands() {
    String run = "/bin/" + program + " " + String.join(" ", arguments)
        + " >> $O/workload.out 2>&1";
    String loop = repeat
        ? "end=$(( $(cut -d. -f1 /proc/uptime) + " + (long) Math.ceil(seconds) + " ))\n"
            + "while [ $(cut -d. -f1 /proc/uptime) -lt $end ]; do " + run + "; done"
        : run;
    return String.join("\n",
        "echo 1 > /proc/sys/kernel/sched_schedstats",
        "sleep 2",
        "echo \"schedlab-oracle: running " + label + "\"",
        "cat /proc/uptime > $O/uptime.before",
        "cat /proc/schedstat > $O/schedstat.before",
        "cat /proc/softirqs > $O/softirqs.before",
        "cat /proc/interrupts > $O/interrupts.before",
        "T=/sys/kernel/tracing",
        trace ? "if [ -d $T/events/sched ]; then echo 2048 > $T/buffer_size_kb; echo > $T/trace;"
            + " echo 1 > $T/events/sched/sched_switch/enable;"
            + " echo 1 > $T/events/sched/sched_migrate_task/enable; echo 1 > $T/tracing_on; fi"
            : "# no trace",
        loop,
        "[ -d $T/events/sched ] && echo 0 > $T/tracing_on",
        "cat /proc/schedstat > $O/schedstat.after",
        "cat /proc/softirqs > $O/softirqs.after",
        "cat /proc/interrupts > $O/interrupts.after",
        "cat /proc/uptime > $O/uptime.after",
        trace ? "[ -f $T/trace ] && cat $T/trace > $O/trace.txt" : "# no trace",
        "echo \"schedlab-oracle: workload done\"");
  }
}
