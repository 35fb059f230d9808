package dev.schedlab.oracle.guest;

import dev.schedlab.spi.Parameters;
import dev.schedlab.workloads.RtAppPeriodicTeam;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A simulator workload ({@code wl.*} with its {@code -W} parameters) as the guest program that runs
 * the same team, for {@code schedlab kernel}: {@code wl.gemm} is {@code gemm_team}, {@code
 * wl.hackbench} is {@code hackbench}, {@code wl.schbench} is {@code schbench}, {@code wl.rtapp}
 * with a file that is one periodic team is {@code rtapp_periodic}. Parameters the guest program has
 * no counterpart for are refused in one line when they would change what runs (affinity, pinned
 * placement, a wake tree, a policy other than SCHED_NORMAL), and passed to the simulator alone when
 * they are its assumptions ({@code send_work}).
 */
public final class WorkloadMapping {

  /** The workloads a guest program exists for. */
  public static final List<String> SUPPORTED =
      List.of("wl.gemm", "wl.hackbench", "wl.schbench", "wl.rtapp");

  private WorkloadMapping() {}

  /**
   * The guest workload for simulator workload {@code id}.
   *
   * @param id the {@code wl.*} id
   * @param resolved its parameters with defaults, already checked against its descriptor
   * @param overrides the parameters the user gave
   * @param seconds how long it runs in the guest and in the simulator
   * @param shape the guest's machine
   * @throws IllegalArgumentException for a workload or parameter the guest cannot run
   */
  public static GuestWorkload of(
      String id,
      Parameters resolved,
      Map<String, String> overrides,
      double seconds,
      GuestShape shape) {
    if (overrides.containsKey("affinity") && !resolved.getString("affinity").isEmpty()) {
      throw new IllegalArgumentException(
          id + " -W affinity: the guest program runs on every" + " CPU; leave affinity unset");
    }
    return switch (id) {
      case "wl.gemm" -> gemm(resolved, overrides, seconds, shape);
      case "wl.hackbench" -> hackbench(resolved, overrides, seconds);
      case "wl.schbench" -> schbench(resolved, overrides, seconds);
      case "wl.rtapp" -> rtapp(resolved, seconds, shape);
      default ->
          throw new IllegalArgumentException(
              "no guest program for " + id + "; allowed: " + String.join(", ", SUPPORTED));
    };
  }

  private static GuestWorkload gemm(
      Parameters p, Map<String, String> overrides, double seconds, GuestShape shape) {
    refuse(
        !p.getString("placement").equals("confined"),
        "wl.gemm -W placement="
            + p.getString("placement")
            + ": gemm_team's threads may run anywhere (confined)");
    refuse(
        p.getInt("wake_fanout") != 0,
        "wl.gemm -W wake_fanout="
            + p.getInt("wake_fanout")
            + ": gemm_team's last arriver wakes every sleeper (wake_fanout=0)");
    int threads = p.getInt("threads") == 0 ? shape.cpus() / shape.threads() : p.getInt("threads");
    // gemm_team checks the clock between chunks: a chunk longer than the run (a pure spinner)
    // would keep the guest past the duration, so it is cut to the run.
    long chunkUs = Math.max(1, Math.min(p.getLong("chunk") / 1_000, (long) (seconds * 1e6)));
    long spinUs = p.getLong("spin") / 1_000;
    return GuestWorkload.gemm(threads, chunkUs, spinUs, seconds, shape.cpus())
        .withSimulatorParameters(
            passThrough(
                overrides, "threads", "chunk", "spin", "affinity", "placement", "wake_fanout"));
  }

  /**
   * An rt-app file that is one periodic team ({@link RtAppPeriodicTeam}) as {@code rtapp_periodic};
   * the simulator reads the same file.
   */
  private static GuestWorkload rtapp(Parameters p, double seconds, GuestShape shape) {
    String file = p.getString("file");
    if (file.isEmpty()) {
      throw new IllegalArgumentException("wl.rtapp needs -W file=RTAPP.json");
    }
    String json;
    try {
      json = Files.readString(Path.of(file));
    } catch (IOException | InvalidPathException e) {
      throw new IllegalArgumentException("wl.rtapp: cannot read file=" + file + ": " + e, e);
    }
    RtAppPeriodicTeam team = RtAppPeriodicTeam.of(json, shape.cpus());
    long periodUs = team.periodNs() / 1_000;
    long runUs = team.runNs() / 1_000;
    if (periodUs * 1_000 != team.periodNs() || runUs * 1_000 != team.runNs()) {
      throw new IllegalArgumentException(
          "wl.rtapp: rtapp_periodic takes whole microseconds; the file's period or run is not");
    }
    return GuestWorkload.rtappPeriodic(team.threads(), periodUs, runUs, seconds, Path.of(file));
  }

  private static GuestWorkload hackbench(
      Parameters p, Map<String, String> overrides, double seconds) {
    refuse(
        !p.getBoolean("start_pipe"),
        "wl.hackbench -W start_pipe=false: the guest's"
            + " hackbench starts its tasks together, as hackbench does");
    GuestWorkload w =
        GuestWorkload.hackbench(
            p.getInt("groups"),
            p.getInt("fds"),
            p.getInt("loops"),
            p.getInt("datasize"),
            p.getBoolean("pipe"),
            seconds);
    return w.withSimulatorParameters(
        passThrough(
            overrides, "groups", "fds", "loops", "datasize", "pipe", "affinity", "start_pipe"));
  }

  private static GuestWorkload schbench(
      Parameters p, Map<String, String> overrides, double seconds) {
    refuse(
        !p.getString("policy").equals("normal"),
        "wl.schbench -W policy="
            + p.getString("policy")
            + ": the guest's schbench runs SCHED_NORMAL (policy=normal)");
    refuse(
        p.getLong("warmup") != 0,
        "wl.schbench -W warmup: the guest's schbench counts from" + " the start (warmup=0)");
    long requestUs = Math.max(1, p.getLong("request_work") / 1_000);
    return GuestWorkload.schbench(
            p.getInt("message_threads"),
            p.getInt("workers"),
            requestUs,
            p.getLong("sleep") / 1_000,
            seconds)
        .withSimulatorParameters(
            passThrough(
                overrides,
                "message_threads",
                "workers",
                "request_work",
                "sleep",
                "warmup",
                "policy",
                "affinity"));
  }

  /** The overrides that only the simulator sees (its assumptions), without {@code mapped}. */
  private static Map<String, String> passThrough(Map<String, String> overrides, String... mapped) {
    Map<String, String> out = new LinkedHashMap<>(overrides);
    for (String key : mapped) {
      out.remove(key);
    }
    return out;
  }

  private static void refuse(boolean condition, String message) {
    if (condition) {
      throw new IllegalArgumentException(message);
    }
  }
}
