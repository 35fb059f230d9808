package dev.schedlab.oracle;

import dev.schedlab.oracle.guest.Accelerator;
import dev.schedlab.oracle.guest.GuestShape;
import dev.schedlab.oracle.guest.GuestWorkload;
import dev.schedlab.oracle.guest.HostTools;
import dev.schedlab.oracle.guest.OracleException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The oracle's own command line ({@code kernel-oracle/bin/oracle}) beside {@code schedlab kernel}:
 * {@code domains} (one shape's domains), {@code random} (the random-shape suite), {@code behaviour}
 * (a workload against the simulator) and {@code record} (a tracefs recording for trace replay). Bad
 * input prints one line and exits with 2; a domain difference exits with 1.
 */
public final class OracleMain {

  private static final String USAGE =
      "usage: domains --shape "
          + GuestShape.GRAMMAR
          + " [--append KERNEL_ARGS] [--kernel IMAGE] [--accel tcg|kvm] [--work DIR]"
          + " | random --count N --seed S --max-cpus C --out FILE.tsv [--work DIR]"
          + " | behaviour --shape SHAPE --workload gemm:THREADS:CHUNK_US:SPIN_US|"
          + "hackbench:GROUPS:FDS:LOOPS|schbench:M:W:REQUEST_US:SLEEP_US|rtapp:T:PERIOD_US:RUN_US"
          + " --seconds S"
          + " [--append ARGS] [--kernel IMAGE] [--work DIR]"
          + " [--rules linux-6.1|mainline]"
          + " | record --shape SHAPE --workload gemm:...|hackbench:...|forkexec:WORKERS:CHILDREN:RUN_US"
          + " --seconds S --out TRACE.txt [--append ARGS] [--kernel IMAGE] [--work DIR]";

  private OracleMain() {}

  /** Runs the command and exits with its status. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns 0 (all equal), 1 (differences) or 2 (bad input, no guest). */
  static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      if (args.length > 0 && args[0].equals("random")) {
        return random(
            options(args, "random", List.of("--count", "--seed", "--max-cpus", "--out", "--work")),
            out,
            err);
      }
      if (args.length > 0 && args[0].equals("record")) {
        return record(
            options(
                args,
                "record",
                List.of(
                    "--shape",
                    "--workload",
                    "--seconds",
                    "--append",
                    "--kernel",
                    "--accel",
                    "--work",
                    "--out")),
            out,
            err);
      }
      if (args.length > 0 && args[0].equals("behaviour")) {
        return behaviour(
            options(
                args,
                "behaviour",
                List.of(
                    "--shape",
                    "--workload",
                    "--seconds",
                    "--append",
                    "--kernel",
                    "--accel",
                    "--work",
                    "--rules")),
            out,
            err);
      }
      Map<String, String> options =
          options(args, "domains", List.of("--shape", "--append", "--kernel", "--accel", "--work"));
      GuestShape shape = GuestShape.parse(require(options, "--shape"));
      Accelerator accel =
          options.containsKey("--accel") ? accelerator(options.get("--accel")) : null;
      Path kernel = options.containsKey("--kernel") ? Path.of(options.get("--kernel")) : null;
      if (kernel != null && !Files.isRegularFile(kernel)) {
        throw new OracleException("--kernel " + kernel + " is not a file");
      }
      Path work =
          options.containsKey("--work")
              ? Path.of(options.get("--work"))
              : Files.createTempDirectory("schedlab-oracle");
      HostTools tools = HostTools.find(true, line -> err.println("schedlab kernel: " + line));
      KernelOracle oracle =
          new KernelOracle(tools, line -> err.println("schedlab kernel: " + line));
      KernelOracle.DomainResult result =
          oracle.domains(
              new KernelOracle.Request(
                  shape, options.getOrDefault("--append", ""), kernel, accel, work));
      out.print(result.report().toText());
      result.comparison().differences().stream().limit(40).forEach(d -> out.println("  " + d));
      return result.comparison().matches() ? 0 : 1;
    } catch (OracleException | IllegalArgumentException e) {
      err.println("schedlab kernel: " + e.getMessage());
      return 2;
    } catch (java.io.IOException e) {
      err.println("schedlab kernel: " + e.getMessage());
      return 2;
    }
  }

  private static int behaviour(Map<String, String> options, PrintStream out, PrintStream err)
      throws java.io.IOException {
    GuestShape shape = GuestShape.parse(require(options, "--shape"));
    double seconds = Double.parseDouble(options.getOrDefault("--seconds", "10"));
    String workloadText = require(options, "--workload");
    Path work =
        options.containsKey("--work")
            ? Path.of(options.get("--work"))
            : Files.createTempDirectory("schedlab-oracle");
    GuestWorkload workload = workload(workloadText, seconds, shape, false, work);
    Path kernel = options.containsKey("--kernel") ? Path.of(options.get("--kernel")) : null;
    Accelerator accel = options.containsKey("--accel") ? accelerator(options.get("--accel")) : null;
    // The simulator follows the guest kernel's rules unless told otherwise; checked before boot.
    KernelOracle.SimulatorSettings settings =
        KernelOracle.SimulatorSettings.of(
            dev.schedlab.core.KernelRules.of(options.getOrDefault("--rules", "linux-6.1")));
    HostTools tools = HostTools.find(true, line -> err.println("schedlab kernel: " + line));
    KernelOracle oracle = new KernelOracle(tools, line -> err.println("schedlab kernel: " + line));
    KernelOracle.BehaviourResult result =
        oracle.behaviour(
            new KernelOracle.Request(
                shape, options.getOrDefault("--append", ""), kernel, accel, work),
            workload,
            settings);
    out.print(result.report().toText());
    return 0;
  }

  /**
   * {@code gemm:THREADS:CHUNK_US:SPIN_US}, {@code hackbench:GROUPS:FDS:LOOPS}, {@code
   * schbench:MESSAGE_THREADS:WORKERS:REQUEST_US:SLEEP_US}, {@code rtapp:THREADS:PERIOD_US:RUN_US}
   * (its rt-app JSON for the simulator written to {@code work}) or, for a recording only, {@code
   * forkexec:WORKERS:CHILDREN:RUN_US}.
   */
  private static GuestWorkload workload(
      String text, double seconds, GuestShape shape, boolean recording, Path work)
      throws java.io.IOException {
    String[] w = text.split(":");
    try {
      return switch (w[0]) {
        case "gemm" ->
            GuestWorkload.gemm(
                Integer.parseInt(w[1]),
                Long.parseLong(w[2]),
                Long.parseLong(w[3]),
                seconds,
                shape.cpus());
        case "hackbench" ->
            GuestWorkload.hackbench(
                Integer.parseInt(w[1]), Integer.parseInt(w[2]), Integer.parseInt(w[3]), seconds);
        case "schbench" ->
            GuestWorkload.schbench(
                Integer.parseInt(w[1]),
                Integer.parseInt(w[2]),
                Long.parseLong(w[3]),
                Long.parseLong(w[4]),
                seconds);
        case "rtapp" -> {
          int threads = Integer.parseInt(w[1]);
          long periodUs = Long.parseLong(w[2]);
          long runUs = Long.parseLong(w[3]);
          if (threads < 1 || periodUs < 1 || runUs < 0) {
            throw new IllegalArgumentException(
                "--workload rtapp:THREADS:PERIOD_US:RUN_US needs"
                    + " THREADS and PERIOD_US >= 1 and RUN_US >= 0, not '"
                    + text
                    + "'");
          }
          // The simulator's wl.rtapp reads the same team from a file in the work directory.
          Path json = work.resolve("rtapp.json");
          Files.createDirectories(work);
          Files.writeString(json, GuestWorkload.rtappJson(threads, periodUs, runUs));
          yield GuestWorkload.rtappPeriodic(threads, periodUs, runUs, seconds, json);
        }
        case "forkexec" -> {
          if (!recording) {
            throw new IllegalArgumentException(
                "--workload forkexec has no simulator" + " counterpart: it is for record only");
          }
          yield GuestWorkload.forkexec(
              Integer.parseInt(w[1]), Integer.parseInt(w[2]), Long.parseLong(w[3]), seconds);
        }
        default ->
            throw new IllegalArgumentException(
                "--workload "
                    + w[0]
                    + " is not gemm, hackbench, schbench or rtapp"
                    + (recording ? " or forkexec" : ""));
      };
    } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
      throw new IllegalArgumentException(
          "--workload takes gemm:THREADS:CHUNK_US:SPIN_US,"
              + " hackbench:GROUPS:FDS:LOOPS, schbench:MESSAGE_THREADS:WORKERS:REQUEST_US:SLEEP_US or"
              + " rtapp:THREADS:PERIOD_US:RUN_US"
              + (recording ? " or forkexec:WORKERS:CHILDREN:RUN_US" : "")
              + ", not '"
              + text
              + "'");
    }
  }

  private static int record(Map<String, String> options, PrintStream out, PrintStream err)
      throws java.io.IOException {
    GuestShape shape = GuestShape.parse(require(options, "--shape"));
    double seconds = Double.parseDouble(options.getOrDefault("--seconds", "2"));
    String workloadText = require(options, "--workload");
    Path trace = Path.of(require(options, "--out"));
    Path work =
        options.containsKey("--work")
            ? Path.of(options.get("--work"))
            : Files.createTempDirectory("schedlab-oracle-record");
    GuestWorkload workload = workload(workloadText, seconds, shape, true, work);
    Path kernel = options.containsKey("--kernel") ? Path.of(options.get("--kernel")) : null;
    Accelerator accel = options.containsKey("--accel") ? accelerator(options.get("--accel")) : null;
    HostTools tools = HostTools.find(true, line -> err.println("schedlab kernel: " + line));
    TraceRecorder.Recording recording =
        new TraceRecorder(tools, line -> err.println("schedlab kernel: " + line))
            .record(
                new KernelOracle.Request(
                    shape, options.getOrDefault("--append", ""), kernel, accel, work),
                workload,
                trace);
    out.print(recording.summary());
    return 0;
  }

  private static int random(Map<String, String> options, PrintStream out, PrintStream err)
      throws java.io.IOException {
    int count = Integer.parseInt(options.getOrDefault("--count", "100"));
    long seed = Long.parseLong(options.getOrDefault("--seed", "1"));
    int maxCpus = Integer.parseInt(options.getOrDefault("--max-cpus", "32"));
    Path tsv = Path.of(require(options, "--out"));
    Path work =
        options.containsKey("--work")
            ? Path.of(options.get("--work"))
            : Files.createTempDirectory("schedlab-oracle-random");
    HostTools tools = HostTools.find(true, line -> err.println("schedlab kernel: " + line));
    KernelOracle oracle = new KernelOracle(tools, line -> {});
    String summary =
        new DomainSuite(oracle, work)
            .run(dev.schedlab.oracle.guest.RandomShapes.draw(seed, count, maxCpus), tsv, err);
    out.println(summary);
    return 0;
  }

  private static Map<String, String> options(String[] args, String command, List<String> known) {
    if (args.length == 0 || !args[0].equals(command)) {
      throw new IllegalArgumentException(USAGE);
    }
    Map<String, String> out = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!known.contains(args[i]) || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "unknown or incomplete option '" + args[i] + "'; " + USAGE);
      }
      out.put(args[i], args[i + 1]);
    }
    return out;
  }

  private static String require(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException(name + " is required; " + USAGE);
    }
    return value;
  }

  private static Accelerator accelerator(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "tcg" -> Accelerator.TCG;
      case "kvm" -> Accelerator.KVM;
      default ->
          throw new IllegalArgumentException("--accel '" + text + "' is not one of tcg, kvm");
    };
  }
}
